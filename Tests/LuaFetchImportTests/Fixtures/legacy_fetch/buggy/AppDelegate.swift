import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    private let keychain = KeychainSwift()
    private let loader = ForecastLoader()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        application.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        guard let token = keychain.get("forecast.authToken") else { return }
        loader.refresh(token: token) { outcome in
            print("Foreground refresh: \(outcome.rawValue)")
        }
    }

    // Legacy background fetch (still used by the iOS 12 build of the widget).
    func application(_ application: UIApplication,
                     performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let token = keychain.get("forecast.authToken") else {
            print("Background fetch skipped: not signed in")
            return
        }
        loader.refresh(token: token) { outcome in
            switch outcome {
            case .updated:
                completionHandler(.newData)
            case .unchanged:
                completionHandler(.noData)
            case .failed:
                completionHandler(.failed)
            }
        }
    }
}
