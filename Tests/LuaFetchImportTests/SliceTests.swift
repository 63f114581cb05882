// SPEC 18.8.4 and 18.8.5: the scenario holds only what background life can reach (the entry
// points, then every call by name and labels, narrowed by the receiver's declared type), the
// report counts what was kept and left out, `--all` keeps everything, and a function whose Lua
// does not compile becomes a stub shaped by its declaration, with a warning, so the scenario
// always loads. Each test imports a small app of its own through `Importer.run`.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct SliceTests {
    static let app = ImportHarness.launching("""
        let store = Store()
        store.refresh(force: true)
        Helpers.shared.log("launched")
        """, others: """
        final class Store {
            var items: [String] = []
            func refresh(force: Bool) { items.append("fresh"); print("refreshed", force) }
            func refresh() { print("plain refresh") }
            func render() { print("render: only the screen calls this") }
        }
        final class Helpers {
            static let shared = Helpers()
            func log(_ s: String) { print("log:", s) }
        }
        final class SettingsScreen {
            func viewDidLoad() { Store().render() }
        }
        func unusedFreeFunction() -> Int { 42 }
        """)

    @Test func onlyWhatTheEntryPointsReachIsTranslated() throws {
        let r = try ImportHarness.run(Self.app)
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["refreshed true", "log: launched"])
        // Reached: the delegate's launch, Store.refresh(force:), Helpers.log and shared.
        #expect(r.scenario.contains("function T.Store:refresh_force("))
        #expect(r.scenario.contains("function T.Helpers:log("))
        // Left out: what only the screen calls, the other overload, the screen, the free function.
        #expect(!r.scenario.contains(":render("), "\(r.scenario)")
        #expect(!r.scenario.contains("plain refresh"))
        #expect(!r.scenario.contains("viewDidLoad"))
        #expect(!r.scenario.contains("unusedFreeFunction"))
        let line = r.result.report.first { $0.hasPrefix("translated") } ?? ""
        #expect(line.contains("reachable from 1 entry point"), "\(r.result.report)")
        let left = r.result.report.first { $0.hasPrefix("left out") } ?? ""
        #expect(left.contains("4 functions (not reachable from background code; --all keeps them)"), "\(r.result.report)")
    }

    @Test func allKeepsEveryFunction() throws {
        let dir = try ImportHarness.folder(Self.app.merging(["Info.plist": ImportHarness.plist]) { a, _ in a })
        let r = try Importer.run(ImportOptions(paths: [dir], all: true, luaCheck: ImportHarness.checkLua))
        #expect(r.scenario.contains(":render("))
        #expect(r.scenario.contains("function T.unusedFreeFunction("))
        #expect(r.report.contains { $0.contains("(--all: every function)") }, "\(r.report)")
        #expect(!r.report.contains { $0.hasPrefix("left out") })
    }

    /// A call on a value of unknown type reaches the method of that name and labels of every type
    /// that code reached names (or makes), whether it names it before or after the call: an
    /// object of a type no reached code names does not exist in the run (rapid type analysis).
    /// Every method of the name was kept before, and real apps' slices grew past 4 MiB.
    @Test func anUnknownReceiverReachesTheMethodsOfTheTypesCodeReaches() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let any = Registry.lookup("x")
            any.sync(now: true)
            let all: [Syncable] = [Mail()]
            Later.start()
            print(all.count)
            """, others: """
            protocol Syncable { func sync(now: Bool) }
            final class Mail: Syncable { func sync(now: Bool) { print("mail") }; func sync() { print("other labels") } }
            final class Photos: Syncable { func sync(now: Bool) { print("photos") } }
            final class Notes { var title = ""; func sync(now: Bool) { print("notes") } }
            enum Later { static func start() { let n = Notes(); print(n.title.isEmpty) } }
            """))
        #expect(r.error == nil)
        #expect(r.printed == ["true", "1"], "\(r.printed)")
        #expect(r.scenario.contains("function T.Mail:sync_now("))
        #expect(r.scenario.contains("function T.Notes:sync("), "a type reached after the call catches up")
        #expect(!r.scenario.contains("function T.Photos:sync("), "no reached code names Photos")
        #expect(!r.scenario.contains("other labels"))
    }

    @Test func aSelectorAndAFunctionPassedAsAValueAreReached() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            NotificationCenter.default.addObserver(self, selector: #selector(didSave(_:)), name: .init("saved"), object: nil)
            run(handler: finished)
            """, members: """
            @objc func didSave(_ n: Notification) { print("saved") }
            func finished() { print("finished") }
            func run(handler: () -> Void) { handler() }
            """))
        #expect(r.error == nil)
        #expect(r.scenario.contains(":didSave("))
        #expect(r.printed == ["finished"])
    }

    @Test func aFunctionWhoseLuaDoesNotCompileBecomesAStubWithAWarning() throws {
        // Lua allows 200 locals in a function; Swift does not mind 210.
        let lets = (1...210).map { "let v\($0) = \($0)" }.joined(separator: "\n        ")
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Big().total())
            print("after")
            """, others: """
            final class Big {
                func total() -> Int {
                    \(lets)
                    return v1 + v210
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.result.warnings.contains { $0.contains("Big.total() could not be translated (Lua: ") && $0.contains("it is a stub") }, "\(r.result.warnings)")
        #expect(r.printed == ["opaque", "after"], "\(r.printed)")
    }

    @Test func anInitializerWhoseArgumentsAllHaveDefaultsIsCalledWithNone() throws {
        #expect(try TranslationTests().printed("""
            let a = Options()
            let b = Options(retries: 5)
            print(a.retries, a.label, b.retries)
            """, others: """
            struct Options {
                var retries: Int
                var label: String
                init(retries: Int = 3, label: String = "x") { self.retries = retries; self.label = label }
            }
            """) == ["3 x 5"])
    }

    /// Statics of a type nested in an extension, named `Outer.Inner.name` (nightguard's group
    /// names were left out and read as nil).
    @Test func staticsOfATypeNestedInAnExtensionAreKept() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Groups.Names.sync, Groups.add(Groups.Names.alarm))
            """, others: """
            final class Groups { static func add(_ name: String) -> String { name + "!" } }
            extension Groups {
                struct Names {
                    static let sync = "watchSync"
                    static let alarm = "alarm"
                }
            }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["watchSync alarm!"])
    }

    /// The app delegate UIKit makes runs its own `init()` (openHAB's set a static the launch read).
    @Test func theDelegatesOwnInitializerIsKept() throws {
        let r = try ImportHarness.run(["AppDelegate.swift": """
            import UIKit
            @main
            class AppDelegate: UIResponder, UIApplicationDelegate {
                static var current: AppDelegate!
                let name: String
                override init() {
                    name = "delegate"
                    super.init()
                    AppDelegate.current = self
                }
                func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    print(AppDelegate.current.name)
                    return true
                }
            }
            """])
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed.first == "delegate")
    }
}
