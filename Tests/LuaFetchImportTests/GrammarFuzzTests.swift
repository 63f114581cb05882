// The grammar fuzzer in-process (SPEC 18.8.5, issue 37 item 7): every template app of
// Tests/fuzz/swift_grammar.py (one construct each) and apps generated from a fixed seed (the
// constructs nested at random) are imported (ImportHarness: Importer.run with Lua's parser as the
// load check) and the scenario is loaded and run: what the importer wrote always loads. A
// template app always imports (its Swift parses: GrammarCoverageTests); a random one may stop
// with File.swift:LINE:COL. Uses GrammarApps (python3).
import Foundation
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct GrammarFuzzTests {
    /// Random apps of the fixed seed (the same on every machine: Python's seeded random).
    static let seed = 37
    static let count = 24
    static let generated: [(label: String, swift: String)] = (try? GrammarApps.apps(["--seed", "\(seed)", "--count", "\(count)"])) ?? []

    enum Outcome { case ran(warnings: [String]), stopped(String), broke(String) }

    /// Imports and runs `swift` (a few simulated hours, low limits: loading is what is tested).
    static func outcome(_ label: String, _ swift: String) -> Outcome {
        let options = RunOptions(until: 3 * 3_600_000, limits: RunLimits(instructions: 20_000_000, events: 20_000))
        do {
            let r = try ImportHarness.run(["AppDelegate.swift": swift], options: options)
            if let e = r.error { return .broke("\(label): the scenario did not load or run: \(e)\n\(swift)") }
            return .ran(warnings: r.result.warnings)
        } catch let e as ImportError {
            if e.message.firstMatch(of: #/^[^:\n]+\.swift:\d+:\d+: /#) != nil { return .stopped("\(label): \(e.message)") }
            return .broke("\(label): import failed without File.swift:LINE:COL: \(e.message)")
        } catch {
            return .broke("\(label): \(error)")
        }
    }

    @Test func everyTemplateAppImportsAndLoads() {
        #expect(GrammarApps.templates.count > 100)
        for app in GrammarApps.templates {
            switch Self.outcome(app.label, app.swift) {
            case .ran: break
            case .stopped(let m): Issue.record("a template app stopped the import: \(m)\n\(app.swift)")
            case .broke(let m): Issue.record(Comment(rawValue: m))
            }
        }
    }

    @Test(arguments: 0..<2) func generatedAppsLoad(half: Int) {
        #expect(Self.generated.count == Self.count)
        var ran = 0
        for (k, app) in Self.generated.enumerated() where k % 2 == half {
            switch Self.outcome("seed \(Self.seed) app \(k)", app.swift) {
            case .ran: ran += 1
            case .stopped: break
            case .broke(let m): Issue.record(Comment(rawValue: m))
            }
        }
        // Most generated apps parse: a generator that only made unparsable Swift would test nothing.
        #expect(ran * 4 >= Self.count / 2 * 3, "only \(ran) of \(Self.count / 2) apps imported")
    }
}
