// Without any project file, the folder search of SPEC 18.1 stays, preferring the folder of the
// UIKit/SwiftUI app (SPEC 18.8.2): the files that declare an app (`@main`, `@UIApplicationMain`,
// `UIApplicationMain(`, an app delegate, a SwiftUI `App`) are told apart by kind: watch
// (`WKApplicationDelegate`, `WKExtensionDelegate`, WatchKit, a folder named for the watch) and
// macOS (`NSApplicationDelegate`, AppKit, a folder named for the Mac) against iOS. When iOS and
// other kinds are found in separate folders, the others' folders are left out, and the report
// says which it chose. Reads file texts only (no parse). Uses ProjectPaths.

enum FolderChoice {
    enum AppKind: String { case iOS = "iOS app", watch = "watch app", macOS = "macOS app" }

    /// The kind of app a file declares, or nil when it declares none.
    static func appKind(_ text: String, path: String) -> AppKind? {
        let declares = text.contains("@main") || text.contains("@UIApplicationMain") || text.contains("UIApplicationMain(")
            || text.contains("@NSApplicationMain") || text.contains("UIApplicationDelegate") || text.contains("NSApplicationDelegate")
            || text.contains("WKApplicationDelegate") || text.contains("WKExtensionDelegate")
        guard declares else { return nil }
        // `@main` of something that is not an app (a command-line tool) says nothing.
        let appLike = text.contains("ApplicationDelegate") || text.contains("UIApplicationMain") || text.contains("@NSApplicationMain")
            || (text.contains("import SwiftUI") && text.contains(": App"))
        guard appLike else { return nil }
        let folders = path.lowercased().split(separator: "/").dropLast()
        if text.contains("WKApplicationDelegate") || text.contains("WKExtensionDelegate") || text.contains("import WatchKit")
            || folders.contains(where: { $0.contains("watch") }) {
            return .watch
        }
        if text.contains("NSApplicationDelegate") || text.contains("@NSApplicationMain") || text.contains("import AppKit") && !text.contains("import UIKit")
            || folders.contains(where: { $0 == "mac" || $0 == "macos" || $0.hasSuffix("-macos") || $0.hasSuffix("_macos") || $0.hasSuffix(" macos") }) {
            return .macOS
        }
        return .iOS
    }

    /// The folders to leave out (relative to the common folder, as shown) and the report's line,
    /// from the shown paths and texts of the Swift files found.
    static func choose(_ files: [(shown: String, text: String)]) -> (leftOut: [String], line: String?) {
        var apps: [(shown: String, kind: AppKind)] = []
        for f in files { if let k = appKind(f.text, path: f.shown) { apps.append((f.shown, k)) } }
        let ios = apps.filter { $0.kind == .iOS }
        let others = apps.filter { $0.kind != .iOS }
        guard let main = ios.first else { return ([], nil) }
        guard !others.isEmpty else { return ([], nil) }
        var leftOut: [(folder: String, kind: AppKind)] = []
        for o in others {
            // The folder of the other app, below what it shares with every iOS app file.
            let parts = o.shown.split(separator: "/").map(String.init)
            var depth = 0
            for i in ios {
                let ip = i.shown.split(separator: "/").map(String.init)
                var n = 0
                while n < parts.count - 1 && n < ip.count - 1 && parts[n] == ip[n] { n += 1 }
                depth = max(depth, n)
            }
            guard depth < parts.count - 1 else { continue }  // in an iOS app's own folder: cannot be told apart
            let folder = parts[0...depth].joined(separator: "/")
            if !leftOut.contains(where: { $0.folder == folder }) { leftOut.append((folder, o.kind)) }
        }
        guard !leftOut.isEmpty else {
            return ([], "app      the iOS app of \(main.shown); \(others.map { "\($0.shown) (\($0.kind.rawValue))" }.joined(separator: ", ")) share its folder and are imported too")
        }
        let mainFolder = ProjectPaths.folder(of: main.shown)
        let described = leftOut.map { "\($0.folder)/ (\($0.kind.rawValue))" }.joined(separator: ", ")
        return (leftOut.map(\.folder), "app      the iOS app in \(mainFolder == "." ? "the folder given" : mainFolder + "/") (\(ProjectPaths.name(of: main.shown))); left out \(described)")
    }
}
