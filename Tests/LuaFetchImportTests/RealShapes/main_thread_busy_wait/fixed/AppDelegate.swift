import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    let player = PlaybackPositionStore()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        player.load()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // Keep running (not blocking the main thread) until the sync reports.
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = application.beginBackgroundTask(withName: "SyncPositions") {
            application.endBackgroundTask(taskID)
            taskID = .invalid
        }
        player.syncPositions {
            print("positions synced")
            if taskID != .invalid {
                application.endBackgroundTask(taskID)
                taskID = .invalid
            }
        }
    }
}
