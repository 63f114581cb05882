import UIKit
import WidgetKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    private var sessionStartedAt: TimeInterval = 0

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        JournalDatabase.shared.open()
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        sessionStartedAt = Date().timeIntervalSince1970
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let duration = Date().timeIntervalSince1970 - sessionStartedAt
        let drafts = DraftInbox.shared.takeAll()
        JournalDatabase.shared.saveSession(duration: duration, drafts: drafts) { error in
            if let error = error {
                print("Saving the session failed: \(error)")
            } else {
                WidgetCenter.shared.reloadAllTimelines()
            }
        }
    }

    func applicationWillTerminate(_ application: UIApplication) {
        JournalDatabase.shared.interruptWrites()
    }
}
