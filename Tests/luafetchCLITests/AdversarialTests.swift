// Regression tests for issue 29's adversarial repros (../shared/robustness/adversarial, copied into
// Robustness/adversarial with their names; its INDEX.txt says how each ran and what it did). Each
// runs the built binary the way the index says, under a memory limit and a time limit
// (CLI.run's memoryKiB and seconds), and checks the fixed behaviour: exit 0, 1 or 2 (never 3),
// done in seconds, nothing written outside the path asked for, `FILE:LINE` (or `FILE:` for a
// whole file) on exit 2, output that stays valid HTML, XML and JSON and one GitHub annotation per
// problem. Symlinks and FIFOs, which the repository does not keep (a link loop would also trip up
// the build's scan of the tests), are made in a scratch copy.
import Foundation
import Testing

@Suite struct AdversarialTests {
    static let dir = CLI.root.appendingPathComponent("Tests/luafetchCLITests/Robustness/adversarial")
    /// Virtual memory a run may reserve: a run that grew past about 1 GiB of real memory fails.
    static let memoryKiB = 1_500_000

    static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Runs luafetch with the limits every repro runs under; fails the test on a kill or exit 3.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    seconds: Int = 60) throws -> CLI.Result {
        let r = try CLI.run(arguments, input: "", memoryKiB: memoryKiB, seconds: seconds, directory: directory, environment: environment)
        #expect([0, 1, 2].contains(r.status), "exit \(r.status) for \(arguments): \(r.stderr.prefix(300))")
        return r
    }

    /// A scratch copy of the repros `names` (files or folders), to add links and FIFOs to.
    static func scratch(_ names: String...) throws -> URL {
        let work = try tempDir("adversarial")
        for n in names {
            try FileManager.default.copyItem(at: dir.appendingPathComponent(n), to: work.appendingPathComponent(n))
        }
        return work
    }

    @Test func everyReproHasATest() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.dir.path)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        for n in names { #expect(source.contains("\"\(n)\""), "no test names \(n)") }
    }

    // MARK: - Writes outside the asked path (R18, R19, index.html)

    /// R18: `types` refuses a linked `.luafetch/luafetch.lua` (and, with --force, linked
    /// `.luarc.json`/`.luacheckrc`, or a linked `.luafetch` folder): exit 2, the target untouched.
    @Test func typesNeverWritesThroughALink() throws {
        let work = try Self.scratch("R18_types_symlink_write")
        let root = work.appendingPathComponent("R18_types_symlink_write")
        let victim = root.appendingPathComponent("VICTIM.txt").path
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let d = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: d.appendingPathComponent(".luafetch"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: d.appendingPathComponent(".luafetch/luafetch.lua").path, withDestinationPath: victim)
        let r = try Self.run(["types", d.path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("luafetch types: cannot write \(d.path)/.luafetch/luafetch.lua: it is a symbolic link"), "\(r.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        try FileManager.default.removeItem(atPath: d.appendingPathComponent(".luafetch/luafetch.lua").path)
        for name in [".luarc.json", ".luacheckrc"] {
            let link = d.appendingPathComponent(name).path
            try FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
            let f = try Self.run(["types", d.path, "--force"])
            #expect(f.status == 2 && f.stderr.contains("cannot write \(link): it is a symbolic link"), "\(f.stderr)")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
            try FileManager.default.removeItem(atPath: link)
        }
        let folder = d.appendingPathComponent(".luafetch").path
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: root.path)
        let l = try Self.run(["types", d.path])
        #expect(l.status == 2 && l.stderr.contains("cannot make \(folder): it is a symbolic link"), "\(l.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("luafetch.lua").path))
        try FileManager.default.removeItem(atPath: folder)
        #expect(try Self.run(["types", d.path]).status == 0)  // the same folder without links is written
    }

    /// R19: `new` never creates a dangling link's target, nor writes through a link.
    @Test func newNeverCreatesWhatALinkPointsTo() throws {
        let work = try tempDir("r19")
        let target = work.appendingPathComponent("created_outside.lua").path
        let link = work.appendingPathComponent("x.lua").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let r = try Self.run(["new", link])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("luafetch new: cannot write \(link): it is a symbolic link"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
        let plain = work.appendingPathComponent("y.lua").path
        #expect(try Self.run(["new", plain]).status == 0)
        let again = try Self.run(["new", plain])
        #expect(again.status == 2 && again.stderr.contains("already exists"))
    }

    /// `test --html DIR` and `--junit FILE` never write through a link already there.
    @Test func reportsNeverWriteThroughALink() throws {
        let work = try tempDir("links")
        let victim = work.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let pages = work.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: pages.appendingPathComponent("index.html").path, withDestinationPath: victim)
        let r = try Self.run(["test", "examples/hello.lua", "--html", pages.path])
        #expect(r.status == 2 && r.stderr.contains("cannot write \(pages.path)/index.html: it is a symbolic link"), "\(r.stderr)")
        let junit = work.appendingPathComponent("j.xml").path
        try FileManager.default.createSymbolicLink(atPath: junit, withDestinationPath: victim)
        let j = try Self.run(["test", "examples/hello.lua", "--junit", junit])
        #expect(j.status == 2 && j.stderr.contains("cannot write \(junit): it is a symbolic link"), "\(j.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }
}
