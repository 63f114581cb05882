import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    static let reindexTaskIdentifier = "com.example.gallery.reindex"

    var window: UIWindow?
    private let indexer = LibraryIndexer()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: AppDelegate.reindexTaskIdentifier,
                                        using: nil) { [indexer] task in
            indexer.handleReindex(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        indexer.scheduleReindex()
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        print("Search index: \(indexer.status.rawValue)")
    }
}
