import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        AnalyticsController.shared.start()
        AnalyticsController.shared.track("app_launch")
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        AnalyticsController.shared.track("app_active")
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        AnalyticsController.shared.track("app_background")
    }
}
