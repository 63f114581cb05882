// Findings on real apps' scenarios that were the importer's fault, not the app's (SPEC 18.9),
// continued from RealLaunchTestsC: each test is the Swift shape in our own words, and what the
// run of its day reports.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct RealLaunchTestsD {
    /// An app delegate that writes a journal entry as it leaves, with the journal's database made
    /// by `open` (Swift), and a widget's file in the app-group container written at launch.
    static func journalApp(open: String, save: String) -> [String: String] {
        ["AppDelegate.swift": """
        import UIKit

        @main
        class AppDelegate: UIResponder, UIApplicationDelegate {
            let journal = Journal()
            func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                WidgetShare.publish("launched")
                return true
            }
            func applicationDidEnterBackground(_ application: UIApplication) {
                journal.save("left", application: application)
            }
        }

        enum WidgetShare {
            static func publish(_ text: String) {
                guard let dir = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.example.journal") else { return }
                print("widget file at", dir.appendingPathComponent("latest.txt").path)
            }
        }

        final class Journal {
            let worker = DispatchQueue(label: "journal")
            \(open)
            func save(_ note: String, application: UIApplication) {
                \(save)
            }
        }
        """]
    }

    /// A GRDB pool opened in the app-group container.
    static let poolInTheAppGroup = """
        let pool: DatabasePool
        init() {
            let dir = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.example.journal")!
            pool = try! DatabasePool(path: dir.appendingPathComponent("journal.sqlite").path)
        }
        """

    /// Only a database opened in the app-group container holds its lock: pocket-casts keeps its
    /// FMDB queue in Application Support and its widget's files in the app group, and each of its
    /// database calls after a push's completion was a false `lock-held-at-suspension` (0xdead10cc).
    @Test func aDatabaseOutsideTheAppGroupHoldsNoContainerLock() throws {
        let r = try ImportHarness.run(Self.journalApp(open: """
            let pool: DatabasePool
            init() {
                let folder = NSSearchPathForDirectoriesInDomains(.applicationSupportDirectory, .userDomainMask, true)[0]
                pool = try! DatabasePool(path: folder + "/journal.sqlite")
            }
            """, save: """
            pool.asyncWrite({ db in
                try db.execute(sql: "INSERT INTO notes VALUES (?)", arguments: [note])
            }, completion: { _, result in print("saved") })
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.scenario.contains("[\"DatabasePool.asyncWrite\"] = { lock = \"ifSharedContainer\" "), "\(r.scenario.suffix(3000))")
        #expect(!r.codes.contains("lock-held-at-suspension"), "\(r.messages)")
        #expect(r.printed.contains { $0.hasPrefix("widget file at /AppGroup/") }, "\(r.printed)")
        #expect(r.printed.contains("saved"), "\(r.printed)")
    }

    /// A synchronous write holds the lock only while its closure runs: GRDB's `write { }` on the
    /// main thread, then the background task ended, leaves nothing held (its stub used to keep the
    /// lock for a drawn time after the call returned, so every such app was reported).
    @Test func aSynchronousWriteHoldsTheLockOnlyWhileItRuns() throws {
        let r = try ImportHarness.run(Self.journalApp(open: Self.poolInTheAppGroup, save: """
            let task = application.beginBackgroundTask(withName: "journal", expirationHandler: nil)
            try? pool.write { db in
                try db.execute(sql: "INSERT INTO notes VALUES (?)", arguments: [note])
            }
            application.endBackgroundTask(task)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.scenario.contains("[\"DatabasePool.write\"] = { lock = \"ifSharedContainer\" "), "\(r.scenario.suffix(3000))")
        #expect(!r.codes.contains("lock-held-at-suspension"), "\(r.messages)")
    }

    /// A synchronous write whose closure throws releases the lock as it leaves (a rolled-back
    /// write): the app that catches the error and ends its task is not reported.
    @Test func aThrowingSynchronousWriteReleasesTheLock() throws {
        let r = try ImportHarness.run(Self.journalApp(open: Self.poolInTheAppGroup, save: """
            let task = application.beginBackgroundTask(withName: "journal", expirationHandler: nil)
            do {
                try pool.write { db in
                    if note == "left" { throw JournalError.full }
                }
            } catch {
                print("not saved")
            }
            application.endBackgroundTask(task)
            """) .merging(["Errors.swift": "enum JournalError: Error { case full }"]) { a, _ in a })
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed.contains("not saved"), "\(r.printed)")
        #expect(!r.codes.contains("lock-held-at-suspension"), "\(r.messages)")
    }

    /// The true 0xdead10cc stays found: a database in the app-group container written
    /// asynchronously as the app leaves, with nothing keeping it running, is suspended with the
    /// write in flight.
    @Test func anAsynchronousWriteInTheAppGroupIsStillFound() throws {
        let r = try ImportHarness.run(Self.journalApp(open: Self.poolInTheAppGroup, save: """
            pool.asyncWrite({ db in
                try db.execute(sql: "INSERT INTO notes VALUES (?)", arguments: [note])
            }, completion: { _, result in print("saved") })
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.codes.contains("lock-held-at-suspension"), "\(r.messages)")
    }

    /// A window UIKit made from a storyboard has the storyboard's root view controller, never nil:
    /// NetNewsWire's `window!.rootViewController as! RootSplitViewController` was drawn nil under
    /// explore ("needs UIWindow.rootViewController to fail", a false crash). For a scene's storyboard
    /// and for an app delegate's main storyboard alike.
    @Test func aStoryboardWindowHasItsRootViewController() throws {
        var scene = ImportHarness.launching("print(\"launched\")")
        scene["SceneDelegate.swift"] = """
            import UIKit
            class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                var window: UIWindow?
                func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
                    let root = window!.rootViewController as! RootController
                    root.title = "feeds"
                    print("root made")
                }
            }
            class RootController: UISplitViewController {}
            """
        let delegate = ["AppDelegate.swift": """
            import UIKit
            @main
            class AppDelegate: UIResponder, UIApplicationDelegate {
                var window: UIWindow?
                func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    let root = window!.rootViewController as! RootController
                    root.title = "feeds"
                    print("root made")
                    return true
                }
            }
            class RootController: UINavigationController {}
            """]
        let mainPlist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>UIMainStoryboardFile</key><string>Main</string>
            <key>UIBackgroundModes</key><array><string>fetch</string></array>
            </dict></plist>
            """
        for (files, plist) in [(scene, ImportHarness.scenePlist(storyboard: "Main")), (delegate, mainPlist)] {
            for seed in Int64(1)...16 {
                let r = try ImportHarness.run(files, plist: plist, options: RunOptions(seed: seed, stubDraws: .explore, stubFailures: .every))
                #expect(r.error == nil, "\(r.error?.message ?? "")")
                #expect(!r.codes.contains("app-crash"), "seed \(seed): \(r.messages)")
                #expect(r.printed.contains("root made"), "seed \(seed): \(r.printed)")
            }
        }
    }

    /// `self.init(...)` with a struct's stored properties as labels, from an initializer an
    /// extension adds, is the memberwise initializer: pocket-casts's `init?(from resultSet:)`
    /// called itself until the watchdog killed the app at launch.
    @Test func anExtensionsInitializerCallsTheMemberwiseOne() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let mark = Mark(row: ["id": "m1", "title": "intro"])
            print(mark?.id ?? "-", mark?.title ?? "-", mark?.seconds ?? -1)
            """, others: """
            struct Mark: Hashable {
                let id: String
                let title: String
                var seconds: Double = 0
            }
            extension Mark {
                init?(row: [String: String]) {
                    guard let id = row["id"], let title = row["title"] else { return nil }
                    self.init(id: id, title: title)
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-hang") && !r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["m1 intro 0"], "\(r.printed)")
    }

    /// A remote command's or a control's target runs when its event comes, never at once: a stub of
    /// `addTarget` does not call its handler (pocket-casts skipped and stopped playback at launch).
    @Test func aTargetsHandlerIsNotCalledByItsStub() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let center = MPRemoteCommandCenter.shared()
            let machine = StateMachine<Int, Int>(state: 0)
            center.pauseCommand.addTarget { _ in
                print("paused")
                return .success
            }
            machine.addErrorHandler { context in fatalError("unexpected transition") }
            Router.global().addRoute("/episode/*") { parameters -> Bool in
                print("routed")
                return true
            }
            print("registered")
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["registered"], "\(r.printed)")
    }

    /// A static of a type the import cannot see is a constant: cryptomator's
    /// `CloudAccessSecrets.googleDriveRedirectURL!` (a generated secrets file left out of the
    /// repository) was drawn nil under explore, a false "needs ... to fail" crash at launch.
    @Test func aStaticOfAnUnseenTypeIsAConstant() throws {
        let files = ImportHarness.launching("""
            let url = Secrets.redirectURL!
            guard let key = Secrets.apiKey else { fatalError("no key") }
            print("configured", key == nil, url == nil)
            """)
        for seed in Int64(1)...24 {
            let r = try ImportHarness.run(files, options: RunOptions(seed: seed, stubDraws: .explore, stubFailures: .every))
            #expect(r.error == nil, "\(r.error?.message ?? "")")
            #expect(!r.codes.contains("app-crash"), "seed \(seed): \(r.messages)")
            #expect(r.printed == ["configured false false"], "seed \(seed): \(r.printed)")
        }
    }

    /// `Int(...)` of a stub's number stays an unknown number, not 0: deltachat's
    /// `dcAccounts.add() == 0` (an `Int(dc_accounts_add_account(pointer))`) took its own
    /// `fatalError("Could not initialize a new account.")` in most runs.
    @Test func anIntOfAStubsNumberIsNotZero() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let accounts = Accounts()
            if accounts.add() == 0 { fatalError("Could not initialize a new account.") }
            let share = Double(accounts_ratio(accounts.pointer))
            print("added", share == 0)
            """, others: """
            final class Accounts {
                let pointer = accounts_new()
                func add() -> Int { Int(accounts_add(pointer)) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["added false"], "\(r.printed)")
    }

    /// A HealthKit type by one of HealthKit's own identifiers is never nil (the signature table):
    /// Loop's `HKObjectType.categoryType(forIdentifier: .insulinDelivery)!` was drawn nil.
    @Test func aHealthKitTypeByItsIdentifierIsNeverNil() throws {
        let files = ImportHarness.launching("""
            let insulin = HKObjectType.categoryType(forIdentifier: .insulinDelivery)!
            let glucose = HKQuantityType.quantityType(forIdentifier: .bloodGlucose)!
            print("types", insulin == nil, glucose == nil)
            """)
        for seed in Int64(1)...24 {
            let r = try ImportHarness.run(files, options: RunOptions(seed: seed, stubDraws: .explore, stubFailures: .every))
            #expect(!r.codes.contains("app-crash"), "seed \(seed): \(r.messages)")
            #expect(r.printed == ["types false false"], "seed \(seed): \(r.printed)")
        }
    }

    /// A stub's error has no underlying error: code that walks `userInfo[NSUnderlyingErrorKey]`
    /// ends (duckduckgo's pixel parameters recursed over a failed call's error until the watchdog).
    @Test func aStubsErrorHasNoUnderlyingError() throws {
        let files = ImportHarness.launching("""
            do {
                try Store.open()
                print("opened")
            } catch {
                print("levels", Self.levels(error as NSError))
            }
            """, members: """
            static func levels(_ error: NSError, level: Int = 1) -> Int {
                if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return levels(underlying, level: level + 1) }
                return level
            }
            """)
        var failed = 0
        for seed in Int64(1)...24 {
            let r = try ImportHarness.run(files, options: RunOptions(seed: seed, stubDraws: .explore, stubFailures: .every))
            #expect(!r.codes.contains("app-hang") && !r.codes.contains("app-crash"), "seed \(seed): \(r.messages)")
            #expect(r.printed == ["opened"] || r.printed == ["levels 1"], "seed \(seed): \(r.printed)")
            if r.printed == ["levels 1"] { failed += 1 }
        }
        #expect(failed >= 3, "the open failed in \(failed) of 24 runs")
    }

    /// A forced property of an object the import cannot see is never drawn nil (ownCloud's
    /// `feature.localizedName!` of a feature it made with a name, `OCAppIdentity.shared.userDefaults!`:
    /// four false crashes); `if let` on one still takes both ways, and a forced call can still fail.
    @Test func aForcedPropertyOfAnUnseenObjectIsThere() throws {
        let files = ImportHarness.launching("""
            let feature = LicenseFeature(identifier: "scanner", name: "Scanner")
            let name = feature.localizedName!
            let defaults = AppIdentity.shared.userDefaults!
            if let subtitle = feature.subtitle { print("subtitle", subtitle == nil) } else { print("no subtitle") }
            print("named", name == nil, defaults == nil)
            """)
        var ways = Set<String>()
        for seed in Int64(1)...40 {
            let r = try ImportHarness.run(files, options: RunOptions(seed: seed, stubDraws: .explore, stubFailures: .every))
            #expect(!r.codes.contains("app-crash"), "seed \(seed): \(r.messages)")
            #expect(r.printed.last == "named false false", "seed \(seed): \(r.printed)")
            ways.formUnion(r.printed.prefix(1))
        }
        #expect(ways == ["subtitle false", "no subtitle"], "\(ways)")
    }

    /// A missed BGTask completion names the `return` in the `catch` that left the handler, not the
    /// `do {` line (the second walkthrough: a `catch { print(...); return }` was reported at `do`).
    @Test func aMissedCompletionNamesTheReturnInsideADoCatch() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                task.expirationHandler = { print("expired") }
                do {
                    try Feed.parse()
                } catch {
                    print("refresh failed")
                    return
                }
                task.setTaskCompleted(success: true)
            }
            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
            """, others: """
            enum FeedError: Error { case empty }
            enum Feed { static func parse() throws { throw FeedError.empty } }
            """), extra: "at(120, function() system.launchTask(\"com.example.refresh\") end)\n")
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        let v = try #require(r.world?.violations.first { $0.code.rawValue == "bgtask-no-completion" }, "\(r.codes)")
        #expect(v.location?.swift?.description == "AppDelegate.swift:13", "\(v.message) \(String(describing: v.location))")
    }

    /// A property the app's `extension Optional` adds, read on an optional property without `?`,
    /// is the extension's on the optional itself: element-x's `!userSession.isNil` indexed nil.
    @Test func anOptionalExtensionsPropertyReadsTheOptional() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let manager = Notifier()
            manager.check()
            manager.session = Session()
            manager.check()
            """, others: """
            protocol SessionProtocol { var name: String { get } }
            final class Session: SessionProtocol { let name = "main" }
            extension Optional { var isNil: Bool { self == nil } }
            final class Notifier {
                var session: SessionProtocol?
                func check() { print("no session", session.isNil) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(!r.codes.contains("app-crash"), "\(r.messages)")
        #expect(r.printed == ["no session true", "no session false"], "\(r.printed)")
    }
}
