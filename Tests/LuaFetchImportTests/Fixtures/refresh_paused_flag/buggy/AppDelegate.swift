import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    static let refreshIdentifier = "com.example.photos.upload"

    var window: UIWindow?
    let uploader = PhotoUploader.shared

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: AppDelegate.refreshIdentifier, using: nil) { task in
            self.handleUpload(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleUpload()
    }

    func scheduleUpload() {
        let request = BGAppRefreshTaskRequest(identifier: AppDelegate.refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule the upload: \(error)")
        }
    }

    private func handleUpload(_ task: BGTask) {
        scheduleUpload()
        if uploader.isPaused {
            // The person paused uploads in Settings: nothing to do.
            task.setTaskCompleted(success: true)
            return
        }
        task.expirationHandler = {
            self.uploader.cancelAll()
            task.setTaskCompleted(success: false)
        }
        uploader.uploadPending { uploaded in
            print("Uploaded \(uploaded) photos")
            task.setTaskCompleted(success: true)
        }
    }
}
