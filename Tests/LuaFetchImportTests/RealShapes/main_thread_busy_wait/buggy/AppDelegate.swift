import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    let player = PlaybackPositionStore()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        player.load()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        player.syncPositions()
        // Wait (up to 10 s) for the sync so that another device resumes at the right place.
        var waited = 0
        while !player.isSynced && waited < 10 {
            Thread.sleep(forTimeInterval: 1.0)
            waited += 1
        }
        print("positions synced: \(player.isSynced)")
    }
}
