import UIKit
import os.log

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?

    private let api = StepsAPI(baseURL: "https://api.example-steps.com", timeout: 20)
    private let journal = StepJournal()
    /// Background tasks currently open, one per upload.
    private var backgroundTasks: Set<UIBackgroundTaskIdentifier> = []

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        journal.restore()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let taskID = UIApplication.shared.beginBackgroundTask(withName: "StepUpload") {
            os_log("Step upload: background time expired")
        }
        if taskID != .invalid {
            backgroundTasks.insert(taskID)
        }
        Task {
            let samples = await journal.collectPendingSamples()
            do {
                try await api.upload(samples: samples)
                journal.markUploaded(samples)
                print("Uploaded \(samples.count) step samples")
                endBackgroundTask(taskID)
            } catch {
                print("Step upload failed: \(error.localizedDescription)")
            }
        }
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        Task {
            let samples = await journal.collectPendingSamples()
            print("\(samples.count) step samples waiting for upload")
        }
    }

    private func endBackgroundTask(_ taskID: UIBackgroundTaskIdentifier) {
        guard backgroundTasks.contains(taskID) else { return }
        backgroundTasks.remove(taskID)
        UIApplication.shared.endBackgroundTask(taskID)
    }
}
