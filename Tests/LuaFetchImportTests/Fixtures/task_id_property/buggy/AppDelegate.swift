import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    /// Keeps the app running while the outbox uploads after the user leaves.
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid
    private let outbox = PhotoOutbox.shared

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        outbox.restore()
        print("Launch: \(outbox.pendingCount) photos waiting in the outbox")
        return true
    }

    func applicationWillResignActive(_ application: UIApplication) {
        outbox.persist()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // Give the upload a chance to finish before iOS suspends us.
        backgroundTask = application.beginBackgroundTask(withName: "PhotoOutboxUpload") { [weak self] in
            print("Outbox upload ran out of background time")
            self?.endBackgroundTask()
        }
        outbox.uploadPending { [weak self] uploaded in
            print("Outbox upload finished: \(uploaded) photos sent")
            self?.endBackgroundTask()
        }
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        outbox.restore()
    }

    func applicationWillTerminate(_ application: UIApplication) {
        outbox.persist()
    }

    private func endBackgroundTask() {
        guard backgroundTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(backgroundTask)
        backgroundTask = .invalid
    }
}
