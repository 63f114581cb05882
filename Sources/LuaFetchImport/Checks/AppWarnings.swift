// What import can tell before any run (SPEC 18.6): app-delegate life-cycle methods that never run
// because the app adopted scenes, a scene delegate no manifest uses, a BGTaskScheduler.register
// that the launch path does not reach (LaunchPath), identifiers registered or submitted that
// Info.plist does not permit (or permitted and never registered), background modes used without
// being declared or declared and unused. Each warning has its file:line. Uses the Translator's
// record of registrations, submits and modes, and AppShape's rows.
import SwiftSyntax

extension Translator {
    // MARK: - Warnings before any run (18.6)

    func appWarnings(_ entry: EntryPoints, plist: InfoPlist?, modes: [String], permitted: [String], scenes: Bool, launchPath: Set<String>) {
        if scenes, let d = entry.appDelegate {
            for sel in AppShape.lifecycleSelectors.sorted() {
                if let m = method(d, sel) {
                    warnings.append(("\(m.file.source.shown):\(m.file.line(m.node))",
                                     "\(m.selector) never runs: the app adopted scenes, so UIKit calls the scene delegate instead (docs/RULES.md, Scenes); move this work to the scene delegate's matching method"))
                }
            }
        }
        if let s = entry.sceneDelegate, plist.map({ !$0.hasSceneManifest }) ?? false, entry.swiftUIApp == nil {
            warnings.append(("\(s.file.source.shown):\(s.line)",
                             "\(s.name) is a scene delegate, but Info.plist has no UIApplicationSceneManifest: UIKit never uses it (the app runs the app delegate's life cycle)"))
        }
        for r in registered where !launchPath.contains(r.where) {
            warnings.append((r.where, "BGTaskScheduler.register(\"\(r.id)\") is not on the launch path: registration must happen before didFinishLaunching returns (bgtask-registration)"))
        }
        let permittedSet = Set(permitted)
        func permits(_ id: String) -> Bool { permittedSet.contains(id) || permitted.contains { $0.hasSuffix(".*") && id.hasPrefix(String($0.dropLast(1))) } }
        if plist != nil {
            for r in registered where !permits(r.id) {
                warnings.append((r.where, "the identifier \"\(r.id)\" is registered but Info.plist's BGTaskSchedulerPermittedIdentifiers does not list it"))
            }
            for s in submitted where !permits(s.id) {
                warnings.append((s.where, "the identifier \"\(s.id)\" is submitted but Info.plist's BGTaskSchedulerPermittedIdentifiers does not list it"))
            }
            for p in permitted where !registered.contains(where: { $0.id == p }) && !p.hasSuffix(".*") && !registersComputedIdentifier {
                warnings.append((plist!.path, "Info.plist permits \"\(p)\" but no code registers it"))
            }
            for (mode, loc) in usedModes.sorted(by: { $0.key < $1.key }) where !modes.contains(mode) {
                warnings.append((loc, "this needs the background mode \"\(mode)\", which Info.plist's UIBackgroundModes does not declare"))
            }
            for mode in modes where ["fetch", "processing", "remote-notification"].contains(mode) && usedModes[mode] == nil {
                warnings.append((plist!.path, "Info.plist declares the background mode \"\(mode)\" but no code uses it"))
            }
        }
    }
}
