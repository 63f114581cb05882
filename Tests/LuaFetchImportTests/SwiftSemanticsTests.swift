// SPEC 18.9.6, rule by rule: Swift's own semantics where real apps met them (each shape broke an
// import of a real repository): `catch ... where` among several clauses, `if`/`switch`
// expressions yielding their value, a protocol's `{ get }` requirement next to the stored
// property that satisfies it, a static and an instance method of one name, `rawValue` inside an
// enum's own members, and an unresolved free function that is a stub, never Lua's function of
// the same name. Swift in, what the app printed out.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct SwiftSemanticsTests {
    func printed(_ body: String, members: String = "", others: String = "") throws -> [String] {
        try TranslationTests().printed(body, members: members, others: others)
    }

    @Test func catchWhereIsOneClauseAmongSeveral() throws {
        #expect(try printed("""
            for code in [1, 2, 3] {
                do {
                    throw Failure.server(code)
                } catch Failure.server(let c) where c == 1 {
                    print("retry", c)
                } catch let Failure.server(c) where c > 2 {
                    print("give up", c)
                } catch {
                    print("other")
                }
            }
            """, others: "enum Failure: Error { case server(Int) }") == ["retry 1", "other", "give up 3"])
    }

    @Test func ifAndSwitchExpressionsYieldTheirValue() throws {
        #expect(try printed("""
            print(Mode.fast.label, Mode.slow.label, delay(for: .slow), pick(true))
            let word = switch Mode.fast { case .fast: "zoom" case .slow: "crawl" }
            print(word)
            """, members: """
            func delay(for mode: Mode) -> Int {
                switch mode {
                case .fast: 1
                case .slow: 30
                }
            }
            func pick(_ b: Bool) -> String { if b { "yes" } else { "no" } }
            """, others: """
            enum Mode { case fast, slow
                var label: String { switch self { case .fast: "F" case .slow: "S" } }
            }
            """) == ["F S 30 yes", "zoom"])
    }

    @Test func aStoredPropertySatisfyingAGetRequirementStaysStored() throws {
        #expect(try printed("""
            let s = Session()
            s.token = "abc"
            print(s.token, describe(s))
            """, members: "func describe(_ p: Authenticated) -> String { p.token }", others: """
            protocol Authenticated { var token: String { get } }
            final class Session: Authenticated { var token: String = "none" }
            """) == ["abc abc"])
    }

    @Test func aStaticAndAnInstanceMethodOfOneNameAreTwoMethods() throws {
        #expect(try printed("""
            print(Cache.load(), Cache().load())
            """, others: """
            final class Cache {
                static func load() -> String { "static" }
                func load() -> String { "instance" }
            }
            """) == ["static instance"])
    }

    @Test func rawValueInsideAnEnumIsTheCasesRawValue() throws {
        #expect(try printed("""
            print(Job.sync.identifier, Job.clean.identifier)
            """, others: """
            enum Job: String {
                case sync = "com.example.sync", clean
                var identifier: String { "task:" + rawValue }
            }
            """) == ["task:com.example.sync task:clean"])
    }

    @Test func anUnresolvedFreeFunctionIsAStubNotLuasFunction() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            log("starting")
            let x = floor(2.5)
            print("still running", x)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.codes.isEmpty, "\(r.codes)")
        #expect(r.printed == ["still running 2.0"])
        #expect(r.result.report.contains { $0.contains("log ×1") }, "\(r.result.report)")
    }
}
