import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // Prefetch the next issue while the person is away.
        if let url = URL(string: "https://cdn.magazine.example.net/issues/next.pdf") {
            DownloadManager.shared.download(url)
        }
    }

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        DownloadManager.shared.completionHandlers[identifier] = completionHandler
        // Recreate the session so that it receives the events waiting for it.
        _ = DownloadManager.shared.session
    }
}
