import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    private var prefetchTask: UIBackgroundTaskIdentifier = .invalid
    private let prefetcher = ArticlePrefetcher()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        endTaskIfNeeded(&prefetchTask)
        prefetchTask = application.beginBackgroundTask(withName: "Prefetch") { [weak self] in
            guard let self else { return }
            self.prefetcher.cancel()
            endTaskIfNeeded(&self.prefetchTask)
        }
        Task { @MainActor in
            let count = await prefetcher.prefetchTopStories(limit: 5)
            print("prefetched \(count) stories")
            endTaskIfNeeded(&prefetchTask)
        }
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        prefetcher.cancel()
        endTaskIfNeeded(&prefetchTask)
    }
}

/// Ends a background task once: the identifier becomes `.invalid`.
func endTaskIfNeeded(_ id: inout UIBackgroundTaskIdentifier) {
    guard id != .invalid else { return }
    UIApplication.shared.endBackgroundTask(id)
    id = .invalid
}
