// Shapes that crashed imported real apps at launch, each a false app-crash the runtime or the
// translation caused (SPEC 18.9): a protocol extension's static computed property reached through
// an adopting type. Swift in, what the app printed (or the findings) out.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct RealLaunchTestsA {
    func printed(_ body: String, members: String = "", others: String = "") throws -> [String] {
        try TranslationTests().printed(body, members: members, others: others)
    }

    /// `extension Identifier { static var zero: Self { Self(...) } }`, read as `Account.zero`:
    /// the adopting type has the static, and `Self` is that type, not the protocol. damus built
    /// its empty key this way and every launch crashed on nil.
    @Test func aProtocolExtensionsStaticComputedPropertyIsTheAdoptingTypes() throws {
        #expect(try printed("""
            let a = Account.zero
            print(a.code, a.label, Badge.zero.label)
            """, others: """
            protocol Identifier { var code: Int { get }; init(_ code: Int) }
            extension Identifier {
                static var zero: Self { Self.init(0) }
                func hex() -> String { "#\\(code)" }
            }
            struct Account: Identifier {
                let code: Int
                init(_ code: Int) { self.code = code }
                var label: String { "account " + hex() }
            }
            struct Badge: Identifier {
                let code: Int
                init(_ code: Int) { self.code = code + 1 }
                var label: String { "badge " + hex() }
            }
            """) == ["0 account #0 badge #1"])
    }

    /// `text.contains("a")` beside an extension's `contains(subSequence:)` on String: labels that
    /// do not fit the extension's method call String's own `contains`, on a value and on an
    /// implied `self` inside the extension. deltachat's 24-hour check passed "a" as the
    /// extension's parameter and crashed on nil at every launch.
    @Test func anSDKTypesOwnMethodWinsOverAnExtensionsMethodWhoseLabelsDoNotFit() throws {
        #expect(try printed("""
            let format: String = "hh:mm a"
            print(format.contains("a"), format.contains("z"), format.contains(subSequence: "mm"), format.hasMeridiem())
            """, others: """
            extension String {
                func contains(subSequence: String) -> [Int] { [subSequence.count, count] }
                func hasMeridiem() -> Bool { contains("a") }
            }
            """) == ["true false [2, 7] true"])
    }

    /// `extension UserDefaults { static let group = UserDefaults(suiteName:)!; var launches: Int
    /// { get { integer(forKey: #function) } set { ... } } }`, then `var n = UserDefaults.group.launches;
    /// n += 1; UserDefaults.group.launches = n`: the static keeps its type, so the member is the
    /// extension's getter (and the assignment its setter), and `#function` in an accessor is the
    /// property's name. mastodon counted its launches this way; the count read as nil and `+= 1`
    /// crashed at every launch.
    @Test func anExtensionsStaticOfAnSDKTypeKeepsItsTypeForTheExtensionsProperties() throws {
        #expect(try printed("""
            var count = UserDefaults.group.launches
            count += 1
            UserDefaults.group.launches = count
            UserDefaults.group.bump()
            print(count, UserDefaults.group.launches, UserDefaults.group.integer(forKey: "launches"))
            """, others: """
            extension UserDefaults {
                static let group = UserDefaults(suiteName: "group.example.app")!
                var launches: Int {
                    get { integer(forKey: #function) }
                    set { set(newValue, forKey: #function) }
                }
                func bump() { launches += 10 }
            }
            """) == ["1 11 11"])
    }

    /// `private static let main: Store = .init()`: an implicit `.init()` of a type the files
    /// define is its initializer, not an enum case named "init". mlem's settings store was a
    /// case token, and every launch crashed reading its values.
    @Test func anImplicitInitOfATranslatedTypeCallsItsInitializer() throws {
        #expect(try printed("""
            print(Store.label(), Store.count())
            """, others: """
            final class Store {
                private static let main: Store = .init()
                private let values: [String]
                private init() { values = ["a", "b"] }
                static func label() -> String { main.values.joined(separator: "+") }
                static func count() -> Int { main.values.count }
            }
            """) == ["a+b 2"])
    }

    /// A local a library's property wrapper holds (`@Dependency(\.client) var client` inside an
    /// initializer): it starts with a stub's value, as a wrapped property does, never nil. mlem's
    /// settings loaded through such a local and every launch crashed calling it on nil.
    @Test func aLocalOfALibrarysPropertyWrapperHoldsAValue() throws {
        #expect(try printed("""
            let store = Store()
            print(store.ready)
            """, others: """
            import Dependencies
            final class Store {
                var ready = false
                init() {
                    @Dependency(\\.client) var client
                    _ = client.loadSettings()
                    ready = true
                }
            }
            """) == ["true"])
    }

    /// `var time: NSNumber = 0`, then `time.doubleValue / 1000`: an NSNumber made from a literal
    /// has NSNumber's accessors (`doubleValue`, `intValue`, `boolValue`, `stringValue`).
    /// nightguard's label colour divided `lastUpdate.doubleValue` (nil) and crashed at every launch.
    @Test func anNSNumberFromALiteralAnswersItsAccessors() throws {
        #expect(try printed("""
            let r = Reading()
            print(r.time.doubleValue / 1000, r.level.intValue, r.level.boolValue, r.time.boolValue, r.level.stringValue, r.count.stringValue)
            """, others: """
            final class Reading {
                var time: NSNumber = 0
                var level: NSNumber = 2.5
                var count: NSNumber = 3
            }
            """) == ["0.0 2 true false 2.5 3"])
    }

    /// `var slice = self[...]` in an extension of Array: the unbounded range is no type name (the
    /// importer stopped on it with an internal error). nightguard's `prefix(_:where:)` did this.
    @Test func anUnboundedRangeSubscriptImports() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(["a", "b"].firstTwo(where: { $0 == "b" }))
            """, others: """
            extension Array {
                func firstTwo(where keep: (Element) -> Bool) -> [Element] {
                    let all = self[...]
                    return all.filter(keep)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
    }
}
