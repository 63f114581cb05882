// SPEC 18.3 and 18.7.8–10, rule by rule: Swift in, what the translated app printed out (or the
// violation it broke), compared with what Swift prints. Each test imports a small app through
// `Importer.run` and runs the scenario in-process.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct TranslationTests {
    func printed(_ body: String, members: String = "", others: String = "") throws -> [String] {
        let r = try ImportHarness.run(ImportHarness.launching(body, members: members, others: others))
        #expect(r.error == nil, "\(r.error?.message ?? "")\n\(r.scenario)")
        #expect(r.codes.isEmpty, "\(r.codes) \(r.world?.violations.map(\.message) ?? [])\n\(r.scenario)")
        return r.printed
    }

    @Test func intDivisionTruncatesAndRemainderFollowsIt() throws {
        #expect(try printed("""
            let a = -7
            print(a / 2, a % 2, 7 / 2, 7.0 / 2.0)
            let b: Double = 1.5
            print(b * 2, "x" + "y", "n=\\(a)")
            """) == ["-3 -1 3 3.5", "3.0 xy n=-7"])
    }

    @Test func intOverflowTrapsAsACrash() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            var n = Int.max
            n += 1
            print("not reached")
            """, others: "extension Int { static let max = 9223372036854775807 }"))
        #expect(r.codes.first == "app-crash", "\(r.scenario)")
        #expect(r.world?.violations.first?.message.contains("Fatal error: arithmetic overflow") == true)
        #expect(r.printed.isEmpty)
    }

    @Test func optionalBindingsShadowAndChain() throws {
        #expect(try printed("""
            let name: String? = "Ada"
            if let name = name { print("hello", name) } else { print("nobody") }
            let none: String? = nil
            if let n = none, n.count > 0 { print("wrong") } else { print("none") }
            guard let n2 = name, n2.hasPrefix("A") else { print("guarded"); return true }
            print(n2.count, none ?? "fallback", none?.count ?? -1)
            """) == ["hello Ada", "none", "3 fallback -1"])
    }

    @Test func switchMatchesCasesValuesRangesAndWhere() throws {
        #expect(try printed("""
            let results: [Outcome] = [.done(3), .failed("boom"), .idle, .done(12)]
            for r in results {
                switch r {
                case .done(let n) where n > 10: print("big", n)
                case .done(let n): print("done", n)
                case let .failed(reason): print("failed", reason)
                default: print("other")
                }
            }
            for x in [0, 5, 50] {
                switch x {
                case 0: print("zero")
                case 1...9: print("small")
                default: print("large")
                }
            }
            print(Level.high.rawValue, Level(rawValue: 1) == .low, Level(rawValue: 9) == nil)
            """, others: """
            enum Outcome { case idle, done(Int), failed(String) }
            enum Level: Int { case low = 1, high }
            """) == ["done 3", "failed boom", "other", "big 12", "zero", "small", "large", "2 true true"])
    }

    @Test func deferRunsLastInFirstOutAtEveryExitAfterTheValue() throws {
        #expect(try printed("""
            print(compute(true), compute(false))
            """, members: """
            func compute(_ early: Bool) -> Int {
                var x = 1
                defer { print("first defer", x) }
                defer { x = 100; print("second defer") }
                if early { return x }
                x = 2
                return x
            }
            """) == ["second defer", "first defer 100", "second defer", "first defer 100", "1 2"])
    }

    @Test func loopsContinueBreakAndLabels() throws {
        #expect(try printed("""
            var out: [Int] = []
            for i in 0..<10 {
                if i % 2 == 0 { continue }
                if i > 7 { break }
                out.append(i)
            }
            print(out)
            outer: for a in 1...3 {
                for b in 1...3 {
                    if b == 2 { continue outer }
                    if a == 3 { break outer }
                    print(a, b)
                }
            }
            var n = 0
            while n < 3 { n += 1 }
            repeat { n -= 2 } while n > 0
            print(n)
            for (i, s) in ["a", "b"].enumerated() { print(i, s) }
            """) == ["[1, 3, 5, 7]", "1 1", "2 1", "-1", "0 a", "1 b"])
    }

    @Test func errorsThrowCatchAndTryOptional() throws {
        #expect(try printed("""
            do {
                try check(5)
                try check(-1)
                print("not reached")
            } catch CheckError.negative(let v) {
                print("negative", v)
            } catch {
                print("other")
            }
            let ok = try? check(1)
            let bad = try? check(-2)
            print(ok != nil, bad == nil)
            """, members: """
            func check(_ v: Int) throws -> Int {
                if v < 0 { throw CheckError.negative(v) }
                print("checked", v)
                return v
            }
            """, others: "enum CheckError: Error { case negative(Int) }") == ["checked 5", "negative -1", "checked 1", "true true"])
    }

    @Test func structsAreCopiedAndClassesShared() throws {
        #expect(try printed("""
            var a = Point(x: 1, y: 2)
            var b = a
            b.x = 10
            let c = Box()
            let d = c
            d.value = 7
            var xs = [1, 2]
            var ys = xs
            ys.append(3)
            print(a.x, b.x, c.value, xs.count, ys.count)
            """, others: """
            struct Point { var x: Int; var y: Int }
            final class Box { var value = 0 }
            """) == ["1 10 7 2 3"])
    }

    @Test func collectionsAreZeroBasedWithTheirMethods() throws {
        #expect(try printed("""
            var xs = [3, 1, 2]
            xs.append(4)
            print(xs[0], xs.first ?? 0, xs.last ?? 0, xs.count, xs.contains(2))
            print(xs.map { $0 * 2 }, xs.filter { $0 > 1 }.count, xs.reduce(0, +), xs.sorted())
            var d: [String: Int] = ["a": 1]
            d["b"] = 2
            d["a"] = nil
            print(d["b"] ?? 0, d["a"] == nil, d.count, d.isEmpty)
            var s = Set<String>()
            s.insert("x")
            print(s.contains("x"), s.count)
            """) == ["3 3 4 4 true", "[6, 2, 4, 8] 3 10 [1, 2, 3, 4]", "2 true 1 false", "true 1"])
    }

    @Test func propertiesComputedObservedLazyAndStatic() throws {
        #expect(try printed("""
            let c = Counter()
            c.count = 2
            c.count += 1
            print(c.doubled, c.label, Counter.made)
            """, others: """
            final class Counter {
                static var made = 0
                var count = 0 { didSet { print("count", oldValue, "->", count) } }
                var doubled: Int { count * 2 }
                lazy var label: String = { "counter" }()
                init() { Counter.made += 1 }
            }
            """) == ["count 0 -> 2", "count 2 -> 3", "6 counter 1"])
    }

    @Test func closuresCaptureAndStringsHaveTheirMethods() throws {
        #expect(try printed("""
            var total = 0
            let add = { (n: Int) in total += n }
            add(2); add(3)
            let s = "Hello, World"
            print(total, s.hasPrefix("Hello"), s.lowercased(), s.count, s.split(separator: ",").count)
            """) == ["5 true hello, world 12 2"])
    }

    @Test func aSingletonLivesInItsProcessOnly() throws {
        // SPEC 12.1 and 18.7.4: statics live in the process's memory; a relaunch starts fresh.
        let r = try ImportHarness.run(ImportHarness.launching("""
            Store.shared.count += 1
            print("launch", Store.shared.count)
            """, others: "final class Store { static let shared = Store(); var count = 0 }"),
            extra: "at(4000, system.memoryPressure)\nat(5000, user.launch)\n")
        #expect(r.printed == ["launch 1", "launch 1"], "\(r.messages)")
    }
}
