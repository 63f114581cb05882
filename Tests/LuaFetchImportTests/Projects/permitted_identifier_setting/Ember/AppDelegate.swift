import UIKit
import BackgroundTasks

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    // The identifier is built from the bundle's, as the Info.plist's is.
    let refreshID = (Bundle.main.bundleIdentifier ?? "unknown") + ".refresh"

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshID, using: nil) { task in
            print("refreshing for \(Bundle.main.object(forInfoDictionaryKey: "CFBundleName") as? String ?? "?")")
            task.setTaskCompleted(success: true)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGAppRefreshTaskRequest(identifier: refreshID)
        try? BGTaskScheduler.shared.submit(request)
    }
}
