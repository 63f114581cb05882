import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var backgroundSessionCompletionHandler: (() -> Void)?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        PhotoUploader.shared.reconnect()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        PhotoUploader.shared.uploadPending()
    }

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        guard identifier == PhotoUploader.identifier else {
            completionHandler()
            return
        }
        backgroundSessionCompletionHandler = completionHandler
        PhotoUploader.shared.reconnect()
    }
}
