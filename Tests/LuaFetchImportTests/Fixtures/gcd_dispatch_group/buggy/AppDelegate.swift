import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        print("Family Backup launched; last backup: \(lastBackupDescription())")
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        // Let the first screen settle before nagging about backups.
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) { [weak self] in
            self?.remindIfBackupIsOld()
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        BackupCoordinator.shared.runBeforeSuspension()
    }

    private func remindIfBackupIsOld() {
        if UserDefaults.standard.object(forKey: "backup.lastRun") == nil {
            print("Reminder: this device has never been backed up")
        }
    }

    private func lastBackupDescription() -> String {
        guard let lastRun = UserDefaults.standard.object(forKey: "backup.lastRun") else { return "never" }
        return "at \(lastRun)"
    }
}
