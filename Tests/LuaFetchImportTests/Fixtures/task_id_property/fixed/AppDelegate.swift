import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    /// One background task per upload: a second trip Home must not lose the first one.
    private var backgroundTasks: [Int: UIBackgroundTaskIdentifier] = [:]
    private let outbox = PhotoOutbox.shared
    private var lastUploadID = 0

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
        lastUploadID += 1
        let uploadID = lastUploadID
        let task = application.beginBackgroundTask(withName: "PhotoOutboxUpload") { [weak self] in
            print("Outbox upload ran out of background time")
            self?.endBackgroundTask(uploadID)
        }
        if task != .invalid {
            backgroundTasks[uploadID] = task
        }
        outbox.uploadPending { [weak self] uploaded in
            print("Outbox upload finished: \(uploaded) photos sent")
            self?.endBackgroundTask(uploadID)
        }
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        outbox.restore()
    }

    func applicationWillTerminate(_ application: UIApplication) {
        outbox.persist()
    }

    private func endBackgroundTask(_ uploadID: Int) {
        guard let task = backgroundTasks.removeValue(forKey: uploadID) else { return }
        UIApplication.shared.endBackgroundTask(task)
    }
}
