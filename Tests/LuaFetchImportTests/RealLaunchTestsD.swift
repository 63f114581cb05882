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
}
