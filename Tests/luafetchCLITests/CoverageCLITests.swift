// `--coverage FILE` (issue 33) as a user runs it: lcov tracefiles that lcov itself accepts
// (`lcov --summary`, Debian's lcov package; scripts/setup --test installs it), Cobertura XML valid
// against Cobertura's coverage-04.dtd (`xmllint --dtdvalid`, libxml2-utils) and agreeing with the
// lcov figures, an imported fixture's lines counted at its Swift files, explore's shards merging
// to the coverage of one run, the never-run functions explore lists, and the same bytes with any
// --jobs. Uses CLI (the built executable), examples/, bench/planted/ and the import fixtures.
import Foundation
import Testing

/// External tools the coverage tests hand their files to (skipped, saying so, when truly absent).
enum CoverageTools {
    static func path(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> CLI.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(path(tool)))
        p.arguments = arguments
        p.currentDirectoryURL = CLI.root
        return try CLI.collect(p)
    }

    /// Cobertura's coverage-04.dtd (the DTD GitLab's and Jenkins' readers follow).
    static let coberturaDTD = """
        <!ELEMENT coverage (sources?,packages)>
        <!ATTLIST coverage line-rate        CDATA #REQUIRED>
        <!ATTLIST coverage branch-rate      CDATA #REQUIRED>
        <!ATTLIST coverage lines-covered    CDATA #REQUIRED>
        <!ATTLIST coverage lines-valid      CDATA #REQUIRED>
        <!ATTLIST coverage branches-covered CDATA #REQUIRED>
        <!ATTLIST coverage branches-valid   CDATA #REQUIRED>
        <!ATTLIST coverage complexity       CDATA #REQUIRED>
        <!ATTLIST coverage version          CDATA #REQUIRED>
        <!ATTLIST coverage timestamp        CDATA #REQUIRED>
        <!ELEMENT sources (source*)>
        <!ELEMENT source (#PCDATA)>
        <!ELEMENT packages (package*)>
        <!ELEMENT package (classes)>
        <!ATTLIST package name        CDATA #REQUIRED>
        <!ATTLIST package line-rate   CDATA #REQUIRED>
        <!ATTLIST package branch-rate CDATA #REQUIRED>
        <!ATTLIST package complexity  CDATA #REQUIRED>
        <!ELEMENT classes (class*)>
        <!ELEMENT class (methods,lines)>
        <!ATTLIST class name        CDATA #REQUIRED>
        <!ATTLIST class filename    CDATA #REQUIRED>
        <!ATTLIST class line-rate   CDATA #REQUIRED>
        <!ATTLIST class branch-rate CDATA #REQUIRED>
        <!ATTLIST class complexity  CDATA #REQUIRED>
        <!ELEMENT methods (method*)>
        <!ELEMENT method (lines)>
        <!ATTLIST method name        CDATA #REQUIRED>
        <!ATTLIST method signature   CDATA #REQUIRED>
        <!ATTLIST method line-rate   CDATA #REQUIRED>
        <!ATTLIST method branch-rate CDATA #REQUIRED>
        <!ATTLIST method complexity  CDATA #REQUIRED>
        <!ELEMENT lines (line*)>
        <!ELEMENT line (conditions*)>
        <!ATTLIST line number CDATA #REQUIRED>
        <!ATTLIST line hits   CDATA #REQUIRED>
        <!ATTLIST line branch CDATA "false">
        <!ATTLIST line condition-coverage CDATA "100%">
        <!ELEMENT conditions (condition*)>
        <!ELEMENT condition EMPTY>
        <!ATTLIST condition number CDATA #REQUIRED>
        <!ATTLIST condition type CDATA #REQUIRED>
        <!ATTLIST condition coverage CDATA #REQUIRED>

        """
}

/// A temporary path for a coverage file.
func coverageFile(_ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-cov-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

/// An lcov tracefile read back: per source file, its `DA` lines (line → hits) and its `FN`/`FNDA` functions.
struct Tracefile {
    struct File { var lines: [Int: Int] = [:]; var functions: [String: Int] = [:]; var lf = -1, lh = -1 }
    var files: [String: File] = [:]
    var order: [String] = []

    init(_ text: String) throws {
        var current: String?
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("SF:") {
                current = String(line.dropFirst(3)); order.append(current!); files[current!] = File()
                continue
            }
            guard let f = current else { continue }
            let value = line.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
            if line.hasPrefix("DA:") {
                let p = value.split(separator: ",")
                files[f]!.lines[Int(p[0])!] = Int(p[1])!
            } else if line.hasPrefix("FNDA:") {
                let p = value.split(separator: ",", maxSplits: 1)
                files[f]!.functions[String(p[1])] = Int(p[0])!
            } else if line.hasPrefix("LF:") {
                files[f]!.lf = Int(value)!
            } else if line.hasPrefix("LH:") {
                files[f]!.lh = Int(value)!
            } else if line == "end_of_record" {
                current = nil
            }
        }
    }

    var linesFound: Int { files.values.reduce(0) { $0 + $1.lines.count } }
    var linesHit: Int { files.values.reduce(0) { $0 + $1.lines.values.filter { $0 > 0 }.count } }
}

@Suite(.serialized) struct CoverageCLITests {
    /// `run --coverage`: a tracefile lcov accepts, whose figures are the file's own, the same bytes twice.
    @Test func runWritesATracefileLcovAccepts() throws {
        let out = try coverageFile("twitter.info")
        let r = try CLI.run(["run", "examples/twitter.lua", "--quiet", "--coverage", out])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let trace = try Tracefile(text)
        #expect(trace.order == ["examples/twitter.lua"])
        let file = try #require(trace.files["examples/twitter.lua"])
        #expect(file.lf == file.lines.count && file.lh == file.lines.values.filter { $0 > 0 }.count)
        #expect(file.lines.count > 20 && file.functions["performFetch"] ?? 0 > 0)
        // Lines of code only: no line of a comment or a blank one.
        let source = try String(contentsOfFile: "\(CLI.root.path)/examples/twitter.lua", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        for n in file.lines.keys {
            let s = source[n - 1].trimmingCharacters(in: .whitespaces)
            #expect(!s.isEmpty && !s.hasPrefix("--"), "line \(n) is not code: \(s)")
        }
        let again = try coverageFile("again.info")
        _ = try CLI.run(["run", "examples/twitter.lua", "--quiet", "--coverage", again])
        #expect(try String(contentsOfFile: again, encoding: .utf8) == text)

        guard CoverageTools.path("lcov") != nil else {
            print("lcov is not installed (scripts/setup --test installs it): lcov --summary not tried")
            return
        }
        let summary = try CoverageTools.run("lcov", ["--summary", out])
        #expect(summary.status == 0, "\(summary.stdout)\(summary.stderr)")
        let all = summary.stdout + summary.stderr
        #expect(all.contains("(\(trace.linesHit) of \(trace.linesFound) lines)"), "\(all)")
    }

    /// `--coverage-format cobertura`: valid against coverage-04.dtd, with the lcov file's figures.
    @Test func coberturaIsValidAndAgreesWithLcov() throws {
        let xml = try coverageFile("cov.xml"), info = try coverageFile("cov.info")
        let args = ["run", "examples/explore_me.lua", "--quiet"]
        #expect(try CLI.run(args + ["--coverage", xml, "--coverage-format", "cobertura"]).status != 2)
        #expect(try CLI.run(args + ["--coverage", info]).status != 2)
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        let trace = try Tracefile(try String(contentsOfFile: info, encoding: .utf8))
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE coverage"))
        #expect(text.contains("lines-covered=\"\(trace.linesHit)\" lines-valid=\"\(trace.linesFound)\""))
        #expect(text.contains("timestamp=\"0\""))
        #expect(text.contains("<class name=\"explore_me.lua\" filename=\"examples/explore_me.lua\""))
        // Every DA line of the tracefile is a <line> of the class, with its hits.
        for (n, hits) in try #require(trace.files["examples/explore_me.lua"]).lines {
            #expect(text.contains("<line number=\"\(n)\" hits=\"\(hits)\" branch=\"false\"/>"), "line \(n)")
        }
        guard CoverageTools.path("xmllint") != nil else {
            print("xmllint is not installed (libxml2-utils): the DTD check was not tried")
            return
        }
        let dtd = try coverageFile("coverage-04.dtd")
        try CoverageTools.coberturaDTD.write(toFile: dtd, atomically: true, encoding: .utf8)
        let v = try CoverageTools.run("xmllint", ["--noout", "--nonet", "--dtdvalid", dtd, xml])
        #expect(v.status == 0 && !v.stderr.contains("validity error"), "\(v.stderr)")
        // The check can fail: an attribute the DTD does not know is refused.
        let bad = try coverageFile("bad.xml")
        try text.replacingOccurrences(of: " hits=\"", with: " hit=\"").write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(try CoverageTools.run("xmllint", ["--noout", "--nonet", "--dtdvalid", dtd, bad]).status != 0)
    }

    /// An imported scenario's lines count at the Swift files and lines they came from.
    @Test func anImportedScenarioIsCoveredAtItsSwiftLines() throws {
        let fixture = "Tests/LuaFetchImportTests/Fixtures/legacy_fetch/buggy"
        let scenario = try coverageFile("legacy_fetch.lua")
        let imported = try CLI.run(["import", fixture, "-o", scenario])
        #expect(imported.status == 0, "\(imported.stderr)")
        let out = try coverageFile("swift.info")
        #expect(try CLI.run(["run", scenario, "--quiet", "--coverage", out]).status != 2)
        let trace = try Tracefile(try String(contentsOfFile: out, encoding: .utf8))
        for swift in ["AppDelegate.swift", "ForecastLoader.swift"] {
            let path = "\(fixture)/\(swift)"
            let file = try #require(trace.files[path], "no record of \(path): \(trace.order)")
            let source = try String(contentsOfFile: "\(CLI.root.path)/\(path)", encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            #expect(!file.lines.isEmpty && file.lines.values.contains { $0 > 0 }, "\(swift): nothing ran")
            for n in file.lines.keys {
                #expect(n >= 1 && n <= source.count, "\(swift):\(n) is past the file")
                if n >= 1 && n <= source.count {
                    #expect(!source[n - 1].trimmingCharacters(in: .whitespaces).isEmpty, "\(swift):\(n) is a blank line")
                }
            }
        }
        // The application delegate's launch ran (AppDelegate.swift: didFinishLaunchingWithOptions).
        let appDelegate = try String(contentsOfFile: "\(CLI.root.path)/\(fixture)/AppDelegate.swift", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let launch = try #require(appDelegate.firstIndex { $0.contains("didFinishLaunchingWithOptions") }) + 1
        let ranAfterLaunch = trace.files["\(fixture)/AppDelegate.swift"]!.lines.contains { $0.key > launch && $0.key <= launch + 4 && $0.value > 0 }
        #expect(ranAfterLaunch, "no line of didFinishLaunching ran")
        if CoverageTools.path("lcov") != nil {
            #expect(try CoverageTools.run("lcov", ["--summary", out]).status == 0)
        }
        // genhtml reads the Swift files the tracefile names and writes a page for each.
        if CoverageTools.path("genhtml") != nil {
            let pages = try coverageFile("html")
            let g = try CoverageTools.run("genhtml", [out, "-o", pages])
            #expect(g.status == 0, "\(g.stdout)\(g.stderr)")
            let written = FileManager.default.enumerator(atPath: pages)?.compactMap { $0 as? String } ?? []
            #expect(written.contains { $0.hasSuffix("AppDelegate.swift.gcov.html") }, "\(written)")
        }
    }

    /// `explore --shard K/M --coverage` then `--merge --coverage`: the bytes of one unguided run.
    @Test func shardsMergeToTheCoverageOfOneRun() throws {
        let base = ["explore", "examples/explore_me.lua", "--runs", "300", "--no-guide"]
        for format in ["lcov", "cobertura"] {
            let whole = try coverageFile("whole")
            #expect(try CLI.run(base + ["--coverage", whole, "--coverage-format", format]).status != 2)
            var shards: [String] = []
            for k in 1...3 {
                let r = try CLI.run(base + ["--shard", "\(k)/3", "--format", "jsonl", "--coverage", try coverageFile("shard\(k)")])
                #expect(r.status != 2, "\(r.stderr)")
                shards.append(try CLI.scenario(r.stdout, name: "shard\(k).jsonl"))
            }
            let merged = try coverageFile("merged")
            let m = try CLI.run(["explore", "--merge", "--coverage", merged, "--coverage-format", format] + shards.reversed())
            #expect(m.status != 2, "\(m.stderr)")
            let wholeBytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            #expect(!wholeBytes.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: merged)) == wholeBytes, "\(format)")
        }
        // Shards written without coverage cannot give a merged coverage.
        let plain = try CLI.run(base + ["--shard", "1/1", "--format", "jsonl"])
        let file = try CLI.scenario(plain.stdout, name: "plain.jsonl")
        let refused = try CLI.run(["explore", "--merge", "--coverage", try coverageFile("x"), file])
        #expect(refused.status == 2 && refused.stderr.contains("has none"), "\(refused.stderr)")
    }

    /// Explore lists, after its findings, the app's functions no run reached, with what might reach them.
    @Test func exploreListsTheFunctionsThatNeverRan() throws {
        let file = "bench/planted/deadline_upload.lua"
        let source = try String(contentsOfFile: "\(CLI.root.path)/\(file)", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let handler = try #require(source.firstIndex { $0.contains("app:beginBackgroundTask(\"upload\", function()") }) + 1
        // 16 runs: the first round (guided explore reaches the handler, and the bug, in the second:
        // its person leaves what they open, so a Home after an open comes early).
        let r = try CLI.run(["explore", file, "--runs", "16"])
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains("never ran in any of the 16 runs: 1 of the app's"), "\(r.stdout)")
        #expect(r.stdout.contains("\(file):\(handler)  expiration handler"), "\(r.stdout)")
        #expect(r.stdout.contains("reached by: the background time running out"))
        let j = try jsonLines(try CLI.run(["explore", file, "--runs", "16", "--format", "jsonl"]).stdout)
        let never = j.filter { $0["type"] as? String == "neverRun" }
        #expect(never.count == 1 && never.first?["location"] as? String == "\(file):\(handler)" && never.first?["role"] as? String == "expiration")
        // Once runs reach the deadline with the upload in flight (the planted bug), nothing is left unrun.
        let long = try CLI.run(["explore", file, "--runs", "2000"])
        #expect(!long.stdout.contains("never ran"), "\(long.stdout)")
    }

    /// The report and its coverage do not depend on --jobs (guided explore evolves in rounds), nor does test's.
    @Test func theSameBytesWithAnyJobs() throws {
        var outputs: [String] = [], files: [Data] = []
        for jobs in ["1", "2", "3"] {
            let cov = try coverageFile("jobs\(jobs).info")
            let r = try CLI.run(["explore", "bench/planted/push_backlog.lua", "--runs", "200", "--jobs", jobs, "--coverage", cov, "--format", "jsonl"])
            #expect(r.status != 2, "\(r.stderr)")
            outputs.append(r.stdout)
            files.append(try Data(contentsOf: URL(fileURLWithPath: cov)))
        }
        #expect(outputs[0].contains("\"guide\":true"))
        #expect(outputs.allSatisfy { $0 == outputs[0] } && files.allSatisfy { $0 == files[0] })
        var tests: [Data] = []
        for jobs in ["1", "2"] {
            let cov = try coverageFile("test\(jobs).xml")
            let r = try CLI.run(["test", "examples/twitter.lua", "examples/news.lua", "examples/retry.lua", "--jobs", jobs,
                                 "--coverage", cov, "--coverage-format", "cobertura"])
            #expect(r.status != 2, "\(r.stderr)")
            tests.append(try Data(contentsOf: URL(fileURLWithPath: cov)))
        }
        #expect(tests[0] == tests[1] && !tests[0].isEmpty)
        let text = String(decoding: tests[0], as: UTF8.self)
        for f in ["twitter.lua", "news.lua", "retry.lua"] { #expect(text.contains("filename=\"examples/\(f)\""), "\(f)") }
    }
}
