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

    @Test func aPublishedPropertysPublisherRunsSinkOnEachAssignment() throws {
        #expect(try printed("""
            model.$count.sink { v in print("count", v) }.store(in: &bag)
            model.count = 2
            model.count += 1
            model.watch()
            model.count = 7
            """, members: "var bag = Set<AnyCancellable>()\nlet model = Model()", others: """
            import Combine
            final class Model: ObservableObject {
                @Published var count = 0 { didSet { print("didSet", count) } }
                var bag = Set<AnyCancellable>()
                func watch() { $count.dropFirst().sink { print("watched", $0) }.store(in: &bag) }
            }
            """) == ["count 0", "count 2", "didSet 2", "count 3", "didSet 3", "count 7", "watched 7", "didSet 7"])
    }

    @Test func optionalMapAndFlatMapOnNilGiveNil() throws {
        #expect(try printed("""
            let none: Int? = nil
            let some: Int? = 4
            print(none.map { $0 + 1 } == nil, none.flatMap { _ in 5 } == nil, some.map { $0 * 2 } ?? 0, Optional(3).map { $0 + 1 } ?? 0)
            """) == ["true true 8 4"])
    }

    @Test func aSetOfAStubsResultEnds() throws {
        #expect(try printed("""
            let ids = Set(Registry.shared.allIdentifiers())
            print(ids.count, Array(Registry.shared.names()).count)
            """) == ["0 0"])
    }

    /// 18.9.7: UIApplication's properties luafetch does not model are accepted, read back, and
    /// named once in the report.
    @Test func unmodelledApplicationPropertiesKeepTheLastValueWritten() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(application.applicationIconBadgeNumber, UIApplication.shared.shortcutItems == nil)
            UIApplication.shared.shortcutItems = []
            application.applicationIconBadgeNumber = 3
            UIApplication.shared.isIdleTimerDisabled = true
            print(application.applicationIconBadgeNumber, UIApplication.shared.isIdleTimerDisabled, UIApplication.shared.shortcutItems?.count ?? -1)
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(Array(r.printed.prefix(2)) == ["0 true", "3 true 0"])
        #expect(r.result.report.filter { $0.contains("UIApplication properties without a model") }
                == ["note         UIApplication properties without a model, accepted and ignored (a read gives the last value written): applicationIconBadgeNumber, isIdleTimerDisabled, shortcutItems"])
    }

    /// 18.9.7: with a storyboard in the scene manifest, the scene delegate's window is UIKit's.
    @Test func aStoryboardScenesWindowIsNeverNil() throws {
        let plist = ImportHarness.scenePlist(storyboard: "Main")
        var files = ImportHarness.launching("print(\"launched\")")
        files["SceneDelegate.swift"] = """
            import UIKit
            class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                var window: UIWindow?
                func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
                    window!.tintColor = .red
                    print("window", window == nil ? "nil" : "made")
                }
            }
            """
        let r = try ImportHarness.run(files, plist: plist)
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")\n\(r.scenario)")
        #expect(r.printed.contains("window made"), "\(r.printed)")
    }

    /// An @AppStorage key written as a constant (`Keys.theme.rawValue`) is translated, not pasted.
    @Test func appStorageKeysAreTranslatedExpressions() throws {
        #expect(try printed("""
            let s = Settings()
            print(s.theme)
            s.theme = "dark"
            print(s.theme, UserDefaults.standard.string(forKey: "app.theme") ?? "-")
            """, others: """
            import SwiftUI
            enum Keys: String { case theme = "app.theme" }
            final class Settings { @AppStorage(Keys.theme.rawValue) var theme: String = "light" }
            """) == ["light", "dark dark"])
    }

    /// Swift runs a property's observers for assignments from outside the type's own initializer
    /// only (IceCubes' Theme.init set tint before label, and tint's didSet read label).
    @Test func observersDoNotRunInTheTypesOwnInitializer() throws {
        #expect(try printed("""
            let t = Theme()
            t.tint = "red"
            """, others: """
            final class Theme {
                var tint: String { didSet { print("tint", tint, label) } }
                var label: String { didSet { print("label", label) } }
                init() {
                    tint = "blue"
                    self.label = "black"
                    print("made", tint, label)
                }
            }
            """) == ["made blue black", "tint red black"])
    }

    /// Swift's numeric functions on a stub's value give an opaque value, never Lua's error
    /// (IceCubes' abs of two luminances computed from Color.resolve); on numbers, Swift's results.
    @Test func numericFunctionsOfAStubsValueAreOpaque() throws {
        #expect(try printed("""
            let l = Palette.current.luminance
            print(abs(l - 0.5) > abs(l - 0.2), floor(2.7), round(-2.5), max(5, 7), min(3, 1, 2), abs(-4))
            """) == ["false 2.0 -3.0 7 1 4"])
    }

    /// A SwiftUI view made for its scene-phase handler has no parent to pass its arguments: what
    /// it was given is opaque, never nil (IceCubes' video view crashed at every launch).
    @Test func aViewMadeForItsHandlersHasOpaqueArguments() throws {
        let files = ["PlayerApp.swift": """
            import SwiftUI
            @main
            struct PlayerApp: App {
                var body: some Scene { WindowGroup { PlayerView(viewModel: PlayerModel()) } }
            }
            final class PlayerModel { func pause() { print("paused") } }
            struct PlayerView: View {
                @Environment(\\.scenePhase) private var scenePhase
                let viewModel: PlayerModel
                let title: String?
                init(viewModel: PlayerModel) { self.viewModel = viewModel; self.title = nil }
                var body: some View {
                    Text("video").onChange(of: scenePhase) { _, phase in
                        if phase == .background { viewModel.pause(); print("title", title ?? "none") }
                    }
                }
            }
            """]
        let r = try ImportHarness.run(files)
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")\n\(r.scenario)")
        #expect(r.printed.contains("title none"), "\(r.printed)")
    }

    /// An implicitly unwrapped stored property of a view made for its handlers is an opaque
    /// value: the app sets it when the view appears (damus's `@State var damus_state: DamusState!`,
    /// set in `onAppear`, which luafetch never runs; its foreground handler crashed at every launch).
    @Test func aViewsImplicitlyUnwrappedStateIsSetForItsHandlers() throws {
        let files = ["NotesApp.swift": """
            import SwiftUI
            @main
            struct NotesApp: App {
                var body: some Scene { WindowGroup { NotesView() } }
            }
            final class Store { func reopen() -> Bool { true } }
            struct NotesView: View {
                @State var store: Store!
                var body: some View {
                    Text("notes")
                        .onAppear { store = Store() }
                        .onReceive(NotificationCenter.default.publisher(for: UIApplication.willEnterForegroundNotification)) { _ in
                            _ = store.reopen()
                            print("foreground")
                        }
                }
            }
            """]
        let r = try ImportHarness.run(files)
        #expect(r.error == nil && !r.codes.contains("app-crash"), "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed.contains("foreground"), "\(r.printed)")
    }

    /// A view with an initializer of its own is made for its handlers by it, each parameter an
    /// opaque value of its type (Aidoku's header view read `manga.wrappedValue` of its Binding
    /// parameter in its init and crashed at every launch when given nil).
    @Test func aViewMadeForItsHandlersByItsOwnInitGetsOpaqueParameters() throws {
        let files = ["ReaderApp.swift": """
            import SwiftUI
            @main
            struct ReaderApp: App {
                @State var book = Book(title: "Dune")
                var body: some Scene { WindowGroup { HeaderView(book: $book, subtitle: nil, onClose: {}) } }
            }
            struct Book { var title: String }
            struct HeaderView: View {
                @Environment(\\.scenePhase) private var scenePhase
                @Binding var book: Book
                @State private var caption: String
                let subtitle: String?
                let onClose: () -> Void
                init(book: Binding<Book>, subtitle: String?, onClose: @escaping () -> Void) {
                    self._book = book
                    self._caption = State(initialValue: book.wrappedValue.title)
                    self.subtitle = subtitle
                    self.onClose = onClose
                }
                var body: some View {
                    Text(caption).onChange(of: scenePhase) { _, phase in
                        if phase == .background { print("saving", subtitle ?? "no subtitle"); preview() }
                    }
                }
                // Reached from the handler: the slice keeps the initializer.
                func preview() { _ = HeaderView(book: $book, subtitle: "preview", onClose: {}) }
            }
            """]
        let r = try ImportHarness.run(files)
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed.contains("saving no subtitle"), "\(r.printed)")
        #expect(r.scenario.contains("swift.opaque(\"Binding\"), nil, swift.opaque("), "\(r.scenario)")
    }

    /// An implicit member of a type the files do not define (`.hours(5)` of a library's
    /// TimeInterval extension) used in arithmetic gives an opaque value, never an error (Loop's
    /// `-absorptionTimes.slow * 2` crashed at every launch); the app's own enum cases still compare.
    @Test func arithmeticOnAnImplicitMemberOfAnUnknownTypeIsOpaque() throws {
        let p = try printed("""
            let times: AbsorptionTimes = (fast: .minutes(30), slow: .hours(5))
            let start = Date().addingTimeInterval(-times.slow * 2)
            let later = times.fast + 60
            print(start == start, later == later, Mode.fast == .fast, Mode.fast == .slow)
            """, others: "typealias AbsorptionTimes = (fast: TimeInterval, slow: TimeInterval)\nenum Mode { case fast, slow }")
        #expect(p == ["true true true false"], "\(p)")
    }

    /// A `private` (or `fileprivate`) type belongs to its file: two files' `private enum Const`
    /// are two types, each file's code sees its own, and a type of the same name the module
    /// shares stays the module's (duckduckgo's scenario failed to load: a later file's Const
    /// replaced an earlier one's, nested Font and all).
    @Test func aFilePrivateTypeBelongsToItsFile() throws {
        var files = ImportHarness.launching("""
            print(Const.name, Shared.describe(), Rows.describe(), Const.Font.size)
            """, others: """
            private enum Const {
                static let name = "delegate"
                enum Font { static let size = 11 }
            }
            """)
        files["Rows.swift"] = """
            private enum Const {
                static let name = "rows"
                enum Font { static let size = 22 }
            }
            extension Const { static var label: String { "rows label" } }
            enum Rows { static func describe() -> String { "\\(Const.name) \\(Const.Font.size) \\(Const.label)" } }
            """
        files["Shared.swift"] = """
            enum Const { static let name = "shared" }
            enum Shared { static func describe() -> String { Const.name } }
            """
        let r = try ImportHarness.run(files)
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["delegate shared rows 22 rows label 11"], "\(r.printed)")
        // Names with nothing between their dots are no type (the lookup never traps on them).
        let program = Program()
        for odd in [".", "..", "a.", ".b", "A..B"] { #expect(program.type(named: odd) == nil) }
    }

    /// A protocol's requirement and its extension's default of the same selector are one method:
    /// a call through the protocol runs the default, or the conforming type's own.
    @Test func aRequirementsDefaultIsTheMethodCallsFind() throws {
        #expect(try printed("""
            let items: [Container] = [Folder(), Account()]
            for c in items { print(c.hasAtLeastOneFeed(), c.hasAtLeastOneFeed(named: "x")) }
            """, others: """
            protocol Container: AnyObject {
                func hasAtLeastOneFeed() -> Bool
                func hasAtLeastOneFeed(named: String) -> Bool
            }
            extension Container {
                func hasAtLeastOneFeed() -> Bool { false }
                func hasAtLeastOneFeed(named: String) -> Bool { named.isEmpty }
            }
            final class Folder: Container {}
            final class Account: Container { func hasAtLeastOneFeed() -> Bool { true } }
            """) == ["false false", "true false"])
    }

    /// An implicit member of an SDK type (`device: UIDevice = .current`) is a value whose members
    /// are opaque, never nil (brave's user agent read `device.model.split(...)` and crashed at
    /// every launch); an SDK enum's case still compares by name.
    @Test func anImplicitMemberOfAnSDKTypeHasOpaqueMembers() throws {
        #expect(try printed("""
            let agent = Agent()
            print(agent.cpu(), agent.style == .dark, agent.style == .light)
            """, others: """
            import UIKit
            struct Agent {
                let device: UIDevice
                let style: UIUserInterfaceStyle
                init(device: UIDevice = .current, style: UIUserInterfaceStyle = .dark) { self.device = device; self.style = style }
                func cpu() -> String {
                    var name = device.model
                    if let first = name.split(separator: " ").first { name = String(first) }
                    return "cpu"
                }
            }
            """) == ["cpu true false"])
    }

    /// A method of an extension of a library type that calls its own selector calls the
    /// library's overload (by parameter type), a stub, not itself (cryptomator's receipt
    /// forwarded `productIdentifier.rawValue` to itself and read `rawValue` of a String).
    @Test func anSDKExtensionForwardingToTheSDKsOverloadCallsAStub() throws {
        #expect(try printed("""
            print(Receipt.current.purchases(of: .monthly).count > 0)
            """, others: """
            import Receipts
            enum Product: String { case monthly = "m" }
            extension Receipt {
                func purchases(of product: Product) -> [Purchase] { purchases(of: product.rawValue) }
            }
            """) == ["false"])
    }

    /// A local variable wrapped by a library's property wrapper holds a value, as a stored one
    /// does (home-assistant's global `Current` returned its `@Dependency` local: nil, and every
    /// launch crashed reading `Current.isCatalyst`).
    @Test func aLocalWrappedByALibraryHoldsAValue() throws {
        #expect(try printed("""
            print(current.isReady == nil, current.name == nil)
            """, others: """
            import Dependencies
            var current: Environment {
                @Dependency(\\.environment) var environment
                return environment
            }
            """) == ["false false"])
    }

    /// A computed global runs its getter on every read and its setter on assignment (it was a
    /// stored global whose value was nil).
    @Test func aComputedGlobalRunsItsAccessors() throws {
        #expect(try printed("""
            print(ticket, ticket)
            ticket = 5
            print(counter, ticket)
            """, others: """
            var counter = 0
            var ticket: Int {
                get { counter += 1; return counter }
                set { counter = newValue * 10 }
            }
            """) == ["1 2", "50 51"])
    }

    /// A labelled subscript an extension declares (`subscript(safeIndex index: Int) -> Element?`)
    /// is the one `x[safeIndex: i]` calls, on an array or an instance (ivpn read
    /// `components[safeIndex: 1]` of a one-element array and trapped "Index out of range").
    @Test func aLabelledSubscriptOfAnExtensionIsTheOneCalled() throws {
        #expect(try printed("""
            let parts = "wireguard".components(separatedBy: "-")
            print(parts[safeIndex: 0] ?? "none", parts[safeIndex: 1] ?? "none", Grid()[row: 2])
            """, others: """
            extension Array {
                subscript(safeIndex index: Int) -> Element? { index >= 0 && index < count ? self[index] : nil }
            }
            struct Grid { subscript(row r: Int) -> Int { r * 10 } }
            """) == ["wireguard none 20"])
        // One no file declares (a library's `[safe: i]`) is a stub's value.
        #expect(try printed("""
            let items = [1, 2]
            if let x = items[safe: 5] { print("found", x == nil) } else { print("none") }
            """) == ["found false"])
    }

    /// `.init()` of the expected type makes one, also as the fallback of `??` whose left side's
    /// type is unknown (Aidoku's tracker state, `decoded ?? .init()`, was a case token whose
    /// `pendingPageUpdates` was nil at every launch).
    @Test func anImplicitInitOfTheExpectedTypeMakesOne() throws {
        #expect(try printed("""
            let store = Store()
            print(store.state.pending.isEmpty, store.other.pending.count)
            """, others: """
            struct State { var pending: [Int] = [] }
            final class Store {
                var state: State
                var other: State = .init(pending: [1, 2])
                init() { state = UserDefaults.standard.data(forKey: "state").flatMap { _ in nil } ?? .init() }
            }
            """) == ["true 2"])
    }

    /// A stored property that satisfies a requirement the protocol's extension also gives a
    /// default (`var isMainApp: Bool { false }`) is the type's own: stored, set by its
    /// initializer, read back (session-ios's `let isMainApp = true` was refused as get-only).
    @Test func aStoredPropertyWinsOverTheProtocolExtensionsDefault() throws {
        #expect(try printed("""
            let contexts: [AppContext] = [MainContext(), ShareContext()]
            for c in contexts { print(c.isMainApp, c.name) }
            """, others: """
            protocol AppContext { var isMainApp: Bool { get }; var name: String { get } }
            extension AppContext { var isMainApp: Bool { false }; var name: String { "context" } }
            final class MainContext: AppContext { let isMainApp: Bool = true }
            final class ShareContext: AppContext { var name: String = "share" }
            """) == ["true context", "false share"])
    }

    /// `super.method()` of a superclass the files do not define is the SDK's method, a stub
    /// (kiwix's `super.fetchRequest()` of NSManagedObject was nil); a library property wrapper
    /// with no type written holds an opaque value (cryptomator's `@Dependency(\\.database)`).
    @Test func superOfAnSDKClassAndLibraryWrappersAreStubs() throws {
        #expect(try printed("""
            let request = Tab.emptyTabs()
            request.predicate = "empty"
            print(Store().count())
            """, others: """
            import CoreData
            import Dependencies
            final class Tab: NSManagedObject {
                static func emptyTabs() -> NSFetchRequest<Tab> {
                    let request = super.fetchRequest() as! NSFetchRequest<Tab>
                    return request
                }
            }
            final class Store {
                @Dependency(\\.database) private var database
                func count() -> Int { _ = database.read { db in 1 }; return 2 }
            }
            """) == ["2"])
    }

    /// An ObservableObject's objectWillChange fires before each @Published change (mastodon's
    /// `documentStore.objectWillChange.receive(on:)` was nil); `as!` of a stub's value to an app
    /// class is that value (fsnotes' storyboard controllers `as! ViewController` crashed).
    @Test func objectWillChangeAndForcedCastsOfStubValues() throws {
        #expect(try printed("""
            let store = Store()
            store.objectWillChange.receive(on: DispatchQueue.main).sink { _ in print("will change", store.count) }.store(in: &bag)
            store.count = 1
            let list = UIStoryboard(name: "Main", bundle: nil).instantiateViewController(withIdentifier: "list") as! ListController
            print(list == nil ? "nil" : "controller")
            """, members: "var bag = Set<AnyCancellable>()", others: """
            import Combine
            final class Store: ObservableObject { @Published var count = 0 }
            final class ListController: UIViewController {}
            """) == ["will change 0", "controller"])
    }

    /// `self.init()` in a convenience initializer calls the implicit initializer, never the
    /// convenience one itself (openHAB's data object recursed until the stack overflowed).
    @Test func selfInitInAConvenienceInitializerIsTheImplicitOne() throws {
        #expect(try printed("""
            let d = DataObject(rootURL: "https://home.test")
            print(d.rootURL, d.version)
            """, others: """
            final class DataObject {
                var rootURL = ""
                var version = 2
            }
            extension DataObject {
                convenience init(rootURL: String) {
                    self.init()
                    self.rootURL = rootURL
                }
            }
            """) == ["https://home.test 2"])
    }

    /// A name declared in backquotes (`` static let `default` ``) is the name the code uses
    /// (mastodon's `AppSecret.default` was left out of the slice and read nil).
    @Test func backquotedNamesAreTheirPlainNames() throws {
        #expect(try printed("""
            AppSecret.default.register()
            print(Mode.default == .default, AppSecret.default.name)
            """, others: """
            final class AppSecret {
                static let `default` = AppSecret()
                let name = "secret"
                func register() { print("registered", `self`.name) }
            }
            enum Mode { case `default`, other }
            """) == ["registered secret", "true secret"])
    }

    /// `_read`/`_modify` accessors (found by the grammar fuzzer): `yield` was unsupported, so the
    /// property read nil and `holder.stored += 1` crashed the app.
    @Test func readAndModifyAccessorsYieldTheirStorage() throws {
        #expect(try printed("""
            let holder = Holder()
            holder.stored += 1
            holder.stored += 1
            print(holder.stored)
            """, others: """
            class Holder {
                private var storage = 40
                var stored: Int {
                    _read { yield storage }
                    _modify { yield &storage }
                }
            }
            """) == ["42"])
    }

    /// A variable named `function` (Lua's `function_`) is assigned to, not taken for a closure
    /// literal (found by the grammar fuzzer: `function += 1` was dropped and the loop never ended).
    @Test func aVariableNamedFunctionIsAssigned() throws {
        #expect(try printed("""
            var function = 0
            repeat { function += 1 } while function < 3
            DispatchQueue.main.async(execute: { print("block", function) })
            print(function)
            """) == ["3", "block 3"])
    }

    /// `for case` binds its pattern's names and skips what does not match (found by the grammar
    /// fuzzer: `for case let n? in` bound nothing and the body read another `n`).
    @Test func forCaseBindsAndFilters() throws {
        #expect(try printed("""
            var total = 0
            let found: [Int?] = [1, 3]
            for case let n? in found { total += n }
            for case .square(let side) in [Shape.circle, .square(4)] where side > 1 { print("side", side) }
            print(total)
            """, others: "enum Shape { case circle, square(Int) }") == ["side 4", "4"])
    }

    /// An `@autoclosure` parameter whose default is nil is a closure returning nil: `handler()?(e)`
    /// calls nothing (pocket-casts' `tryLog(..., error handler: @autoclosure () -> ((Error) ->
    /// Void)? = nil)` crashed with "attempt to call a nil value" whenever a file operation failed).
    @Test func anAutoclosuresNilDefaultIsAClosureReturningNil() throws {
        #expect(try printed("""
            print(Files.attempt(true), Files.attempt(false), Files.attempt(false, report: { e in print("reported") }))
            """, others: """
            enum Files {
                static func attempt(_ ok: Bool, report handler: @autoclosure () -> ((String) -> Void)? = nil) -> Bool {
                    if ok { return true }
                    handler()?("failed")
                    return false
                }
            }
            """) == ["reported", "true false false"])
    }

    /// One of the app's errors bridged to NSError has an empty `userInfo` (duckduckgo read
    /// `(error as NSError).userInfo[NSUnderlyingErrorKey]` of its own error: a false crash).
    @Test func anAppErrorBridgedToNSErrorHasAnEmptyUserInfo() throws {
        #expect(try printed("""
            let ns = SyncError.offline as NSError
            print(ns.userInfo[NSUnderlyingErrorKey] == nil, ns.userInfo.isEmpty)
            """, others: "enum SyncError: Error { case offline }") == ["true true"])
    }

    /// `response?.statusCode ?? 0` with a nil response is 0 (pocket-casts' refresh, whose token
    /// helper answers `(nil, nil, error)` when the server is down, read the status of nil).
    @Test func aNilResponsesStatusThroughOptionalChainingIsNil() throws {
        #expect(try printed("""
            Fetcher.load { response in print(response?.statusCode ?? 0, response?.allHeaderFields == nil) }
            """, others: """
            enum Fetcher { static func load(_ done: (HTTPURLResponse?) -> Void) { done(nil) } }
            """) == ["0 true"])
    }

    /// A call through a metatype value picks the overload whose labels fit, not the one its first
    /// label names (duckduckgo's `pixelFiring.fire(pixel:withAdditionalParameters:includedParameters:)`
    /// ran `fire(pixel:error:...)` with its arguments shifted: a false crash).
    @Test func aDynamicCallPicksTheOverloadWhoseLabelsFit() throws {
        #expect(try printed("""
            Task { try await Reporter().report() }
            Beacon.send(event: "direct", error: nil, included: [], extra: [:]) { _ in }
            """, others: """
            final class Reporter {
                private let sender: SendingLater.Type
                init(sender: SendingLater.Type = Beacon.self) { self.sender = sender }
                func report() async throws { try await sender.send(event: "launch", extra: ["k": "v"], included: ["app"]) }
            }
            protocol Sending {
                static func send(_ event: String, extra: [String: String])
                static func send(event: String, error: Error?, included: [String], extra: [String: String], done: @escaping (Error?) -> Void)
            }
            protocol SendingLater { static func send(event: String, extra: [String: String], included: [String]) async throws }
            enum Beacon: Sending, SendingLater {
                static func send(_ event: String, extra: [String: String]) { print("short") }
                static func send(event: String, device: String? = nil, extra: [String: String] = [:], included: [String] = []) { print("defaults") }
                static func send(event: String, error: Error?, included: [String], extra: [String: String], done: @escaping (Error?) -> Void) {
                    print("with error", extra["k"] ?? "-")
                    done(nil)
                }
                static func send(event: String, extra: [String: String], included: [String]) async throws {
                    print("later", event, extra["k"] ?? "-", included.count)
                }
            }
            """) == ["with error -", "later launch v 1"])
    }
}
