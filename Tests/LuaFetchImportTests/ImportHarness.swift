// Test harness for the importer: writes Swift sources (and an Info.plist) to a scratch folder,
// imports them with `Importer.run`, writes the scenario beside them and runs it in-process
// through ScenarioRuntime, so a test states a translation rule as Swift in and what the app
// printed (or broke) out.
import Foundation
import LuaFetchCore
@testable import LuaFetchImport
@testable import LuaFetchScripting

/// What importing and running an app gave.
struct Imported {
    let result: ImportResult
    let path: String
    let runtime: ScenarioRuntime?
    let error: ScenarioError?
    var scenario: String { result.scenario }
    var world: World? { runtime?.world }
    /// What the app printed, in order.
    var printed: [String] { world?.timeline.filter { $0.kind == .log }.map(\.message) ?? [] }
    var codes: [String] { world?.violations.map(\.code.rawValue) ?? [] }
    var messages: [String] { world?.timeline.map(\.message) ?? [] }
}

enum ImportHarness {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>UIBackgroundModes</key><array><string>fetch</string><string>processing</string><string>remote-notification</string></array>
        <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.refresh</string></array>
        </dict></plist>
        """

    /// An Info.plist whose scene manifest names the app's SceneDelegate (and a storyboard).
    static func scenePlist(storyboard: String? = nil) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>UIApplicationSceneManifest</key><dict>
          <key>UISceneConfigurations</key><dict>
            <key>UIWindowSceneSessionRoleApplication</key><array><dict>
              <key>UISceneConfigurationName</key><string>Default Configuration</string>
              <key>UISceneDelegateClassName</key><string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
        \(storyboard.map { "      <key>UISceneStoryboardFile</key><string>\($0)</string>\n" } ?? "")\
            </dict></array>
          </dict>
        </dict>
        </dict></plist>
        """
    }

    /// A scratch folder holding `files` (name → text).
    static func folder(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir.path
    }

    /// Lua's parser, as the command hands it to the importer (18.8.5).
    static let checker = LuaSyntaxCheck()!
    static let checkLua: @Sendable (String, String) -> String? = { chunk, name in checker.check(chunk, name: name) }

    /// Imports `files`, appends `extra` Lua to the scenario, and runs it (`script`: what the
    /// person does instead of the default world: the scenario then ends after the app's code).
    static func run(_ files: [String: String], plist: String? = ImportHarness.plist, extra: String = "",
                    options: RunOptions = RunOptions()) throws -> Imported {
        var all = files
        if let plist { all["Info.plist"] = plist }
        let dir = try folder(all)
        let result = try Importer.run(ImportOptions(paths: [dir], luaCheck: checkLua))
        let path = dir + "/imported.lua"
        try (result.scenario + extra).write(toFile: path, atomically: true, encoding: .utf8)
        let runtime = ScenarioRuntime(path: path, options: options)
        do {
            try runtime.load()
            try runtime.run()
            return Imported(result: result, path: path, runtime: runtime, error: nil)
        } catch {
            return Imported(result: result, path: path, runtime: runtime, error: error)
        }
    }

    /// An app delegate whose didFinishLaunching runs `body` (Swift statements), with `members`
    /// beside it and `others` as more top-level declarations.
    static func launching(_ body: String, members: String = "", others: String = "") -> [String: String] {
        ["AppDelegate.swift": """
        import UIKit

        @main
        class AppDelegate: UIResponder, UIApplicationDelegate {
            \(members)
            func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                \(body)
                return true
            }
        }

        \(others)
        """]
    }
}
