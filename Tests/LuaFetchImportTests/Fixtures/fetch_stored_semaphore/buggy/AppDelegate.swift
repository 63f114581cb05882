import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        application.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        return true
    }

    func application(_ application: UIApplication,
                     performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        DispatchQueue.global().async {
            let session = MailSession.shared
            // The session signals it when its connection is ready.
            session.readySignal = DispatchSemaphore(value: 0)
            session.connect()
            _ = session.readySignal?.wait(timeout: .now() + 60)
            MailClient.shared.fetchNewMessages { count in
                completionHandler(count > 0 ? .newData : .noData)
            }
        }
    }
}
