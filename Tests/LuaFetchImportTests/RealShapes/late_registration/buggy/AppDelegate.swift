import UIKit
import BackgroundTasks

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    private var didRegister = false

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        Settings.migrateIfNeeded()
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        // Registered once the UI is up, so that the database is open first.
        if !didRegister {
            didRegister = true
            ArchiveMaintenance.register()
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        ArchiveMaintenance.schedule()
    }
}
