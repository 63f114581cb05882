// `luafetch import` (SPEC 18) as a user runs it: every fixture app (Tests/LuaFetchImportTests/
// Fixtures, each a buggy and a fixed variant with an EXPECT file) imports to its recorded
// scenario, byte for byte and the same on every run; the scenario runs and is luacheck-clean;
// explore finds the planted bug at its Swift line and nothing on the fixed variant; bad input
// is exit 2 with the file, line and column.
import Foundation
import Testing

@Suite(.serialized) struct ImportCLITests {
    static let fixtures = CLI.root.appendingPathComponent("Tests/LuaFetchImportTests/Fixtures")
    static let snapshots = CLI.root.appendingPathComponent("Tests/LuaFetchImportTests/Snapshots")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()

    /// A fixture's EXPECT file as key → value.
    static func expect(_ name: String) throws -> [String: String] {
        let text = try String(contentsOf: fixtures.appendingPathComponent("\(name)/EXPECT"), encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            if out[key] == nil { out[key] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces) }
        }
        return out
    }

    /// Imports a fixture's variant (its path relative to the package root, as a user types it)
    /// into a scratch file; appends the fixture's stubs.lua when it has one.
    static func imported(_ name: String, _ variant: String, stubs: Bool = true) throws -> (path: String, scenario: String, stderr: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-import-\(name)-\(variant)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("\(name)_\(variant).lua").path
        let r = try CLI.run(["import", "Tests/LuaFetchImportTests/Fixtures/\(name)/\(variant)", "-o", out])
        #expect(r.status == 0, "\(name)/\(variant): \(r.stderr)")
        var scenario = try String(contentsOfFile: out, encoding: .utf8)
        let stubsFile = fixtures.appendingPathComponent("\(name)/stubs.lua")
        if stubs, let extra = try? String(contentsOf: stubsFile, encoding: .utf8) {
            scenario += extra
            try scenario.write(toFile: out, atomically: true, encoding: .utf8)
        }
        return (out, scenario, r.stderr)
    }

    @Test func thereAreTheFixturesTheIssueAsks() {
        #expect(Self.names.count >= 10, "\(Self.names)")
    }

    /// The scenario of each variant, as recorded (re-record on purpose: LUAFETCH_RECORD=1).
    @Test(arguments: ImportCLITests.names)
    func importsToItsRecordedScenarioAndTheSameBytesTwice(name: String) throws {
        for variant in ["buggy", "fixed"] {
            let r1 = try CLI.run(["import", "Tests/LuaFetchImportTests/Fixtures/\(name)/\(variant)"])
            let r2 = try CLI.run(["import", "Tests/LuaFetchImportTests/Fixtures/\(name)/\(variant)"])
            #expect(r1.status == 0, "\(r1.stderr)")
            #expect(r1.stdout == r2.stdout && r1.stderr == r2.stderr, "\(name)/\(variant) differs between two imports")
            let snap = Self.snapshots.appendingPathComponent("\(name)_\(variant).lua")
            if ProcessInfo.processInfo.environment["LUAFETCH_RECORD"] != nil {
                try r1.stdout.write(to: snap, atomically: true, encoding: .utf8)
            }
            let recorded = try String(contentsOf: snap, encoding: .utf8)
            #expect(r1.stdout == recorded, "\(name)/\(variant) differs from its snapshot; re-record on purpose with LUAFETCH_RECORD=1")
        }
    }

    /// Runs (never exit 2 because of the importer) and is luacheck-clean with the generated standard.
    @Test(arguments: ImportCLITests.names)
    func theScenarioRunsAndIsLuacheckClean(name: String) throws {
        for variant in ["buggy", "fixed"] {
            let (path, _, _) = try Self.imported(name, variant)
            let run = try CLI.run(["run", path, "--quiet", "--no-color"])
            #expect(run.status == 0 || run.status == 1, "\(name)/\(variant): \(run.stderr)\(run.stdout)")
            let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let types = try CLI.run(["types", dir])
            #expect(types.status == 0, "\(types.stderr)")
            guard let luacheck = CLI.which("luacheck") else { continue }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: luacheck)
            p.arguments = ["--no-color", "--codes", "."]
            p.currentDirectoryURL = URL(fileURLWithPath: dir)
            let r = try CLI.collect(p)
            #expect(r.status == 0, "\(name)/\(variant) is not luacheck-clean:\n\(r.stdout)")
        }
    }

    /// Explore finds the planted bug at its Swift line (500 runs), and nothing on the fixed variant (5,000 runs).
    @Test(arguments: CLI.explored(ImportCLITests.names))
    func exploreFindsThePlantedBugAtItsSwiftLineAndNothingOnTheFix(name: String) throws {
        let expected = try Self.expect(name)
        let code = try #require(expected["violation"]), line = try #require(expected["buggy"])
        let (buggy, _, _) = try Self.imported(name, "buggy")
        // 500 runs find every planted bug (each first within 7 runs; seeds are fixed): more only
        // repeated the same findings. The fixed variant keeps the 5,000 that say it is clean.
        let found = try CLI.run(["explore", buggy, "--runs", "500", "--format", "jsonl"])
        #expect(found.status == 1, "\(name): \(found.stderr)")
        let findings = try jsonLines(found.stdout).filter { $0["type"] as? String == "finding" }
        let swiftLines = findings.flatMap { ($0["members"] as? [[String: Any]]) ?? [] }.map { ($0["code"] as? String ?? "", $0["location"] as? String ?? "") }
        #expect(swiftLines.contains { $0.0 == code && $0.1.hasPrefix(line + " (") }, "\(name): \(code) at \(line) not among \(swiftLines)")
        let replays = try replayMismatches(found.stdout)  // each finding's replay shows it (ReplayTests)
        #expect(replays.isEmpty, "\(name):\n\(replays.joined(separator: "\n"))")
        let (fixed, _, _) = try Self.imported(name, "fixed")
        let clean = try CLI.run(["explore", fixed, "--runs", CLI.fixtureExploreRuns, "--no-color"])
        #expect(clean.status == 0 && clean.stdout.contains("nothing found"), "\(name)/fixed:\n\(clean.stdout)\(clean.stderr)")
    }

    @Test func aReplayOfAFindingRunsAsExploreDrew() throws {
        let (buggy, _, _) = try Self.imported("bgtask_refresh_chain", "buggy")
        let r = try CLI.run(["explore", buggy, "--runs", "300", "--no-color"])
        let replay = try #require(r.stdout.split(separator: "\n").first { $0.contains("replay   luafetch run") })
        #expect(replay.contains("--stub-draws explore"), "\(replay)")
        let again = try CLI.run(replayArguments(String(replay)))
        #expect(again.status == 1 && again.stdout.contains("AppDelegate.swift:"), "\(again.stdout)")
    }

    /// SPEC 18.5: the text timeline, JSON Lines, the HTML page, JUnit and GitHub annotations name
    /// the Swift line (the annotation goes on the Swift file, from where the import ran).
    @Test func findingsNameTheSwiftLineInEveryFormat() throws {
        let (path, scenario, _) = try Self.imported("task_id_property", "buggy")
        // A Home, an open and a Home again while the first upload is in flight.
        try (scenario + "at(61, user.open)\nat(61.5, user.home)\n").write(toFile: path, atomically: true, encoding: .utf8)
        let text = try CLI.run(["run", path, "--no-color"])
        #expect(text.status == 1 && text.stdout.contains("✗ task-expired [error, 0x8badf00d] AppDelegate.swift:28 ("), "\(text.stdout)")
        let jsonl = try CLI.run(["run", path, "--format", "jsonl"])
        let violation = try jsonLines(jsonl.stdout).compactMap { $0["violation"] as? [String: Any] }.first { $0["code"] as? String == "task-expired" }
        #expect(violation?["swift"] as? String == "AppDelegate.swift:28", "\(String(describing: violation))")
        #expect((violation?["location"] as? String)?.hasSuffix(".lua:32") == true, "\(String(describing: violation))")
        let html = try CLI.run(["run", path, "--format", "html"])
        #expect(html.stdout.contains("AppDelegate.swift:28"))
        let junit = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("junit.xml").path
        let test = try CLI.run(["test", path, "--junit", junit], environment: ["GITHUB_ACTIONS": "true"])
        #expect(test.stdout.contains("::error file=Tests/LuaFetchImportTests/Fixtures/task_id_property/buggy/AppDelegate.swift,line=28,title=task-expired::"), "\(test.stdout)")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("AppDelegate.swift:28 ("))
    }

    // MARK: - The command

    @Test func swiftThatDoesNotParseIsExit2WithFileLineAndColumn() throws {
        let dir = try scratch(["Broken.swift": "import UIKit\nclass A {\n    func f() {\n        let x = (1 +\n    }\n"])
        let r = try CLI.run(["import", dir])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("Broken.swift:"), "\(r.stderr)")
        let parts = r.stderr.split(separator: ":")
        #expect(parts.count >= 4 && Int(parts[1]) != nil && Int(parts[2]) != nil, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func badInputIsExit2NeverACrash() throws {
        #expect(try CLI.run(["import"]).status == 2)
        #expect(try CLI.run(["import", "no/such/folder"]).status == 2)
        let empty = try scratch(["README.md": "no Swift here"])
        let none = try CLI.run(["import", empty])
        #expect(none.status == 2 && none.stderr.contains("no .swift file"), "\(none.stderr)")
        let plist = try scratch(["App.swift": "import UIKit\n", "Info.plist": "<plist><dict><key>UIBackgroundModes</key><string>oops"])
        let bad = try CLI.run(["import", plist])
        #expect(bad.status == 2 && bad.stderr.contains("Info.plist"), "\(bad.stderr)")
        let invalid = try scratch(["App.swift": "import UIKit\n"])
        try Data([0x6c, 0x65, 0x74, 0x20, 0x78, 0x20, 0x3d, 0x20, 0x22, 0xff, 0xfe, 0x22, 0x0a]).write(to: URL(fileURLWithPath: invalid + "/Bytes.swift"))
        let bytes = try CLI.run(["import", invalid])
        #expect(bytes.status == 0 || bytes.status == 2, "\(bytes.stderr)")
        #expect(try CLI.run(["import", plist, "--os", "ios7"]).status == 2)
    }

    @Test func anExistingOutputIsReplacedOnlyWithForceAndNeverThroughALink() throws {
        let dir = try scratch(["App.swift": "import UIKit\n"])
        let out = dir + "/out.lua"
        #expect(try CLI.run(["import", dir + "/App.swift", "-o", out]).status == 0)
        let again = try CLI.run(["import", dir + "/App.swift", "-o", out])
        #expect(again.status == 2 && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try CLI.run(["import", dir + "/App.swift", "-o", out, "--force"]).status == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.lua", withDestinationPath: dir + "/victim.txt")
        let link = try CLI.run(["import", dir + "/App.swift", "-o", dir + "/link.lua", "--force"])
        #expect(link.status == 2, "\(link.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/victim.txt"))
    }

    @Test func aBinaryInfoPlistIsRead() throws {
        // The same keys as the XML form, in bplist00 (written with Foundation's encoder).
        struct Keys: Encodable { var UIBackgroundModes = ["fetch"]; var BGTaskSchedulerPermittedIdentifiers = ["com.example.refresh"] }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let dir = try scratch(["App.swift": "import UIKit\n"])
        try encoder.encode(Keys()).write(to: URL(fileURLWithPath: dir + "/Info.plist"))
        let r = try CLI.run(["import", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("backgroundModes = { \"fetch\" }"), "\(r.stdout)")
        #expect(r.stdout.contains("permittedIdentifiers = { \"com.example.refresh\" }"))
    }

    @Test func theReportSaysWhatWasTranslatedStubbedAndLeftOut() throws {
        let r = try CLI.run(["import", "Tests/LuaFetchImportTests/Fixtures/silent_push_network/buggy"])
        #expect(r.status == 0)
        for part in ["entry points AppDelegate (app delegate, AppDelegate.swift:", "translated   ", "mapped APIs  ", "stubs        "] {
            #expect(r.stderr.contains(part), "\(part) missing in:\n\(r.stderr)")
        }
    }

    @Test func warningsAboutTheAppBeforeAnyRun() throws {
        let dir = try scratch([
            "AppDelegate.swift": """
            import UIKit
            import BackgroundTasks
            @main
            class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    return true
                }
                func applicationDidEnterBackground(_ application: UIApplication) {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.late", using: nil) { task in task.setTaskCompleted(success: true) }
                    let r = BGProcessingTaskRequest(identifier: "com.example.clean")
                    try? BGTaskScheduler.shared.submit(r)
                }
            }
            """,
            "SceneDelegate.swift": """
            import UIKit
            class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                func sceneDidEnterBackground(_ scene: UIScene) {}
            }
            """,
            "Info.plist": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>UIBackgroundModes</key><array><string>remote-notification</string></array>
            <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.refresh</string></array>
            <key>UIApplicationSceneManifest</key><dict></dict>
            </dict></plist>
            """,
        ])
        let r = try CLI.run(["import", dir])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }.map(String.init)
        func has(_ s: String) -> Bool { warnings.contains { $0.contains(s) } }
        #expect(has("AppDelegate.swift:8: warning: applicationDidEnterBackground(_:) never runs"), "\(warnings)")
        #expect(has("AppDelegate.swift:9: warning: BGTaskScheduler.register(\"com.example.late\") is not on the launch path"), "\(warnings)")
        #expect(has("\"com.example.late\" is registered but Info.plist"), "\(warnings)")
        #expect(has("\"com.example.clean\" is submitted but Info.plist"), "\(warnings)")
        #expect(has("Info.plist permits \"com.example.refresh\" but no code registers it"), "\(warnings)")
        #expect(has("the background mode \"processing\""), "\(warnings)")
        #expect(has("declares the background mode \"remote-notification\" but no code uses it"), "\(warnings)")
    }

    /// A scratch folder with `files`.
    func scratch(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir.path
    }
}

extension CLI {
    /// The path of `command` on PATH, if any.
    static func which(_ command: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(command)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
}
