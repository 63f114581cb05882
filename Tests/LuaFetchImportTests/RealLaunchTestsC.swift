// Launch crashes of real apps' scenarios that were the importer's fault, not the app's (SPEC 18.9),
// continued from RealLaunchTestsB: each test is the Swift shape in our own words, and what Swift
// does with it. Swift in, what the app printed out.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct RealLaunchTestsC {
    /// A generic function's result takes the type its metatype argument names: `load(T.self) ??
    /// .init()` makes a `T` (mlem's `load(VisitHistory.CodedData.self, from:) ?? .init()` was an
    /// untyped `.init()`, and reading its members crashed at launch).
    @Test func aMetatypeArgumentNamesTheGenericResult() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let history = Store.load(History.self) ?? .init()
            let many = Store.all(History.self)
            print(history.visits.count, history.title, many.count)
            """, others: """
            struct History: Codable { var visits: [String] = []; var title = "none" }
            enum Store {
                static func load<T: Decodable>(_ model: T.Type) -> T? { nil }
                static func all<T: Decodable>(_ model: T.Type) -> [T] { [] }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["0 none 0"], "\(r.printed) \(r.messages)")
    }

    /// An enum case and a static function of one base name are two members, told apart by their
    /// labels: session-ios's `static func theme(_:color:) -> ForcedThemeValue { .theme(theme,
    /// color: color, alpha: nil) }` called itself forever (an app-hang at launch).
    @Test func aCaseAndAStaticFunctionOfOneNameAreTwo() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let v = Forced.theme("dark", color: 3)
            if case .theme(let name, let color, let alpha) = v { print(name, color, alpha == nil) }
            let w: Forced = .theme("light", color: 4)
            if case .theme(let name, _, _) = w { print(name) }
            """, others: """
            enum Forced: Equatable {
                case plain(Int)
                case theme(String, color: Int, alpha: Double?)
                static func theme(_ name: String, color: Int) -> Forced { return .theme(name, color: color, alpha: nil) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-hang") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["dark 3 true", "light"], "\(r.printed) \(r.messages)")
    }

    /// A call the methods an extension adds cannot take is the type's own: `logs.suffix(2)` beside
    /// an extension's `suffix(_:where:)` (whose predicate has no default) is the array's suffix
    /// (nightguard's log trimming called the extension with a nil predicate and crashed).
    @Test func anExtensionOverloadLeavesTheBuiltinItCannotTake() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let logs = ["a", "b", "c", "d"]
            print(Array(logs.suffix(2)).joined(separator: ","))
            print(logs.suffix(2, where: { $0 != "d" }).joined(separator: ","))
            """, others: """
            extension Array {
                func suffix(_ maxLength: Int, where predicate: (Element) -> Bool) -> [Element] {
                    var result: [Element] = []
                    for e in self.reversed() where predicate(e) && result.count < maxLength { result.insert(e, at: 0) }
                    return result
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["c,d", "b,c"], "\(r.printed) \(r.messages)")
    }

    /// What the mapping table does not model of `NotificationCenter.default` is a stub's value, as
    /// of any iOS object: zotero's `NotificationCenter.default.rx.notification(...)` (RxSwift's
    /// extension) read `rx` as nil and crashed at launch.
    @Test func anUnmodelledMemberOfTheNotificationCenterIsAStub() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let bag = DisposeBag()
            NotificationCenter.default.rx.notification(.NSProcessInfoPowerStateDidChange)
                .subscribe(onNext: { _ in print("changed") })
                .disposed(by: bag)
            print("observing")
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["observing", "changed"], "\(r.printed) \(r.messages)")
    }

    /// A property initialized with a force-unwrapped initializer has that type (home-assistant's
    /// `let prefs = UserDefaults(suiteName: group)!` was untyped): a struct's copy is a copy.
    @Test func aForceUnwrappedInitializerTypesItsProperty() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            var local = settings
            local.name = "changed"
            print(settings.name, local.name)
            """, members: """
            let settings = Settings(name: "kept")!
            """, others: """
            struct Settings {
                var name: String
                init?(name: String) { if name.isEmpty { return nil }; self.name = name }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["kept changed"], "\(r.printed) \(r.messages)")
    }

    /// A protocol the app's extension of an iOS type adopts, called on that iOS type's object, runs
    /// the extension's method: pocket-casts' `extension URLSession: RequestHandler { func
    /// send(request:completion:) }` held in `let handler: RequestHandler` found no `send` on the
    /// session and crashed at launch.
    @Test func anExtensionOfAnIOSTypeSatisfiesTheAppsProtocol() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let connection = Connection(handler: URLSession.shared)
            connection.send(URLRequest(url: URL(string: "https://example.com/feed")!)) { _, _, error in print("done", error == nil) }
            print("sent")
            """, others: """
            protocol RequestHandler {
                func send(request: URLRequest, completion: @escaping (Data?, URLResponse?, Error?) -> Void)
            }
            extension URLSession: RequestHandler {
                func send(request: URLRequest, completion: @escaping (Data?, URLResponse?, Error?) -> Void) {
                    print("through the extension")
                    completion(nil, nil, nil)
                }
            }
            final class Connection {
                private let handler: RequestHandler
                init(handler: RequestHandler) { self.handler = handler }
                func send(_ request: URLRequest, completion: @escaping (Data?, URLResponse?, Error?) -> Void) {
                    handler.send(request: request, completion: completion)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["through the extension", "done true", "sent"], "\(r.printed) \(r.messages)")
    }

    /// A subclass sees the types its superclass nests before the module's of the same name:
    /// owncloud's `[FeatureKeys.runOnWifi: true]` in a subclass of the class that nests
    /// `FeatureKeys` took another file's `FeatureKeys`, with no `runOnWifi` ("table index is nil").
    @Test func aSubclassSeesItsSuperclassesNestedTypes() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(UpdateAction().features["runOnWifi"] ?? false)
            """, others: """
            struct FeatureKeys { static let canEdit = "canEdit" }
            class TaskAction {
                struct FeatureKeys { static let runOnWifi = "runOnWifi" }
                var features: [String: Bool] { [:] }
            }
            final class UpdateAction: TaskAction {
                override var features: [String: Bool] { [FeatureKeys.runOnWifi: true] }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["true"], "\(r.printed) \(r.messages)")
    }

    /// `.init(...)` as the whole body of a function or a getter makes the declared result type:
    /// duckduckgo's `func makeStateContext() -> StateContext { .init(...) }` and `private var
    /// appDependencies: AppDependencies { .init(...) }` were enum tokens, and the next state's
    /// `appDependencies.syncService` crashed at launch.
    @Test func anImplicitInitTakesTheDeclaredResult() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let context = Launch().makeContext()
            print(context.dependencies.name, context.url == nil)
            """, others: """
            struct Dependencies { let name: String }
            struct Launch {
                private var dependencies: Dependencies { .init(name: "sync") }
            }
            extension Launch {
                struct Context { let dependencies: Dependencies; let url: URL? }
                func makeContext() -> Context { .init(dependencies: dependencies, url: nil) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["sync true"], "\(r.printed) \(r.messages)")
    }

    /// `fileExists(atPath:)` answers as the files of a fresh install would: the bundle's resources
    /// exist, and what the app wrote; nothing else (deltachat migrated a legacy database at every
    /// launch because `fileExists` was true for any path, then crashed on the migration's stubs).
    @Test func aFreshInstallHasItsBundleAndWhatTheAppWrote() throws {
        var files = ImportHarness.launching("""
            let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first!
            let legacy = docs.appendingPathComponent("legacy.sqlite").path
            if FileManager.default.fileExists(atPath: legacy) { fatalError("Account could not be migrated") }
            let css = Bundle.main.path(forResource: "style", ofType: "css")!
            print("bundle", FileManager.default.fileExists(atPath: css))
            let note = NSTemporaryDirectory() + "note.txt"
            print("before", FileManager.default.fileExists(atPath: note))
            try? "hi".write(toFile: note, atomically: true, encoding: .utf8)
            print("after", FileManager.default.fileExists(atPath: note))
            let cache = docs.appendingPathComponent("cache.json")
            print("cache before", FileManager.default.fileExists(atPath: cache.path))
            try? Data().write(to: cache)
            print("cache after", FileManager.default.fileExists(atPath: cache.path))
            """)
        files["style.css"] = "body {}"
        let r = try ImportHarness.run(files)
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["bundle true", "before false", "after true", "cache before false", "cache after true"], "\(r.printed) \(r.messages)")
    }

    /// A type is every protocol its protocols inherit: NetNewsWire's `SmartFeed: PseudoFeed` with
    /// `protocol PseudoFeed: SidebarItem` failed `representedObject as! SidebarItem` at launch.
    @Test func aTypeIsWhatItsProtocolsInherit() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let objects: [AnyObject] = [SmartFeed()]
            let item = objects[0] as! SidebarItem
            print(item.name, objects[0] is SidebarItem, objects[0] is Folder)
            """, others: """
            protocol SidebarItem: AnyObject { var name: String { get } }
            protocol PseudoFeed: SidebarItem {}
            protocol Folder: AnyObject {}
            final class SmartFeed: PseudoFeed { var name = "today" }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["today true false"], "\(r.printed) \(r.messages)")
    }

    /// A `for` over a range whose bound a stub gave goes round a drawn number of times (SPEC
    /// 18.9.5, as a loop over a stub): deltachat's `for i in 0 ..< dc_array_get_cnt(list)` (a C
    /// library's count) was a Lua `for` given a table, a crash at every launch.
    @Test func aRangeBoundAStubGaveEnds() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let list = dc_get_chatlist()
            var seen = 0
            for i in 0 ..< dc_array_get_cnt(list) { seen += 1; print("at", i) }
            for _ in 1 ... 2 { seen += 0 }
            print("seen", seen <= 3)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed.last == "seen true", "\(r.printed) \(r.messages)")
    }

    /// A `guard` whose `else` leaves a `while` or `repeat` is that loop's condition too: over a stub
    /// it holds for a drawn number of iterations (SPEC 18.9.5). deltachat's event loop, `while true
    /// { guard let event = dc_get_next_event(emitter) else { break } ... }` over a C library's stub,
    /// never ended (an app-hang at launch). Over the app's own values the guard is the app's.
    @Test func aGuardThatLeavesALoopOverAStubEnds() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let emitter = dc_get_event_emitter()
            var events = 0
            while true {
                guard let event = dc_get_next_event(emitter) else { break }
                events += event == nil ? 0 : 1
            }
            var polls = 0
            repeat {
                guard dc_is_io_running(emitter) else { break }
                polls += 1
            } while true
            var own = [1, 2, 3, 4, 5, 6]
            var taken = 0
            while true {
                guard let n = own.popLast() else { break }
                taken += n
            }
            print("ended", events <= 3, polls <= 3, taken)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-hang") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["ended true true 21"], "\(r.printed) \(r.messages)")
    }

    /// A `#selector` handed to an SDK call is a target-action, which fires on a tap, never from the
    /// stub; so do the handlers of `UIAction`, `UIAlertAction` and the other rows of
    /// `StubBook.userEventClosureCalls`: deltachat's view controller registered
    /// `#selector(shareInviteLink)` and a `UIAction` menu in its initializer, the stub called them,
    /// and sharing made another view controller, to a stack overflow or a hang at every launch. A
    /// completion handler passed along is still called.
    @Test func aSelectorIsNotCalledByTheStubItIsHandedTo() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let page = SharePage()
            Loader.shared.load(completion: page.loaded)
            """, others: """
            final class SharePage: NSObject {
                let button = UIButton(type: .system)
                override init() {
                    super.init()
                    button.addTarget(self, action: #selector(share), for: .touchUpInside)
                    let menu = UIMenu(children: [UIAction(title: "Share", image: nil) { [weak self] _ in self?.share() }])
                    let alert = UIAlertController(title: "t", message: nil, preferredStyle: .alert)
                    alert.addAction(UIAlertAction(title: "OK", style: .default) { _ in print("ok") })
                    print(menu == nil)
                }
                @objc func share() { print("tapped") }
                func loaded(_ ok: Bool) { print("loaded") }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["false", "loaded"], "\(r.printed) \(r.messages)")
    }

    /// A static method called on a metatype value takes no receiver: duckduckgo's
    /// `pixelFiring.fire(pixel:error:includedParameters:withAdditionalParameters:)`, with
    /// `pixelFiring: PixelFiring.Type = Pixel.self`, received the type as its first argument, so
    /// every argument moved one place and a dictionary parameter got an array (a crash at launch).
    @Test func aStaticMethodOnAMetatypeValueTakesNoReceiver() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            Daily.fire(event: "sync", included: ["appVersion"])
            """, others: """
            protocol Firing { static func fire(event: String, error: Error?, included: [String], params: [String: String]) }
            final class Pixel: Firing {
                static func fire(event: String, error: Error?, included: [String], params: [String: String]) {
                    var all = params
                    all["event"] = event
                    print(all["event"] ?? "none", error == nil, included.count, all.count)
                }
            }
            enum Daily {
                static func fire(event: String, error: Error? = nil, params: [String: String] = [:],
                                 included: [String] = [], firing: Firing.Type = Pixel.self) {
                    firing.fire(event: event, error: error, included: included, params: params)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["sync true 1 1"], "\(r.printed) \(r.messages)")
    }

    /// A local function handed to a stub is called with as many values as it declares: duckduckgo's
    /// `combineLatest(publisher, combine)` with a local `func combine(_ update: Update, _
    /// notification: Notification)` got nil for its second parameter and crashed at launch.
    @Test func aLocalFunctionHandedToAStubGetsAllItsParameters() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            func combine(_ update: Update, _ note: Notification) -> Update {
                print("combined", note.name.rawValue.isEmpty)
                return update
            }
            let c = RulesManager.shared.updates.combineLatest(NotificationCenter.default.publisher(for: .init("x")), combine)
            """, others: """
            struct Update { var rules = 0 }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed.first?.hasPrefix("combined") == true, "\(r.printed) \(r.messages)")
    }

    /// `window.makeKeyAndVisible()` loads the root view controller's view: `viewDidLoad` and
    /// `viewWillAppear` at once, `viewDidAppear` on the main queue's next turn, once; before it
    /// `isViewLoaded` is false. duckduckgo made its `chromeManager` in `viewDidLoad`, and every
    /// later `chromeManager.reset()` crashed on nil at launch.
    @Test func makeKeyAndVisibleLoadsTheRootViewControllersView() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let main = MainController()
            print("before", main.loaded)
            window = UIWindow(frame: UIScreen.main.bounds)
            window?.rootViewController = main
            window?.makeKeyAndVisible()
            window?.makeKeyAndVisible()
            main.showBars()
            """, members: """
            var window: UIWindow?
            """, others: """
            final class Chrome { func reset() { print("reset") } }
            final class MainController: UIViewController {
                var chrome: Chrome!
                var loaded: Bool { isViewLoaded }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    chrome = Chrome()
                    print("didLoad", loaded)
                }
                override func viewWillAppear(_ animated: Bool) { print("willAppear", animated) }
                override func viewDidAppear(_ animated: Bool) { print("didAppear") }
                func showBars() { chrome.reset() }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["before false", "didLoad true", "willAppear true", "reset", "didAppear"], "\(r.printed) \(r.messages)")
    }

    /// A trailing closure goes to a parameter whose type is an alias of a function type:
    /// duckduckgo's `fetchConfigurationFiles(isBackground:isDebug:) { result in ... }` with
    /// `onDidComplete: @escaping AppConfigurationFetchCompletion` passed the closure after the
    /// last parameter, and the task called a nil `onDidComplete`.
    @Test func aTrailingClosureFillsAParameterTypedByAnAlias() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            Fetcher().fetch(isBackground: true) { result in print("done", result) }
            """, others: """
            typealias FetchCompletion = (Bool) -> Void
            final class Fetcher {
                func fetch(isBackground: Bool, isDebug: Bool = false, onDone: @escaping FetchCompletion) {
                    onDone(isBackground && !isDebug)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["done true"], "\(r.printed) \(r.messages)")
    }

    /// An initializer the import cannot see keeps its closures for later (a handler, an event
    /// mapping), and so does a registration (`registerMigration("v1") { db in ... }`, which
    /// cryptomator's migrator runs inside `migrate`): their stubs do not call them, but for types that run their body at once
    /// (`StubBook.initializerRunsClosures`: Combine's `Future`, ...). duckduckgo's
    /// `EventMapping<Events> { event, _, parameters, _ in ... }` ran on an opaque event, matched no
    /// case, left its `Pixel.Event` nil and crashed at launch.
    @Test func anInitializersClosuresAreKeptForLater() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let mapping = EventMapping<AdEvents> { event, _, _, _ in print("mapped") }
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in print("migrated") }
            let future = Future<Int, Never> { promise in print("future"); promise(.success(1)) }
            print(mapping == nil, future == nil)
            """, others: """
            enum AdEvents { case shown, tapped }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed.first == "false false" && r.printed.contains("future") && !r.printed.contains("mapped") && !r.printed.contains("migrated"),
                "\(r.printed) \(r.messages)")
    }

    /// `type(of: self)` is the type, so its statics are the app's: duckduckgo's `type(of:
    /// self).fetchQueue.async { ... }` was a stub that ran its block on the main queue, where it
    /// waited on a semaphore (a main-thread-hang the app does not have).
    @Test func typeOfSelfIsTheType() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let f = Fetcher()
            f.start()
            f.start()
            print(type(of: f) == Fetcher.self)
            """, others: """
            final class Fetcher {
                static var started = 0
                static func label() -> String { "fetch" }
                func start() {
                    type(of: self).started += 1
                    print(type(of: self).label(), type(of: self).started)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["fetch 1", "fetch 2", "true"], "\(r.printed) \(r.messages)")
    }

    /// An implicit member is looked up in the parameter's type as the callee declared it, nested
    /// where the caller cannot name it: session-ios's `Log.info(.cat, "...")`, with `info(_ cat:
    /// Category, ...)` inside `enum Log` and `.cat` a static of `Log.Category` that a file's
    /// private extension adds, was an enum token, and a dictionary keyed by its identifier got a
    /// nil key at launch.
    @Test func anImplicitMemberOfANestedParameterTypeIsItsStatic() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            Log.info(.cat, "launched")
            """, others: """
            private extension Log.Category {
                static let cat: Log.Category = Log.Category(rawValue: "AppDelegate")
            }
            enum Log {
                struct Category { let rawValue: String; var identifier: String { "cat." + rawValue } }
                static var levels: [String: Int] = [:]
                static func info(_ cat: Category, _ msg: String) {
                    levels[cat.identifier] = 1
                    print(cat.identifier, msg, levels.count)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["cat.AppDelegate launched 1"], "\(r.printed) \(r.messages)")
    }

    /// An `NSRecursiveLock` may be taken again by the thread that holds it: fsnotes's storage
    /// took its `projectsLock` in a method called with it held, a deadlock warning at every
    /// launch on a plain lock.
    @Test func aRecursiveLockIsTakenAgainByItsThread() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let store = Store()
            print(store.reload(), store.tryTwice())
            """, others: """
            final class Store {
                private let lock = NSRecursiveLock()
                private var names = ["a", "b"]
                func contains(_ n: String) -> Bool {
                    lock.lock()
                    defer { lock.unlock() }
                    return names.contains(n)
                }
                func reload() -> Int {
                    lock.lock()
                    defer { lock.unlock() }
                    return contains("a") ? names.count : 0
                }
                func tryTwice() -> Bool {
                    guard lock.try() else { return false }
                    defer { lock.unlock() }
                    return lock.try() && { lock.unlock(); return true }()
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("deadlock") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["2 true"], "\(r.printed) \(r.messages)")
    }

    /// A member of an iOS base class that the type writes reads back what it wrote: pocket-casts's
    /// tab bar controller set `selectedIndex` and indexed its tabs with it; the write was dropped,
    /// the read was an opaque value that matched no case of its `switch`, and a nil event reached
    /// its analytics at launch.
    @Test func anInheritedMemberTheTypeWritesReadsBack() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let tabs = Tabs()
            tabs.setUp()
            """, others: """
            final class Tabs: UITabBarController {
                enum Pane { case home, prefs }
                let panes: [Pane] = [.home, .prefs]
                func setUp() {
                    selectedIndex = 1
                    let word: String
                    switch panes[selectedIndex] {
                    case .home: word = "home"
                    case .prefs: word = "prefs"
                    }
                    print(word, self.selectedIndex)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["prefs 1"], "\(r.printed) \(r.messages)")
    }

    /// A closure literal goes to the overload whose parameter takes a function, and overloads
    /// numbered apart never take a name another one has: NetNewsWire's `fetchArticlesAsync({ ...
    /// }, completion)` beside `(_ feedID: String, _:)` and `(_ feedIDs: Set<String>, _:)` called
    /// those two, each the other, to a stack overflow at launch; and a continuation resumed inside
    /// its body goes on without a later wake-up (that resumed a finished task).
    @Test func aClosureLiteralPicksTheOverloadThatTakesAFunction() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            Task {
                let names = await Shelf().names("a")
                print(names)
            }
            """, others: """
            final class Shelf {
                typealias Loader = (Int) -> [String]
                func load(_ name: String, _ done: @escaping ([String]) -> Void) { load({ _ in [name] }, done) }
                func load(_ tags: Set<String>, _ done: @escaping ([String]) -> Void) { load({ _ in Array(tags) }, done) }
                private func load(_ fetch: @escaping Loader, _ done: @escaping ([String]) -> Void) { done(fetch(0)) }
                func count(_ a: Int) -> Int { a }
                func count(_ a: String) -> Int { 2 }
                func count(_ a: Int, _ b: Int) -> Int { a + b }
                func names(_ name: String) async -> [String] {
                    await withCheckedContinuation { continuation in
                        load(name) { continuation.resume(returning: $0 + ["\\(count(1, 2))"]) }
                    }
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["[\"a\", \"3\"]"], "\(r.printed) \(r.messages)")
    }

    /// A property and a method of one name are two members: session-ios's files each add a
    /// private `static let cat: Log.Category` and one adds `static func cat(_:)`; reading the
    /// property gave the function, and indexing it crashed at launch.
    @Test func aPropertyAndAMethodOfOneNameAreTwo() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Category.cat.name, Category.cat("view").name, Box().size, Box().size(2))
            """, others: """
            struct Category {
                let name: String
                static let cat = Category(name: "app")
                static func cat(_ suffix: String) -> Category { Category(name: "app-" + suffix) }
            }
            struct Box {
                var size = 1
                func size(_ k: Int) -> Int { size * k + 1 }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["app app-view 1 3"], "\(r.printed) \(r.messages)")
    }

    /// A timer's interval the import cannot see (a stub's opaque value) is the typed default of a
    /// timer interval, 60 s, never a crash: home-assistant read its update interval through a
    /// `@Dependency` environment the import does not model, and `timer.after` got a table.
    @Test func aTimerOfAnUnknownIntervalTakesTheDefault() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            guard let interval = Settings().updateInterval else { return true }
            Timer.scheduledTimer(withTimeInterval: interval, repeats: false) { _ in print("fired") }
            """, others: """
            struct Settings { var updateInterval: TimeInterval? { Current.store.interval } }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed.contains("fired"), "\(r.printed) \(r.messages)")
    }

    /// `hashValue` is a number, the same for equal values, for a String, a URL and a value of the
    /// app's Hashable types (its own `hash(into:)`, else its stored properties): mlem keyed its
    /// guest-account cache by the `hashValue` of a struct that synthesizes Hashable, which was nil,
    /// a nil table key at launch.
    @Test func aStringsHashValueIsANumber() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let url = URL(string: "https://example.org/")!
            var cache: [Int: String] = [:]
            cache[url.hashValue] = "guest"
            let same = URL(string: "https://example.org/")!
            print(cache[same.hashValue] ?? "none", "a".hashValue == "a".hashValue, "a".hashValue == "b".hashValue)
            let id = ActorID(host: "a.org"), twin = ActorID(host: "a.org"), other = ActorID(host: "b.org")
            print(id.hashValue == twin.hashValue, id.hashValue == other.hashValue, Tagged(tag: 4).hashValue == Tagged(tag: 9).hashValue)
            """, others: """
            struct ActorID: Hashable { let host: String }
            struct Tagged: Hashable {
                let tag: Int
                func hash(into hasher: inout Hasher) { hasher.combine(tag % 5) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["guest true false", "true false true"], "\(r.printed) \(r.messages)")
    }

    /// `@Dependency(\.name)` reads the app's `extension DependencyValues { var name }`, whose
    /// `self[Key.self]` is the key's `liveValue`, made once per process: home-assistant's whole
    /// `Current` environment came through it and was an opaque value, so its `isRunningTests`
    /// stub was true and the launch returned before registering its BGTask.
    @Test func aDependencyIsTheKeysLiveValue() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(World.isRunningTests, World.interval, World === World, Client().world.interval)
            """, others: """
            import Dependencies
            final class Environment { var isRunningTests = false; var interval = 300.0 }
            private let shared = Environment()
            private enum EnvironmentKey: DependencyKey { static var liveValue: Environment { shared } }
            extension DependencyValues {
                var environment: Environment {
                    get { self[EnvironmentKey.self] }
                    set { self[EnvironmentKey.self] = newValue }
                }
            }
            var World: Environment { @Dependency(\\.environment) var environment; return environment }
            struct Client { @Dependency(\\.environment) var world }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["false 300.0 true 300.0"], "\(r.printed) \(r.messages)")
    }

    /// An enum case whose name Lua cannot spell (`case rosé`) is kept under the field the code
    /// uses: pocket-casts's `ThemeType.rosé` was registered as `rosé` and read as `ros_`, nil, and
    /// its theme's `old.rawValue` crashed at launch.
    @Test func anEnumCaseOfANonASCIINameIsThere() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let store = ThemeStore()
            store.active = .rosé
            print(store.active.old.rawValue, store.active == ThemeType.rosé, ThemeType(rawValue: 3) == .rosé)
            """, others: """
            enum ThemeType: Int32 {
                case light = 0, rosé = 3
                enum Old: Int { case light = 10, rosé = 13 }
                var old: Old {
                    switch self {
                    case .light: return .light
                    case .rosé: return .rosé
                    }
                }
            }
            final class ThemeStore { var active: ThemeType = .light }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["13 true true"], "\(r.printed) \(r.messages)")
    }

    /// A collection's `lazy` is the collection (its operations are eager, with the same result):
    /// home-assistant's `providers.lazy.compactMap { $0(request) }.first` called `compactMap` on
    /// nil at launch.
    @Test func aLazyCollectionIsTheCollection() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let providers: [(Int) -> String?] = [{ _ in nil }, { "p\\($0)" }, { _ in "late" }]
            print(providers.lazy.compactMap { $0(7) }.first ?? "none", [1, 2, 3].lazy.map { $0 * 2 }.count)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["p7 3"], "\(r.printed) \(r.messages)")
    }

    /// `NSFileCoordinator.coordinate(...)` runs its accessor before it returns: cryptomator's
    /// `coordinate(writingItemAt:options:error:byAccessor:) { dbPool = ... }` then `dbPool!` found
    /// nil at launch (once `@Dependency` gave it its real database URL).
    @Test func aFileCoordinatorRunsItsAccessorAtOnce() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let coordinator = NSFileCoordinator(filePresenter: nil)
            var coordinatorError: NSError?
            var opened: String?
            coordinator.coordinate(writingItemAt: URL(fileURLWithPath: "/tmp/db"), options: .forMerging, error: &coordinatorError, byAccessor: { url in
                opened = "pool"
            })
            print(opened!)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed.first == "pool", "\(r.printed) \(r.messages)")
    }

    /// A value of the app's types called as a function runs its `callAsFunction`, also where the
    /// import cannot tell its type: home-assistant's environment holds a task runner typed by a
    /// protocol, and `Current.backgroundTask(withName:) { ... }` called the instance itself.
    @Test func aValueCalledAsAFunctionRunsCallAsFunction() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let env = Env()
            print(env.runner(withName: "cleanup") { $0 + "!" })
            """, others: """
            protocol TaskRunning { func callAsFunction(withName name: String, wrapping: (String) -> String) -> String }
            final class Runner: TaskRunning {
                func callAsFunction(withName name: String, wrapping: (String) -> String) -> String { wrapping(name) }
            }
            final class Env { var runner: TaskRunning = Runner() }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["cleanup!"], "\(r.printed) \(r.messages)")
    }

    /// A stub's value where the code expects one of the app's enums is its first case (a typed
    /// default): pocket-casts's `activeTheme = SettingsStore.appSettings.theme` (a member its macro
    /// declares, out of the import's sight) matched no case of `old`'s `switch`, and
    /// `activeTheme.old.rawValue` crashed at launch.
    @Test func aStubWhereAnEnumIsExpectedIsItsFirstCase() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let theme = Theme()
            print(theme.active.old.rawValue, theme.active == .light)
            """, others: """
            enum Kind: Int { case light = 0, dark = 1; var old: Int { switch self { case .light: return 10; case .dark: return 11 } } }
            struct OldBox { let rawValue: Int }
            final class Theme {
                var active: Kind
                init() { active = AppSettings.shared.theme }
            }
            extension Kind { var oldBox: OldBox { OldBox(rawValue: old) } }
            """).mapValues { $0.replacingOccurrences(of: "theme.active.old.rawValue", with: "theme.active.oldBox.rawValue") })
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["10 true"], "\(r.printed) \(r.messages)")
    }

    /// An enum's initializer that assigns `self = .case` makes that case: pocket-casts's
    /// `ThemeType(old:)` switched over the old value and assigned `self`, and the value it made
    /// was of no case (its `old.rawValue` crashed at launch).
    @Test func anEnumInitializerAssigningSelfMakesThatCase() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let kind = Kind(old: .legacyDark)
            print(kind == .dark, kind.rawValue, Kind(old: .legacyLight) == .light)
            """, others: """
            enum Kind: Int {
                case light = 0, dark = 1
                enum Old { case legacyLight, legacyDark }
                init(old: Old) {
                    switch old {
                    case .legacyLight: self = .light
                    case .legacyDark: self = .dark
                    }
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["true 1 true"], "\(r.printed) \(r.messages)")
    }

    /// A global written with a capital is kept when code reads it (it reads like a type name), and
    /// a property the translation reads that the slice left out widens the slice: home-assistant's
    /// `Current.apis.filter { ... }` (its `var Current: AppEnvironment`, read through
    /// `@Dependency`) found a nil `Current` or a nil `apis` at launch.
    @Test func aCapitalizedGlobalAndAPropertyReadAreKept() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            Manager().subscribe(["a", "b"])
            """, others: """
            import Dependencies
            final class Env {
                var servers = ["s1", "s2"]
                var apis: [String] { servers.compactMap { $0 == "s2" ? nil : "api-" + $0 } }
            }
            private let shared = Env()
            private enum EnvKey: DependencyKey { static var liveValue: Env { shared } }
            extension DependencyValues { var env: Env { get { self[EnvKey.self] } set { self[EnvKey.self] = newValue } } }
            public var Current: Env { @Dependency(\\.env) var env; return env }
            public var Defaults: Env { shared }
            final class Manager {
                var tokens: [String] = []
                func subscribe(_ definitions: [String]) {
                    tokens = definitions.flatMap { definition -> [String] in
                        Current.apis.filter { !$0.isEmpty }.map { definition + $0 }
                    }
                    print(tokens, Defaults.servers.count)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["[\"aapi-s1\", \"bapi-s1\"] 2"], "\(r.printed) \(r.messages)")
    }

    /// A delegate callback's name as a bare value in a subclass of an iOS class is the inherited
    /// view it is named after: pocket-casts's tab bar controller passed `tabBar` (its
    /// `tabBar(_:didSelect:)` callback, translated as a function) to `insertSubview(_:belowSubview:)`,
    /// the stub called it with nil, and the callback read `item.tag` of nil.
    @Test func aDelegateCallbacksNameIsTheInheritedView() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            Tabs().setUp()
            """, others: """
            final class Tabs: UITabBarController {
                func setUp() {
                    let mini = UIView()
                    view.insertSubview(mini, belowSubview: tabBar)
                    print("placed")
                }
                override func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem) { print("selected", item.tag) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["placed"], "\(r.printed) \(r.messages)")
    }

    /// `UUID(uuidString:)` is the UUID its string spells, so one stored as its string and read
    /// back is the same one (yattee kept its active preset's id in UserDefaults: each read made a
    /// new UUID, the preset was never found, and a notification loop ran to the instruction limit).
    @Test func aUUIDReadBackFromItsStringIsTheSame() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let id = UUID()
            UserDefaults.standard.set(id.uuidString, forKey: "active")
            let back = UUID(uuidString: UserDefaults.standard.string(forKey: "active")!)
            let fixed = UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!
            print(back == id, UUID(uuidString: "not a uuid") == nil, fixed.uuidString, fixed == UUID())
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["true true E621E1F8-C36C-495A-93FC-0C247A3E6E5F false"], "\(r.printed) \(r.messages)")
    }

    /// A member the iOS class an app class inherits declares, through an app superclass too, is
    /// what the app stored there, else a stub's value, never nil: mastodon's
    /// `avatarButton.centerXAnchor.constraint(...)` (`CircleAvatarButton: AvatarButton`,
    /// `AvatarButton: UIControl`) was a call on nil at launch.
    @Test func aMemberTheSDKBaseClassDeclaresIsAStub() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let button = RoundButton()
            button.accessibilityLabel = "avatar"
            let constraint = button.centerXAnchor.constraint(equalTo: button.centerXAnchor)
            print(constraint == nil, button.accessibilityLabel ?? "none", button.size)
            """, others: """
            final class RoundButton: CircleButton { var size = 25 }
            class CircleButton: UIButton { var radius = 2 }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["false avatar 25"], "\(r.printed) \(r.messages)")
    }

    /// `UIBackgroundFetchResult.newData` written out is the result `.newData` is: pocket-casts'
    /// `convertRefreshResult` returned it to the push's completion handler, an opaque value there
    /// (`push-bad-result` at every push).
    @Test func aFetchResultNamedWithItsTypeIsTheResult() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(convert(true) == .newData, convert(false) == .failed, convert(true) == .noData)
            """, members: """
            func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
                completionHandler(convert(true))
            }
            private func convert(_ ok: Bool) -> UIBackgroundFetchResult { ok ? UIBackgroundFetchResult.newData : UIBackgroundFetchResult.failed }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("push-bad-result") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["true true false"], "\(r.printed) \(r.messages)")
    }

    /// A fetch or push completion the app hands to code it does not define is called with a result
    /// iOS takes: element-ios passes its push's completion to its Objective-C delegate (a stub),
    /// which called it with an opaque value (`push-bad-result` at every push).
    @Test func aStubCallsAFetchCompletionWithAResult() throws {
        let r = try ImportHarness.run(ImportHarness.launching("", members: """
            let legacy = LegacyDelegate()
            func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
                legacy.application(application, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: completionHandler)
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.messages.contains { $0.contains("delivered in the background") }, "\(r.messages)")
        #expect(!r.codes.contains("push-bad-result") && !r.codes.contains("app-crash"), "\(r.codes) \(r.messages)")
    }
}
