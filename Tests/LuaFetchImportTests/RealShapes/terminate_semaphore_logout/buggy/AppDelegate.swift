import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    let session = SessionController()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        session.start()
        NotificationCenter.default.addObserver(self, selector: #selector(appWillTerminate(_:)), name: UIApplication.willTerminateNotification, object: nil)
        return true
    }

    @objc private func appWillTerminate(_ notification: Notification) {
        session.endSessionSynchronously()
    }
}
