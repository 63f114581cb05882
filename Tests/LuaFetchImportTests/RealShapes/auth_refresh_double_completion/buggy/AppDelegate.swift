import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        application.setMinimumBackgroundFetchInterval(3600)
        return true
    }
}

extension AppDelegate {
    func application(_ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        AuthManager.shared.withValidToken { result in
            guard case .success(let token) = result else {
                completionHandler(.failed)
                return
            }
            BalanceService(token: token).refresh { changed in
                completionHandler(changed ? .newData : .noData)
            }
        }
    }
}
