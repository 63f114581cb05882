import UIKit
import BackgroundTasks

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        RefreshScheduler.register()
        return true
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let kind = userInfo["kind"] as? String else {
            completionHandler(.noData)
            return
        }
        switch kind {
        case "goal":
            GoalStore.shared.reloadGoals { changed in
                completionHandler(changed ? .newData : .noData)
            }
        default:
            completionHandler(.noData)
        }
    }
}

enum RefreshScheduler {
    static let id = "com.example.steps.refresh"

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: id, using: nil) { task in
            guard let task = task as? BGAppRefreshTask else { return }
            let work = Task { @MainActor in
                await StepsModel.uploadDailyTotal()
            }
            task.expirationHandler = {
                work.cancel()
            }
            Task {
                await work.value
                task.setTaskCompleted(success: !work.isCancelled)
                submit()
            }
        }
    }

    static func submit() {
        let request = BGAppRefreshTaskRequest(identifier: id)
        request.earliestBeginDate = .now.addingTimeInterval(3 * 3600)
        do { try BGTaskScheduler.shared.submit(request) } catch { print(error) }
    }
}
