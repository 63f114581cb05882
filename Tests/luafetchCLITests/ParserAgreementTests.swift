// The fast command-line parser (`RunSpec.fastParse`, which skips ArgumentParser's reflection at
// start-up) and ArgumentParser's `Run` must read every option the same way: for each command line
// the fast path accepts, both give the same RunSpec; what it declines, ArgumentParser handles.
import Testing
import LuaFetchCore
@testable import luafetch

@Suite struct ParserAgreementTests {
    static let lines: [[String]] = [
        ["s.lua"],
        ["s.lua", "--seed", "7", "--os", "ios7", "--until", "5m12s"],
        ["--quiet", "s.lua", "--no-color", "--strict"],
        ["s.lua", "--format", "jsonl", "--trace", "t.json"],
        ["s.lua", "--inject", "12.5:home,30:interrupt=20"],
        ["s.lua", "--limit-instructions", "1e9", "--limit-events", "1000", "--limit-memory", "64M"],
        ["s.lua", "--limit-memory", "2G", "--seed", "0", "--quiet"],
        ["s.lua", "--os", "ios26"],
        ["s.lua", "--debugger", "--order", "5"],
        ["s.lua", "--settle", "--inject", "3:home"],
        ["s.lua", "--stub-draws", "explore", "--stub-failures", "every"],
        ["s.lua", "--stub-failures", "sometimes"],
        ["s.lua", "--order", "-1"],
        ["s.lua", "--seed", "x"],
        ["s.lua", "--limit-events", "0"],
        ["s.lua", "--bogus"],
        ["s.lua", "s2.lua"],
        ["s.lua", "--coverage", "c.info"],
        ["s.lua", "--coverage", "c.xml", "--coverage-format", "cobertura"],
        ["s.lua", "--coverage-format", "cobertura"],
        ["s.lua", "--coverage", "c.info", "--coverage-format", "gcov"],
    ]

    @Test(arguments: lines)
    func fastAndFullParsersAgree(args: [String]) throws {
        let full = try? Run.parse(args)
        guard let fast = RunSpec.fastParse(args) else { return }  // declined: ArgumentParser decides
        let r = try #require(full, "the fast parser accepted \(args), ArgumentParser did not")
        #expect(fast.file == r.file)
        #expect(fast.seed == r.seed)
        #expect(fast.osProfile == r.osProfile)
        #expect(fast.until == r.until)
        #expect(fast.format == r.format)
        #expect(fast.trace == r.trace)
        #expect(fast.inject == r.inject)
        #expect(fast.quiet == r.quiet)
        #expect(fast.noColor == r.noColor)
        #expect(fast.strict == r.strict)
        #expect(fast.limits == r.limitOptions.limits)
        #expect(fast.debugger == r.debugger)
        #expect(fast.order == r.order)
        #expect(fast.settle == r.settle)
        #expect(fast.stubFailures == (r.stubFailures.flatMap(StubFailures.init(rawValue:)) ?? .one))
        #expect(fast.coverage == r.coverageOptions.coverage)
        #expect(fast.coverageFormat == r.coverageOptions.format)
    }

    @Test func theFastParserTakesEveryOptionOfRun() {
        // Every option Run declares is one the fast path knows (else it would silently decline it).
        let known = ["--seed", "--os", "--until", "--format", "--trace", "--inject", "--quiet", "--no-color", "--strict",
                     "--debugger", "--order", "--settle", "--stub-draws", "--stub-failures", "--limit-instructions", "--limit-events", "--limit-memory",
                     "--coverage", "--coverage-format"]
        let help = Run.helpMessage(columns: 200)
        for option in known { #expect(help.contains(option), "\(option)") }
        let declared = help.split(separator: "\n").compactMap { line -> String? in
            let t = line.drop(while: { $0 == " " })
            guard t.hasPrefix("--"), let name = t.split(separator: " ").first else { return nil }
            return String(name.split(separator: ",").first ?? name)
        }.filter { $0 != "--help" && $0 != "--version" }
        for option in declared { #expect(known.contains(option), "Run has \(option), which RunSpec.fastParse does not read") }
    }
}
