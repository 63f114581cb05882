import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    /// The feed categories; each one used to have its own background refresh.
    static let feeds = ["top", "world", "sport", "tech", "science", "culture"]

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        for feed in AppDelegate.feeds {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.newsstand.refresh.\(feed)",
                                            using: nil) { task in
                self.handleRefresh(task, feed: feed)
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleRefreshes()
    }

    /// One request per category, so that each refreshes on its own schedule.
    func scheduleRefreshes() {
        for feed in AppDelegate.feeds {
            let request = BGAppRefreshTaskRequest(identifier: "com.example.newsstand.refresh.\(feed)")
            request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
            do {
                try BGTaskScheduler.shared.submit(request)
            } catch {
                print("Could not schedule the \(feed) refresh: \(error)")
            }
        }
    }

    private func handleRefresh(_ task: BGTask, feed: String) {
        FeedCache.shared.markStale(feed)
        print("Marked the \(feed) feed stale")
        task.setTaskCompleted(success: true)
    }
}
