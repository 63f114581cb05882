// Launch crashes of real apps' scenarios that were the importer's fault, not the app's (SPEC 18.9):
// each test is the Swift shape in our own words, and what Swift does with it. Swift in, what the
// app printed (or the import's outcome) out.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct RealLaunchTestsB {
    func printed(_ body: String, members: String = "", others: String = "") throws -> [String] {
        try TranslationTests().printed(body, members: members, others: others)
    }

    /// `text[...]`, the unbounded range as a subscript's argument, names no type: the slice's
    /// lookup of `...` as a dotted type name indexed an empty list and the importer itself
    /// crashed (element-x-ios).
    @Test func theUnboundedRangeIsNoTypeName() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(whole("abc"))
            """, members: """
            func whole(_ text: String) -> String { String(text[...]) }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
    }

    /// `kCFBundleVersionKey as String` is the Info.plist key it names: element-x-ios read its build
    /// number with it and force-unwrapped the result; an opaque key found nothing and every launch
    /// crashed.
    @Test func coreFoundationBundleKeysAreTheirInfoPlistKeys() throws {
        let plist = ImportHarness.plist.replacingOccurrences(of: "<dict>", with: "<dict><key>CFBundleVersion</key><string>42</string><key>CFBundleName</key><string>Demo</string>")
        let r = try ImportHarness.run(ImportHarness.launching("""
            let build = Bundle.main.object(forInfoDictionaryKey: kCFBundleVersionKey as String) as! String
            print(build)
            print(Bundle.main.infoDictionary?[kCFBundleNameKey as String] as? String ?? "none")
            """), plist: plist)
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["42", "Demo"], "\(r.messages)")
    }

    /// `Preferences.General.isFirstLaunch.value` where `Preferences` is the app's own type but
    /// `General` is nested in it by an extension the import does not have (brave-ios declares it in
    /// a module its app target does not compile): `General` is an unknown type whose members are
    /// stubs. It was a nil field of the known type, and every launch crashed reading it.
    @Test func aNestedTypeDeclaredOutsideTheImportIsUnknownNotNil() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let first = Preferences.General.isFirstLaunch.value
            Preferences.General.isFirstLaunch.value = !first
            Preferences.General.isFirstLaunch.value = false
            print(Preferences.name)
            """, others: """
            public enum Preferences {
                static let name = "prefs"
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["prefs"], "\(r.messages)")
        #expect(r.scenario.contains("[\"Preferences.General.isFirstLaunch\"]"))
    }

    /// A class adopting protocols through a composition alias (`typealias Store = Readable &
    /// Writable`) gets their extensions' methods: its own `all()` calling `all(sortedBy:)` calls the
    /// protocol extension's overload, not itself (brave-ios's `SessionWindow.all()` recursed until
    /// the watchdog ended every launch); so does a function calling its own name with arguments
    /// both overloads take (`all() ?? []`: Swift chooses the optional one by type).
    @Test func aCompositionAliasAdoptsEachOfItsProtocols() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Window.all().count)
            print(Window.every().count)
            """, others: """
            protocol Readable {}
            protocol Writable {}
            typealias Store = Readable & Writable
            extension Readable {
                static func all(sortedBy key: String? = nil, limit: Int = 0) -> [String]? { ["a", "b", key ?? "none"] }
            }
            final class Window: Store {
                static func all() -> [String] {
                    return all(sortedBy: "index") ?? []
                }
                static func every() -> [String] {
                    all() ?? []
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-hang") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["3", "3"], "\(r.messages)")
    }

    /// A scene's `userActivity` (and `title`), which luafetch does not model, is kept as
    /// UIApplication's unmodelled properties are: a write is accepted, a read gives it back, and
    /// the report names it. brave-ios set its window scene's `userActivity` at every connection
    /// and the read-only scene crashed every launch.
    @Test func aScenesUnmodelledPropertiesAreKept() throws {
        let delegate = """
            import UIKit
            class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                var window: UIWindow?
                func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
                    guard let windowScene = scene as? UIWindowScene else { return }
                    prepare(scene: windowScene)
                    print(windowScene.title ?? "untitled")
                }
                private func prepare(scene: UIWindowScene) {
                    scene.userActivity = NSUserActivity(activityType: "com.example.browsing")
                    scene.title = "Main"
                }
            }
            """
        var files = ImportHarness.launching("")
        files["SceneDelegate.swift"] = delegate
        let r = try ImportHarness.run(files, plist: ImportHarness.scenePlist())
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["Main"], "\(r.messages)")
        #expect(r.result.report.contains { $0.contains("UIApplication and UIScene properties without a model") }, "\(r.result.report)")
    }

    /// Inside an extension of a Swift type, `TimeInterval(self * 60)` is the conversion, not a
    /// method of the value: brave-ios's `5.minutes` was an opaque value, and the timer it set
    /// up refused it at every launch.
    @Test func aConversionInsideAnExtensionOfIntIsTheConversion() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let interval = 5.minutes
            print(interval)
            Timer.scheduledTimer(withTimeInterval: interval, repeats: false) { _ in print("fired") }
            """, others: """
            extension Int {
                var minutes: TimeInterval { return TimeInterval(self * 60) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed.first == "300.0", "\(r.messages)")
    }

    /// `#if NAME` where the target's OTHER_SWIFT_FLAGS has `-DNAME` (or `-D NAME`): the
    /// compiler reads it as SWIFT_ACTIVE_COMPILATION_CONDITIONS, so the branch is compiled in.
    /// element-x-ios kept its hooks under such a flag; without them every launch called a
    /// missing member.
    @Test func otherSwiftFlagsDefineCompilationConditions() throws {
        let app = """
            import UIKit

            @main
            class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    #if MAIN_TARGET
                    print("main")
                    #else
                    print("other")
                    #endif
                    #if ALSO_SET && !NOT_SET
                    print("also")
                    #endif
                    return true
                }
            }
            """
        let spec = """
            name: Flags
            targets:
              Flags:
                type: application
                platform: iOS
                sources: [App]
                settings:
                  base:
                    PRODUCT_BUNDLE_IDENTIFIER: com.example.flags
                    OTHER_SWIFT_FLAGS: "$(inherited) -DMAIN_TARGET -D ALSO_SET -Onone"
            """
        let r = try ImportHarness.run(["App/AppDelegate.swift": app, "project.yml": spec])
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["main", "also"], "\(r.scenario)")
    }

    /// A registry the app makes empty from a library type it cannot see
    /// (`var routers = WeakBox<Key, Value>()`), looked up before anything is stored, then
    /// filled: the first lookup is nil, a stored object reads back (found by identity, never
    /// by an opaque key equal to another), and a removed one is gone. element-ios's navigation
    /// router store answered "already there" to every first lookup and reached its own
    /// fatalError at launch.
    @Test func anEmptyLibraryContainerHoldsOnlyWhatTheAppStores() throws {
        #expect(try printed("""
            let store = RouterStore()
            let a = UIViewController(), b = UIViewController()
            print(store.register(Router(name: "first"), for: a))
            print(store.register(Router(name: "second"), for: b))
            print(store.register(Router(name: "again"), for: a))
            store.remove(for: a)
            print(store.register(Router(name: "third"), for: a))
            """, others: """
            import OtherKit
            final class Router { let name: String; init(name: String) { self.name = name } }
            final class RouterStore {
                private var routers = WeakTable<UIViewController, Router>()
                func register(_ router: Router, for key: UIViewController) -> String {
                    if let existing = routers[key] { return "kept " + existing.name }
                    routers[key] = router
                    return "stored " + router.name
                }
                func remove(for key: UIViewController) { routers[key] = nil }
            }
            """) == ["stored first", "stored second", "kept first", "stored third"])
    }

    /// A helper finding the scene delegate through the application's connected scenes
    /// (`UIApplication.shared.connectedScenes.first as? UIWindowScene`, then its `delegate as?
    /// SceneDelegate`), called once the scene has connected: it is the scene delegate UIKit made,
    /// and the scene is active after launch. fsnotes looked its delegate up this way and reached
    /// its own fatalError at every launch.
    @Test func connectedScenesHoldTheSceneAndItsDelegate() throws {
        let plist = ImportHarness.scenePlist()
        var files = ImportHarness.launching("print(\"launched\", UIApplication.current() == nil ? \"no scene yet\" : \"scene\")", others: """
            extension UIApplication {
                static func current() -> SceneDelegate? {
                    guard let scene = UIApplication.shared.connectedScenes.first as? UIWindowScene,
                          let delegate = scene.delegate as? SceneDelegate else { return nil }
                    return delegate
                }
            }
            """)
        files["SceneDelegate.swift"] = """
            import UIKit
            class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                var window: UIWindow?
                let name = "main scene"
                func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
                    DispatchQueue.main.async {
                        guard let found = UIApplication.current() else { fatalError("no scene delegate") }
                        let active = UIApplication.shared.connectedScenes.filter { $0.activationState == .foregroundActive }.count
                        print("found", found.name, active)
                    }
                }
            }
            """
        let r = try ImportHarness.run(files, plist: plist)
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.world?.violations.map(\.message) ?? []) \(r.error?.message ?? "")\n\(r.scenario)")
        #expect(Array(r.printed.prefix(2)) == ["launched no scene yet", "found main scene 1"], "\(r.printed)")
    }

    /// `value is any P` / `as? P` on a library's value, where the app's own extension makes a
    /// library type adopt P (`extension Library.Builder: P`): the value may be one, so the check
    /// holds, also for a protocol P refines; a protocol only the app's own types adopt still
    /// fails. passepartout checked its library's module builders this way and reached its own
    /// fatalError at launch.
    @Test func aLibraryValueAdoptsWhatTheAppsExtensionsMakeItAdopt() throws {
        #expect(try printed("""
            let builder = Catalog.shared.makeBuilder()
            guard builder is any Priced else { fatalError("not priced") }
            print("priced", (builder as? Labelled) != nil, builder is Local)
            """, others: """
            import OtherKit
            protocol Labelled {}
            protocol Priced: Labelled { var price: Int { get } }
            protocol Local {}
            struct Own: Local {}
            extension Gadget.Builder: Priced { var price: Int { 3 } }
            """) == ["priced true false"])
    }

    /// Synchronization's `Mutex` and os's `OSAllocatedUnfairLock` hold the state `withLock`'s
    /// closure reads and writes, and the closure's result is the call's: element-x-ios kept its
    /// settings hook in a `Mutex`, read it with `withLock { $0 }` and registered its refresh task
    /// with an identifier read from the settings that hook made; an opaque lock made the
    /// identifier opaque and every launch crashed in `BGTaskScheduler.register`.
    @Test func aMutexHoldsItsStateAndReturnsItsClosuresResult() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let hooks = Hooks()
            print(hooks.current.tag)
            hooks.replace(with: Hook(tag: "second"))
            print(hooks.current.tag)
            let counter = OSAllocatedUnfairLock(initialState: 0)
            counter.withLock { $0 += 2 }
            let seen = counter.withLock { state in state * 10 }
            print(seen)
            """, others: """
            import Synchronization
            import os
            struct Hook { let tag: String }
            final class Hooks {
                private let stored: Mutex<Hook> = Mutex(Hook(tag: "first"))
                var current: Hook { stored.withLock { $0 } }
                func replace(with hook: Hook) { stored.withLock { $0 = hook } }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["first", "second", "20"], "\(r.messages)")
    }

    /// An app's own type named `Mutex` is the app's: its methods run, not the mapping.
    @Test func anAppsOwnMutexIsItsOwn() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let m = Mutex(5)
            print(m.withLock { $0 + 1 })
            """, others: """
            final class Mutex {
                var value: Int
                init(_ value: Int) { self.value = value }
                func withLock(_ body: (Int) -> Int) -> Int { body(value) * 100 }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["600"], "\(r.messages)")
    }

    /// A protocol extension calling a requirement that shares its base name with the extension's
    /// own method (so the requirement is `send_at` in Lua), implemented by a class with a single
    /// `send` and overridden in a subclass: the call through the protocol reaches the class's and
    /// the subclass's methods (Loop's exporter: `export(completion:)` calling `export(now:)`,
    /// where each call was a nil method and every launch that exported crashed).
    @Test func aRequirementCalledThroughItsProtocolReachesTheImplementation() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let items: [Sender] = [Mailer(), LateMailer()]
            for item in items { item.send { print($0) } }
            Mailer().send(at: 7) { print("direct \\($0)") }
            """, others: """
            protocol Sender {
                func send(at time: Int, done: @escaping (String) -> Void)
            }
            extension Sender {
                func send(done: @escaping (String) -> Void) { send(at: 1, done: done) }
            }
            class Mailer: Sender {
                func send(at time: Int, done: @escaping (String) -> Void) { done("mailer \\(time)") }
            }
            class LateMailer: Mailer {
                override func send(at time: Int, done: @escaping (String) -> Void) { done("late \\(time + 1)") }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["mailer 1", "late 2", "direct mailer 7"], "\(r.messages)")
    }

    /// A member of the app's own type that the files do not declare exists all the same (Swift
    /// compiled it): a macro's expansion, an extension in a module the target does not compile.
    /// Reading it is a stub, never a nil field: element-x-ios's `@UserPreference` macro adds
    /// `enableNotificationsPublisher` beside each setting, and `.sink` on it crashed every launch.
    /// What the app stores in such a member reads back.
    @Test func anUndeclaredMemberOfAnAppTypeIsAStubNotNil() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let settings = Settings()
            var seen = 0
            settings.enabledPublisher.sink { _ in seen += 1 }.store(in: &settings.bag)
            print(settings.enabled)
            settings.extra = 5
            print(settings.extra)
            print(settings.theme.rawValue)
            """, others: """
            enum Theme: String { case dark }
            final class Settings: @unchecked Sendable {
                @Preference(defaultValue: true)
                var enabled: Bool
                var theme = Theme.dark
                var bag = Set<AnyCancellable>()
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed.count == 3 && r.printed[1] == "5" && r.printed[2] == "dark", "\(r.messages)")
        #expect(r.scenario.contains("\"Settings.enabledPublisher\""), "the stub is listed")
    }

    /// A value read as a statement (a result builder's line naming a colour an extension
    /// declares) compiles: the function was a stub with a warning, "syntax error near 'swift'"
    /// (element-x-ios's views).
    @Test func aValueReadAsAStatementCompiles() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Palette().render())
            """, others: """
            import SwiftUI
            struct Brand { let background = 3 }
            extension Color { static let brand = Brand() }
            struct Palette {
                func render() -> String {
                    Color.brand.background
                    Color.brand
                    return "drawn"
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.result.warnings.contains { $0.contains("could not be translated") }, "\(r.result.warnings)")
        #expect(r.printed == ["drawn"], "\(r.messages)")
    }

    /// A launch has no arguments but the executable: `CommandLine.arguments.contains("-ui-test")`
    /// is false (passepartout chose its UI-testing context on an opaque `true`, and every launch
    /// crashed on a nil manager).
    @Test func theLaunchsArgumentsAreTheExecutableAlone() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(CommandLine.arguments.contains("-ui-test"), ProcessInfo.processInfo.arguments.count, CommandLine.argc)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["false 1 1"], "\(r.messages)")
    }

    /// A view controller's `isViewLoaded` is false: no view is ever loaded (mastodon-ios checked
    /// `precondition(!isViewLoaded)` when its dependencies were set; an opaque value failed it),
    /// also in a subclass of a library's view controller.
    @Test func aViewControllersViewIsNeverLoaded() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let screen = SearchScreen()
            screen.name = "search"
            let tabs = TabsScreen()
            tabs.name = "tabs"
            print(screen.name, screen.loaded(), tabs.name)
            """, others: """
            final class SearchScreen: UIViewController {
                var name = "" { willSet { precondition(!isViewLoaded) } }
                func loaded() -> Bool { isViewLoaded }
            }
            // A library's view controller (Tabman's), as mastodon-ios's is.
            final class TabsScreen: PagerTabsViewController {
                var name = "" { willSet { precondition(!isViewLoaded) } }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["search false tabs"], "\(r.messages)")
    }

    /// `x[...]` is the whole collection, with the same indices (nightguard searched
    /// `self[...]` backwards and sliced `self[..<index]`; the unbounded range was an opaque index
    /// and every launch crashed).
    @Test func theUnboundedRangeSubscriptIsTheWholeCollection() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print([1, 2, 3, 4, 5, 6].lastMatches(2) { $0 % 2 == 0 })
            print(String("abc"[...]))
            print(Array([10, 20, 30, 40][1..<3]), Array([10, 20, 30][1...]), [10, 20, 30].lastIndex(of: 20) ?? -1)
            """, others: """
            extension Array {
                func lastMatches(_ n: Int, where keep: (Element) -> Bool) -> [Element] {
                    var found: [Element] = []
                    var slice = self[...]
                    while n > found.count {
                        guard let i = slice.lastIndex(where: keep) else { break }
                        found.append(slice[i])
                        slice = self[..<i]
                    }
                    return found.reversed()
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["[4, 6]", "abc", "[20, 30] [20, 30] 1"], "\(r.messages)")
    }

    /// An index a stub made (`Range(match.range(at: 1), in: name)` of an `NSRegularExpression`
    /// match) reads an unknown element, never a Lua error (fsnotes renamed a note at every launch
    /// and crashed in `string.sub`).
    @Test func anIndexAStubMadeReadsAnUnknownElement() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            var name = "note 2"
            let match = Matcher.shared.firstMatch(in: name)
            let range = match.wholeRange(in: name)
            name = String(name[range])
            let items = [1, 2, 3]
            _ = items[match.position]
            print("renamed")
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["renamed"], "\(r.messages)")
    }

    /// The app runs outside XCTest: `NSClassFromString("XCTest")` is nil (home-assistant returned
    /// from didFinishLaunching when it was not, so its BGTask was never registered and its first
    /// submit was `bgtask-unregistered`).
    @Test func xctestIsAbsentFromTheApp() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Env.isRunningTests, NSClassFromString("XCTestCase") == nil)
            """, others: """
            enum Env { static var isRunningTests: Bool { NSClassFromString("XCTest") != nil } }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["false true"], "\(r.messages)")
    }

    /// A struct whose only written initializer is in an extension (Codable's `init(from:)`)
    /// keeps its memberwise one: zotero's `PDFSettings(transition: ...)` called `init(from:)` with
    /// the values as its decoder, and every launch crashed.
    @Test func aStructKeepsItsMemberwiseInitBesideAnExtensionsInit() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let s = Layout.standard
            print(s.columns, s.dense)
            """, others: """
            struct Layout {
                var columns: Int
                var dense: Bool
                static var standard: Layout { Layout(columns: 3, dense: true) }
            }
            extension Layout: Decodable {
                enum Keys: String, CodingKey { case columns, dense }
                init(from decoder: Decoder) throws {
                    let c = try decoder.container(keyedBy: Keys.self)
                    columns = try c.decode(Int.self, forKey: .columns)
                    dense = try c.decode(Bool.self, forKey: .dense)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["3 true"], "\(r.messages)")
    }

    /// An extension's `sorted()` on `Set where Element == Feed` hides the set's own `sorted` only
    /// from calls without labels: NetNewsWire's `names.sorted(by:)` on a set of strings whose type
    /// the translation could not tell called the extension, which called itself (an app-hang at
    /// every launch).
    @Test func anExtensionsUnlabelledMethodLeavesTheLabelledBuiltin() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let names = Catalog.names().union(["b"])
            print(names.sorted(by: { $0 < $1 }).joined(separator: ","))
            print(Set([Feed(title: "z"), Feed(title: "y")]).sorted().map { $0.title }.joined(separator: ","))
            """, others: """
            struct Feed: Hashable { var title: String }
            enum Catalog { static func names() -> Set<String> { Set(["c", "a"]) } }
            extension Set where Element == Feed {
                func sorted() -> [Feed] { return sorted(by: { $0.title < $1.title }) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-hang") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["a,b,c", "y,z"], "\(r.printed) \(r.messages)")
    }

    /// A call the SDK declares `-> Bool` that stays true (here: a bundle's resource exists) ends a
    /// loop or recursion that polls it after 100 answers at one site at one instant: fsnotes'
    /// unique-name recursion (`if fileExists(atPath:) { return unique(name + " 2") }`) took the
    /// stub's opaque value as true forever, and every launch was an app-hang. (A path the app
    /// never wrote does not exist: RealLaunchTestsC.aFreshInstallHasItsBundleAndWhatTheAppWrote.)
    @Test func aRecursionOnABoolCallOfTheSDKEnds() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let css = Bundle.main.path(forResource: "core", ofType: "css")!
            print(Names.unique(css, "note", 0).hasPrefix("note"))
            print(FileManager.default.fileExists(atPath: css))
            """, others: """
            enum Names {
                static func unique(_ path: String, _ name: String, _ n: Int) -> String {
                    if FileManager.default.fileExists(atPath: path) {
                        return unique(path, name + " " + String(n + 1), n + 1)
                    }
                    return name
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-hang") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["true", "true"], "\(r.printed) \(r.messages)")
        #expect(r.scenario.contains("{ \"FileManager.fileExists\", \"AppDelegate.swift:16\", bool = true, exists = true }"), "\(r.scenario)")
    }

    /// A trailing closure skips a closure parameter with a default when a later closure parameter
    /// needs an argument (SE-0286's forward scan): NetNewsWire's `logActivity(kind:detail:) { ... }`
    /// passed its work as `successMessage`, and calling `work` crashed.
    @Test func aTrailingClosureSkipsADefaultedClosureParameter() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let n = Activity.log(kind: "sync") { 41 + 1 }
            print(n)
            print(Activity.log(kind: "sync", message: { "done \\($0)" }) { 7 })
            """, others: """
            enum Activity {
                static func log(kind: String, detail: String? = nil, message: ((Int) -> String)? = nil, _ work: () -> Int) -> Int {
                    let result = work()
                    if let m = message?(result) { print(m) }
                    return result
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["42", "done 7", "7"], "\(r.printed) \(r.messages)")
    }

    /// `as?` of a value a stub returned to one of the app's classes is that class (the SDK made it:
    /// a storyboard's view controller), as `as!` is; to the app's struct or enum it stays nil.
    /// NetNewsWire's scene coordinator stored `viewController(for: .primary) as? MainFeedController`
    /// in an implicitly unwrapped property and crashed at every launch.
    @Test func aStubsValueCastToAnAppClassIsThatClass() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let split = UISplitViewController(style: .doubleColumn)
            let feeds = split.viewController(for: .primary) as? FeedsController
            print(feeds != nil)
            let error = URLError(.timedOut) as Error
            print((error as? StoreError) == nil)
            """, others: """
            class FeedsController: UIViewController {}
            enum StoreError: Error { case missing }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["true", "true"], "\(r.printed) \(r.messages)")
    }

    /// A subclass that declares no initializer is made with its superclass's: Loop's
    /// `CriticalEventLogHistoricalExporter(manager: self)` dropped the argument, and the base
    /// class's `manager` was nil when the export ran.
    @Test func aSubclassWithoutInitializersUsesItsSuperclasss() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let e = HistoricalExporter(manager: Manager(name: "logs"))
            print(e.describe())
            """, others: """
            class Manager { let name: String; init(name: String) { self.name = name } }
            class BaseExporter {
                let manager: Manager
                init(manager: Manager) { self.manager = manager }
            }
            class HistoricalExporter: BaseExporter {
                let kind = "historical"
                func describe() -> String { kind + " " + manager.name }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["historical logs"], "\(r.printed) \(r.messages)")
    }

    /// A `return` takes the result type of what it returns from: a function's, or a closure's
    /// called where it is written (passepartout's `let context: AppContext = { ... return
    /// .forUITesting }()` was an enum case token, and the app crashed on it).
    @Test func aReturnedImplicitMemberHasTheResultType() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Context.make(testing: true).name, Holder().context.name)
            """, others: """
            struct Context {
                let name: String
                static var forTesting: Context { Context(name: "testing") }
                static func make(testing: Bool) -> Context {
                    if testing { return .forTesting }
                    return Context(name: "live")
                }
            }
            final class Holder {
                let context: Context = {
                    if ProcessInfo.processInfo.arguments.count < 5 { return .forTesting }
                    return Context(name: "live")
                }()
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["testing testing"], "\(r.printed) \(r.messages)")
    }

    /// Copying a struct finds its type in one step, not by walking every type: duckduckgo (2,000
    /// types) copied its array of variants at launch past the watchdog's budget (an app-hang at
    /// every launch).
    @Test func copyingStructsDoesNotWalkEveryType() throws {
        let many = (0..<2000).map { "struct Unused\($0) { var v = \($0) }" }.joined(separator: "\n")
        let r = try ImportHarness.run(ImportHarness.launching("""
            var total = 0
            for _ in 0..<60 {
                let copy = Catalog.variants
                total += copy.count
            }
            print(total)
            """, others: """
            struct Variant { var name: String; var weight: Int; var tags: [String] }
            enum Catalog { static let variants: [Variant] = (0..<300).map { Variant(name: "v\\($0)", weight: $0, tags: ["a"]) } }
            \(many)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-hang"), "\(r.messages)")
        #expect(r.printed == ["18000"], "\(r.printed) \(r.messages)")
    }

    /// An `@autoclosure` parameter is passed as a function that evaluates the argument:
    /// duckduckgo's `HistoryManager.make(isAutocompleteEnabledByUser: settings.autocomplete)` called
    /// the Bool it was given, and every launch crashed.
    @Test func anAutoclosureArgumentIsAFunction() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            var reads = 0
            let flag = Check.make(enabled: { reads += 1; return true }())
            print(flag, reads, Check.later())
            """, others: """
            enum Check {
                static func make(enabled: @autoclosure @escaping () -> Bool) -> Bool { enabled() && enabled() }
                static func later(_ value: @autoclosure () -> Int = 7) -> Int { value() }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["true 2 7"], "\(r.printed) \(r.messages)")
    }

    /// A static stored property of an extension of an SDK type is a value its static methods
    /// read: duckduckgo's `extension URL { private static let factory = Factory() }` was never
    /// made, and every launch crashed reading it.
    @Test func anExtensionsStaticStoredPropertyOfAnSDKTypeExists() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(URL.pixel(name: "launch"), URL.pixel(name: "again"), URL.made)
            """, others: """
            final class Factory {
                init() { URL.made += 1 }
                func make(_ name: String) -> String { "pixel/" + name }
            }
            extension URL {
                private static let factory = Factory()
                static var made = 0
                static func pixel(name: String) -> String { factory.make(name) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["pixel/launch pixel/again 1"], "\(r.printed) \(r.messages)")
    }

    /// A property wrapper generic over its value takes an argument typed `T` as the property's
    /// type: damus's `@StringSetting(key:, default_value: .production) var environment:
    /// PurpleEnvironment` made an enum token with no methods, and a launch task crashed calling one.
    @Test func aGenericWrappersArgumentHasThePropertysType() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Settings().environment.baseURL())
            """, others: """
            enum PurpleEnvironment: String {
                case production, staging
                func baseURL() -> String { self == .production ? "https://purple" : "https://staging" }
            }
            @propertyWrapper class Setting<T> {
                private var value: T
                init(key: String, default_value: T) { self.value = default_value }
                var wrappedValue: T { get { value } set { value = newValue } }
            }
            class Settings {
                @Setting(key: "purple_environment", default_value: .production)
                var environment: PurpleEnvironment
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["https://purple"], "\(r.printed) \(r.messages)")
    }

    /// A `class var` read in a class's static getter is the one of the class it was read on:
    /// owncloud's `ScheduledTaskAction.taskExtension` read the base class's `identifier` (nil) for
    /// every action and force-unwrapped it at launch.
    @Test func aClassVarDispatchesOnTheClassItIsReadOn() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(CleanupAction.descriptor, BaseAction.descriptor)
            """, others: """
            class BaseAction {
                class var identifier: String? { nil }
                class var descriptor: String { "action " + (identifier ?? "none") }
            }
            class CleanupAction: BaseAction {
                override class var identifier: String? { "cleanup" }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["action cleanup action none"], "\(r.printed) \(r.messages)")
    }

    /// Optional chaining skips the rest of the chain, calls included: kiwix's `try? FileManager
    /// .default.urls(...).first?.resourceValues(forKeys:).volumeAvailableCapacityForImportantUsage`
    /// read the capacity of nil when `first` was nil (a crash in 1 % of explore's runs).
    @Test func anOptionalChainSkipsTheCallsAfterIt() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let none: [URL] = []
            let space: Int64? = try? none.first?.resourceValues(forKeys: [.volumeAvailableCapacityKey]).volumeAvailableCapacity
            let box: Box? = nil
            print(space == nil, box?.describe().count == nil)
            """, others: """
            final class Box { func describe() -> String { "box" } }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["true true"], "\(r.printed) \(r.messages)")
    }

    /// A subclass's new overload of an inherited method's name (other labels, not an override)
    /// keeps both: pocket-casts' `track(_:currentSettings:properties:)` hid its base class's
    /// `track(_:properties:)`, called it, and so called itself until the stack overflowed.
    @Test func aSubclassOverloadLeavesTheInheritedMethod() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            PlaybackAnalytics().settingsChanged("2x")
            """, others: """
            class Analytics {
                func track(_ event: String, properties: [String: String]? = nil) { print(event, properties?["settings"] ?? "-") }
            }
            class PlaybackAnalytics: Analytics {
                func settingsChanged(_ s: String) { track("effects", currentSettings: s) }
                private func track(_ event: String, currentSettings: String?, properties: [String: String]? = nil) {
                    var properties = properties ?? [:]
                    if let currentSettings { properties["settings"] = currentSettings }
                    track(event, properties: properties)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["effects 2x"], "\(r.printed) \(r.messages)")
    }

    /// An error thrown in a closure a library call runs, where the call is not under `try`, is
    /// the library's (Combine's `tryMap` makes it the publisher's failure), never a crash:
    /// brave-ios's `dataTaskPublisher(for:).tryMap { try JSONSerialization.jsonObject(...) }` was an
    /// app-crash with "(error object is a table value)" whenever the decode failed.
    @Test func aClosureALibraryRunsThrowsIntoTheLibrary() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let publisher = Feed.session.dataTaskPublisher(for: URL(string: "https://example.com")!)
                .tryMap { data, _ in try Decoder.decode(data) }
            print("made", publisher == nil)
            """, others: """
            enum DecodeError: Error { case bad }
            enum Decoder { static func decode(_ d: Any) throws -> Int { throw DecodeError.bad } }
            enum Feed { static let session = URLSession(configuration: .default) }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["made false"], "\(r.printed) \(r.messages)")
    }
}
