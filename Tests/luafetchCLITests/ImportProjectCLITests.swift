// `luafetch import` of a repository as it is (SPEC 18.8.1–18.8.3), as a user runs it on the
// fixture repositories of Tests/LuaFetchImportTests/Projects: the report's first lines (the
// project, the target chosen and why, the others with their option), `--target`, the resolved
// Info.plist in the scenario's app{}, and bad input with its exit code and message (no iOS app,
// an unknown --target with "did you mean", a malformed project, a preprocessor error, symbolic
// link loops, 100,000-file trees and binary files: no hang, bounded memory).
import Foundation
import Testing

@Suite(.serialized) struct ImportProjectCLITests {
    static let projects = "Tests/LuaFetchImportTests/Projects"

    static func importing(_ name: String, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.run(["import", projects + "/" + name] + extra)
    }

    /// The scenario's `app { ... }` block.
    static func appBlock(_ scenario: String) -> String {
        guard let start = scenario.range(of: "\napp {") else { return "" }
        let rest = scenario[start.lowerBound...]
        return String(rest.prefix(600))
    }

    @Test func theReportOpensWithTheProjectTheTargetAndTheOthers() throws {
        let r = try Self.importing("apps_and_extensions")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == [
            "project  Orbit.xcodeproj (Xcode project)",
            "target   Orbit (the only iOS application target; 2 Swift files)",
            "others   --target OrbitMac (macOS app), --target OrbitWatch (watchOS app), --target OrbitWidget (extension)",
        ])
        // Only the iOS app's files: the header lists them.
        #expect(r.stdout.contains("--   Orbit/AppDelegate.swift") && !r.stdout.contains("OrbitWatch/") && !r.stdout.contains("OrbitMac/"))
        #expect(Self.appBlock(r.stdout).contains("permittedIdentifiers = { \"com.example.orbit.refresh\" }"))
    }

    @Test func targetPicksAnotherTargetAndTheCommandSaysSo() throws {
        let r = try Self.importing("helper_app", ["--target", "Tandem Helper"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("target   Tandem Helper (chosen with --target; 5 Swift files)"))
        #expect(r.stderr.contains("others   --target Tandem (iOS app)"))
        #expect(r.stdout.contains("-- Written by `luafetch import \(Self.projects)/helper_app --target \"Tandem Helper\"`"))
        let byName = try Self.importing("helper_app")
        #expect(byName.stderr.contains("target   Tandem (the iOS application target named like the project; 2 Swift files)"))
    }

    @Test func anUnknownTargetIsExit2WithTheTargetsAndADidYouMean() throws {
        let r = try Self.importing("apps_and_extensions", ["--target", "OrbitWigdet"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "luafetch import: --target OrbitWigdet: no such target in Orbit.xcodeproj; its targets: Orbit, OrbitWatch, OrbitWidget, OrbitMac; did you mean --target OrbitWidget?\n")
        let far = try Self.importing("apps_and_extensions", ["--target", "Zzzzzzzz"])
        #expect(far.status == 2 && !far.stderr.contains("did you mean"), "\(far.stderr)")
    }

    @Test func aRepositoryWithNoIOSAppIsExit2NamingItsTargets() throws {
        let mac = try Self.importing("mac_only")
        #expect(mac.status == 2)
        #expect(mac.stderr.contains("no iOS application target in Desk.xcodeproj (Xcode project); its targets: Desk (macOS app), DeskKit (framework)"))
        let package = try Self.importing("package_only")
        #expect(package.status == 2)
        #expect(package.stderr.contains("(Swift package); its targets: Inkwell (library), inkwell-cli (command-line tool)"))
    }

    @Test func aMalformedProjectIsAWarningWithItsPathAndLineThenTheFolderSearch() throws {
        let r = try Self.importing("malformed_project")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Broken.xcodeproj/project.pbxproj:13: warning: Expected terminating ')' for array at line 13; this project is left out"))
        #expect(r.stdout.contains("--   AppDelegate.swift"))
    }

    @Test func aPreprocessorErrorInTheInfoPlistIsExit2AtItsLine() throws {
        let r = try Self.importing("plist_error")
        #expect(r.status == 2)
        #expect(r.stderr == "Slate/Info.plist:7: #if without #endif\n")
    }

    @Test func theInfoPlistIsResolvedFromTheTargetsBuildSettings() throws {
        // `$(PRODUCT_BUNDLE_IDENTIFIER).refresh` is the real identifier: the launch handler runs.
        let ember = try Self.importing("permitted_identifier_setting")
        #expect(ember.status == 0, "\(ember.stderr)")
        #expect(Self.appBlock(ember.stdout).contains("permittedIdentifiers = { \"com.example.ember.refresh\" }"))
        #expect(!ember.stderr.contains("not permitted") && !ember.stderr.contains("never registered"), "\(ember.stderr)")
        #expect(ember.stderr.contains("Ember/Info.plist: warning: EmberBuildChannel: $(EMBER_CHANNEL) is defined nowhere luafetch can see"))
        // Bundle.main reads it at run time: the identifier the code builds from the bundle's is permitted.
        #expect(ember.stdout.contains("swift.infoPlist({") && ember.stdout.contains("}, \"com.example.ember\")"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-ember-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("ember.lua").path
        try ember.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", path, "--no-color"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("refreshing for Ember") && run.stdout.contains("bgtasks    2 launched: com.example.ember.refresh ×2"), "\(run.stdout)")
        // The preprocessor with the target's definitions.
        let beacon = try Self.importing("plist_ifdef")
        #expect(beacon.status == 0, "\(beacon.stderr)")
        #expect(Self.appBlock(beacon.stdout).contains("backgroundModes = { \"processing\", \"remote-notification\", \"fetch\" }"))
        // A generated Info.plist: its scene manifest and modes.
        let sprout = try Self.importing("generated_plist")
        #expect(sprout.status == 0, "\(sprout.stderr)")
        #expect(sprout.stderr.contains("luafetch import: 1 Swift file, Sprout's generated Info.plist"))
        #expect(Self.appBlock(sprout.stdout).contains("scenes = true"))
        #expect(sprout.stdout.contains("scenario { name = \"Sprout Garden\""))
    }

    @Test func withoutAProjectTheReportSaysWhichAppFolderItChose() throws {
        let r = try Self.importing("no_project")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("app      the iOS app in PhoneApp/ (AppDelegate.swift); left out WatchApp/ (watch app)\n"))
        #expect(!r.stdout.contains("WatchApp/") && r.stdout.contains("--   Shared/Pace.swift"))
    }

    @Test func everyFixtureRepositoryImportsTheSameTwiceAndItsScenarioRuns() throws {
        let good = ["apps_and_extensions", "generated_plist", "groups_and_sources_phase", "helper_app", "linked_framework", "no_project",
                    "permitted_identifier_setting", "plist_ifdef", "same_global_two_modules", "synchronized_folders", "xcconfig_inherited",
                    "xcodegen_local_package"]
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-projects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in good {
            let a = try Self.importing(name), b = try Self.importing(name)
            #expect(a.status == 0, "\(name): \(a.stderr)")
            #expect(a.stdout == b.stdout && a.stderr == b.stderr, "\(name) differs between two imports")
            let path = dir.appendingPathComponent("\(name).lua").path
            try a.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try CLI.run(["run", path, "--quiet", "--no-color"])
            #expect(run.status == 0 || run.status == 1, "\(name): \(run.stderr)\(run.stdout)")
        }
    }

    // MARK: - Trees that must not hang, crash or grow without bound

    static func scratch(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static let app = "import UIKit\n@main\nclass AppDelegate: UIResponder, UIApplicationDelegate {}\n"

    @Test func symbolicLinkLoopsEndTheWalk() throws {
        let dir = try Self.scratch("loops")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App/Deep"), withIntermediateDirectories: true)
        try Self.app.write(to: dir.appendingPathComponent("App/AppDelegate.swift"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("App/Deep/again").path, withDestinationPath: dir.path)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("App/self").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("dangling").path, withDestinationPath: "nowhere/at/all")
        let r = try CLI.run(["import", dir.path], input: "", memoryKiB: 2_000_000, seconds: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let listed = r.stdout.split(separator: "\n").filter { $0.hasPrefix("--   ") }
        #expect(listed == ["--   AppDelegate.swift"], "the file is read once: \(listed)")
    }

    @Test func aHundredThousandFileTreeEndsInBoundedMemory() throws {
        let dir = try Self.scratch("wide")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Self.app.write(to: dir.appendingPathComponent("App/AppDelegate.swift"), atomically: true, encoding: .utf8)
        for folder in 0..<100 {
            let f = dir.appendingPathComponent("Data/f\(folder)")
            try FileManager.default.createDirectory(at: f, withIntermediateDirectories: true)
            for n in 0..<1000 { FileManager.default.createFile(atPath: f.appendingPathComponent("item\(n).json").path, contents: nil) }
        }
        let r = try CLI.run(["import", dir.path], input: "", memoryKiB: 2_000_000, seconds: 120)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("--   AppDelegate.swift"))
    }

    @Test func binaryFilesUnderTheRootAreWarningsNotCrashes() throws {
        let dir = try Self.scratch("binary")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Noise.xcodeproj"), withIntermediateDirectories: true)
        try Self.app.write(to: dir.appendingPathComponent("App/AppDelegate.swift"), atomically: true, encoding: .utf8)
        var bytes = [UInt8](repeating: 0, count: 300_000)
        var x: UInt32 = 7
        for i in bytes.indices { x = x &* 1_103_515_245 &+ 12_345; bytes[i] = UInt8(truncatingIfNeeded: x >> 16) }
        for path in ["Noise.xcodeproj/project.pbxproj", "project.yml", "Package.swift", "App/Garbage.swift", "App/Info.plist.bin"] {
            try Data(bytes).write(to: dir.appendingPathComponent(path))
        }
        let r = try CLI.run(["import", dir.path], input: "", memoryKiB: 2_000_000, seconds: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Noise.xcodeproj/project.pbxproj:1: warning: a binary file, not the text property list Xcode writes; this project is left out"))
        #expect(r.stderr.contains("App/Garbage.swift: warning: a binary file, not Swift; it is left out"))
    }
}
