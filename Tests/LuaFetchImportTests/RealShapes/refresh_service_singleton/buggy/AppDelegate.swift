import UIKit
import BackgroundTasks
import os

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        RefreshService.shared.registerTasks()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        RefreshService.shared.scheduleNextRefresh()
    }
}
