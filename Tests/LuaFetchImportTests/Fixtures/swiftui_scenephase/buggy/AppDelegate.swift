import UIKit

final class AppDelegate: NSObject, UIApplicationDelegate {

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        print("Notes launched with \(DraftCache.pendingDrafts().count) drafts waiting")
        return true
    }

    func applicationWillTerminate(_ application: UIApplication) {
        print("Notes is terminating")
    }
}
