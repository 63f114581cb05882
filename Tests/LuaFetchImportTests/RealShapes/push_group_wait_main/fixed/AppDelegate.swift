import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    let podcasts = PodcastLibrary()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        let group = DispatchGroup()
        var newEpisodes = 0

        group.enter()
        podcasts.refreshFeeds { count in
            newEpisodes += count
            group.leave()
        }

        group.enter()
        podcasts.refreshChapters {
            group.leave()
        }

        // Answer when both refreshes reported, without blocking the main thread.
        group.notify(queue: .main) {
            completionHandler(newEpisodes > 0 ? .newData : .noData)
        }
    }
}
