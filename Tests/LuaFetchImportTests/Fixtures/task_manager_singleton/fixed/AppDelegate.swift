import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    private let tasks = BackgroundTaskManager.shared
    private var syncTimer: Timer?
    static let lastSyncKey = "sync.lastFinishedAt"

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        SyncEngine.shared.configure(containerIdentifier: "iCloud.com.example.habits")
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        syncTimer?.invalidate()
        syncTimer = Timer.scheduledTimer(withTimeInterval: 300, repeats: true) { [weak self] _ in
            self?.syncInForeground()
        }
    }

    func applicationWillResignActive(_ application: UIApplication) {
        syncTimer?.invalidate()
        syncTimer = nil
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        // Back in the foreground: the sync needs no background time any more.
        tasks.end("sync")
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // The manager refuses a second "sync" while the first one is still running.
        guard tasks.begin("sync") else { return }
        SyncEngine.shared.pushLocalChanges { [weak self] changed, error in
            if let error = error {
                print("Background sync failed: \(error)")
            } else {
                print("Background sync pushed \(changed) changes")
                UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: AppDelegate.lastSyncKey)
            }
            self?.tasks.end("sync")
        }
    }

    func applicationWillTerminate(_ application: UIApplication) {
        syncTimer?.invalidate()
        SyncEngine.shared.saveJournal()
    }

    private func syncInForeground() {
        guard !tasks.isRunning("sync") else { return }
        SyncEngine.shared.pushLocalChanges { _, error in
            if error == nil {
                UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: AppDelegate.lastSyncKey)
            }
        }
    }
}
