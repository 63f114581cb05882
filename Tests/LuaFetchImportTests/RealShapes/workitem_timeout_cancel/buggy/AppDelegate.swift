import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    private var backgroundTask = UIBackgroundTaskIdentifier.invalid
    private var timeoutItem: DispatchWorkItem?
    private let uploader = ReceiptUploader()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard backgroundTask == .invalid else { return }
        backgroundTask = application.beginBackgroundTask(withName: "ReceiptUpload", expirationHandler: nil)

        // Give up after 20 s, well before iOS would kill us.
        let item = DispatchWorkItem { [weak self] in
            self?.uploader.cancel()
            self?.finishBackgroundTask()
        }
        timeoutItem = item
        DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(20), execute: item)

        uploader.uploadPending { [weak self] uploaded in
            print("uploaded \(uploaded) receipts")
            self?.timeoutItem?.cancel()
            self?.timeoutItem = nil
        }
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        finishBackgroundTask()
    }

    private func finishBackgroundTask() {
        guard backgroundTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(backgroundTask)
        backgroundTask = .invalid
    }
}
