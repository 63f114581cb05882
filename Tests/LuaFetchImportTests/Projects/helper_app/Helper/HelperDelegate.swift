import UIKit
import BackgroundTasks

@main
class HelperDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.helper.pair", using: nil) { task in
            task.setTaskCompleted(success: true)
        }
        return true
    }
}
