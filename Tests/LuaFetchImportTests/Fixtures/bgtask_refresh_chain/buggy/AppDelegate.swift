import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    static let refreshTaskIdentifier = "com.example.reader.refresh"
    /// Ask for a refresh at most every 20 minutes.
    static let refreshInterval: TimeInterval = 20 * 60

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: AppDelegate.refreshTaskIdentifier,
                                        using: DispatchQueue.main) { task in
            self.handleAppRefresh(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleAppRefresh()
    }

    func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: AppDelegate.refreshTaskIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: AppDelegate.refreshInterval)
        do {
            try BGTaskScheduler.shared.submit(request)
            print("Scheduled the next feed refresh")
        } catch {
            print("Could not schedule the feed refresh: \(error)")
        }
    }

    private func handleAppRefresh(_ task: BGTask) {
        // Chain the next refresh first, whatever happens to this one.
        scheduleAppRefresh()

        let refresher = FeedRefresher()
        task.expirationHandler = {
            // Cancelling makes the refresher report failure, which completes the task below.
            refresher.cancel()
        }

        guard let account = AccountStore.shared.currentAccount else {
            print("Feed refresh skipped: nobody is signed in")
            return
        }

        refresher.start(account: account) { success in
            print("Feed refresh finished, success: \(success)")
            task.setTaskCompleted(success: success)
        }
    }
}
