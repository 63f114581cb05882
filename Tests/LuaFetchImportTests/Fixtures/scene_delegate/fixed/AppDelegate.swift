import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        DraftStore.shared.loadDrafts()
        return true
    }

    func application(_ application: UIApplication,
                     configurationForConnecting connectingSceneSession: UISceneSession,
                     options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        return UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // Keep the thumbnail cache small while we are not on screen.
        ThumbnailCache.shared.trim(toMegabytes: 50)
        UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "app.lastBackgroundedAt")
    }

    func applicationWillTerminate(_ application: UIApplication) {
        DraftStore.shared.stopAutosave()
    }
}
