import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    let engine = SyncEngine(client: RemoteStore())

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = application.beginBackgroundTask(withName: "PushLocalChanges") {
            print("background time is up")
            application.endBackgroundTask(taskID)
            taskID = .invalid
        }
        Task {
            defer {
                if taskID != .invalid {
                    application.endBackgroundTask(taskID)
                    taskID = .invalid
                }
            }
            guard await !engine.isSyncing else {
                print("a sync is already running")
                return
            }
            do {
                let pushed = try await engine.pushLocalChanges()
                print("pushed \(pushed) changes")
            } catch {
                print("push failed: \(error)")
            }
        }
    }
}
