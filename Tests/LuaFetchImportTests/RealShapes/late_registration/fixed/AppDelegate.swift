import UIKit
import BackgroundTasks

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        Settings.migrateIfNeeded()
        // Launch handlers must be registered before launching finishes.
        ArchiveMaintenance.register()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        ArchiveMaintenance.schedule()
    }
}
