import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    /// The feed categories: one background refresh covers them all.
    static let feeds = ["top", "world", "sport", "tech", "science", "culture"]
    static let refreshIdentifier = "com.example.newsstand.refresh"

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: AppDelegate.refreshIdentifier,
                                        using: nil) { task in
            self.handleRefresh(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleRefresh()
    }

    /// iOS keeps one pending app-refresh request per app: submit one, for every category.
    func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: AppDelegate.refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule the feed refresh: \(error)")
        }
    }

    private func handleRefresh(_ task: BGTask) {
        scheduleRefresh()
        for feed in AppDelegate.feeds {
            FeedCache.shared.markStale(feed)
        }
        print("Marked every feed stale")
        task.setTaskCompleted(success: true)
    }
}
