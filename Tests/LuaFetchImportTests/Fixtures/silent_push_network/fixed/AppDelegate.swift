import UIKit
import UserNotifications

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge]) { granted, _ in
            print("Notification permission granted: \(granted)")
        }
        application.registerForRemoteNotifications()
        InboxSyncService.shared.sync(reason: .launch) { _ in
            print("Launch sync done")
        }
        return true
    }

    func application(_ application: UIApplication,
                     didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        InboxSyncService.shared.registerDevice(token: deviceToken)
    }

    func application(_ application: UIApplication,
                     didFailToRegisterForRemoteNotificationsWithError error: Error) {
        print("Remote notifications unavailable: \(error.localizedDescription)")
    }

    /// Silent pushes ("content-available": 1) tell us the mailbox changed on the server.
    func application(_ application: UIApplication,
                     didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        let state = UIApplication.shared.applicationState == .active ? "foreground" : "background"
        print("Silent push received in the \(state)")
        InboxSyncService.shared.sync(reason: .silentPush, completion: completionHandler)
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        InboxSyncService.shared.sync(reason: .foreground) { _ in }
    }
}
