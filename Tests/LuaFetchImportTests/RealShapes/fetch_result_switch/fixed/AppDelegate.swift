import UIKit

@UIApplicationMain
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    let feedStore = FeedStore()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        UIApplication.shared.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        return true
    }

    func application(_ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        let started = Date()
        feedStore.refreshSubscriptions { result in
            let elapsed = Date().timeIntervalSince(started)
            switch result {
            case .success(let newItems):
                print(String(format: "fetched %d items in %.1f s", newItems.count, elapsed))
                completionHandler(newItems.isEmpty ? .noData : .newData)
            case .failure(FeedError.notModified):
                completionHandler(.noData)
            case .failure(let error):
                print("background fetch failed: \(error)")
                completionHandler(.failed)
            }
        }
    }
}
