import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // Reconnect to the download session so events from a previous process reach us.
        EpisodeDownloader.shared.activate()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // New episodes are fetched by the system while we are suspended.
        EpisodeDownloader.shared.downloadLatestEpisode()
    }

    func application(_ application: UIApplication,
                     handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        guard identifier == EpisodeDownloader.sessionIdentifier else {
            completionHandler()
            return
        }
        print("Woken for finished downloads in \(identifier)")
        // EpisodeDownloader calls it from urlSessionDidFinishEvents(forBackgroundURLSession:).
        EpisodeDownloader.shared.backgroundEventsCompletion = completionHandler
        EpisodeDownloader.shared.activate()
    }
}
