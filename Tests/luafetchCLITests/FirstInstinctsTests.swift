// A person's first instincts at the command line get answers that say what to do (issue 39.6):
// Swift handed to run/test/explore points at `luafetch import`; an unknown option is named, with
// "did you mean", whatever follows it; a misspelled subcommand gets "did you mean". All exit 2.
import Foundation
import Testing

@Suite struct FirstInstinctsTests {
    static let swiftFile = "Tests/LuaFetchImportTests/Fixtures/legacy_fetch/buggy/AppDelegate.swift"
    static let swiftFolder = "Tests/LuaFetchImportTests/Fixtures/legacy_fetch/buggy"

    @Test(arguments: [["run", swiftFile], [swiftFile], ["explore", swiftFile], ["test", swiftFile],
                      ["run", swiftFolder], ["explore", swiftFolder], ["test", swiftFolder]])
    func swiftIsPointedAtImport(_ args: [String]) throws {
        let r = try CLI.run(args)
        let path = args.last!
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stderr.contains("\(path): this is Swift: luafetch import \(path) writes a scenario from it"), "\(args): \(r.stderr)")
    }

    /// An Xcode project folder (a *.xcodeproj beside the sources, which sit one level down).
    @Test func anXcodeFolderIsSwift() throws {
        let dir = try tempDir("xcode")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("MyApp.xcodeproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("MyApp"), withIntermediateDirectories: true)
        try "import UIKit\n".write(to: dir.appendingPathComponent("MyApp/AppDelegate.swift"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["test", dir.path])
        #expect(r.status == 2 && r.stderr.contains("this is Swift: luafetch import"), "\(r.stderr)")
        // The project itself names its folder (the walkthrough's `luafetch xc/Walk.xcodeproj` said
        // "is a directory, not a .lua scenario file").
        let project = dir.appendingPathComponent("MyApp.xcodeproj").path
        let p = try CLI.run(["run", project])
        #expect(p.status == 2 && p.stderr.contains("\(project): this is Swift: luafetch import \(dir.path) writes a scenario from it"), "\(p.stderr)")
        // A folder of scenarios beside Swift sources is still a folder of scenarios.
        try "app {}\nat(0, user.launch)\n".write(to: dir.appendingPathComponent("ok.lua"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["test", dir.path]).status == 0)
    }

    /// `--html` takes a folder: given a page's name, explore says so instead of making a folder
    /// named `page.html`.
    @Test func explorePagesGoToAFolder() throws {
        let r = try CLI.run(["explore", "examples/hello.lua", "--runs", "5", "--html", "/tmp/luafetch-never-made.html"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--html takes a folder (it writes index.html and a page for each finding there): try --html /tmp/luafetch-never-made"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/luafetch-never-made.html"))
    }

    @Test func anUnknownOptionIsNamedWhateverFollowsIt() throws {
        let r = try CLI.run(["explore", "examples/hello.lua", "--run", "500"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("luafetch explore: unknown option '--run'; did you mean '--runs'?"), "\(r.stderr)")
        let t = try CLI.run(["test", "examples/hello.lua", "--junt", "x.xml"])
        #expect(t.status == 2 && t.stderr.contains("unknown option '--junt'; did you mean '--junit'?"), "\(t.stderr)")
        let run = try CLI.run(["examples/hello.lua", "--sede", "3", "extra.lua"])
        #expect(run.status == 2 && run.stderr.contains("luafetch run: unknown option '--sede'; did you mean '--seed'?"), "\(run.stderr)")
    }

    @Test func aMisspelledCommandGetsDidYouMean() throws {
        for (typed, meant) in [("explor", "explore"), ("tset", "test"), ("improt", "import")] {
            let r = try CLI.run([typed, "examples/hello.lua"])
            #expect(r.status == 2)
            #expect(r.stderr.contains("unknown command '\(typed)'; did you mean 'luafetch \(meant)'?"), "\(typed): \(r.stderr)")
        }
        // A scenario's name is never taken for a command.
        #expect(try CLI.run(["examples/hello.lua", "--quiet"]).status == 0)
    }
}
