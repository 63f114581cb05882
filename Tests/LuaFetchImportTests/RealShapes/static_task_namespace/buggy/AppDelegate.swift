import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    private let journal = Journal()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func applicationWillResignActive(_ application: UIApplication) {
        // An incoming call or Home: write the open entry out.
        BackgroundWork.begin("SaveEntry")
        journal.saveOpenEntry {
            BackgroundWork.end()
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        BackgroundWork.begin("UploadEntries")
        journal.uploadPending { uploaded in
            print("uploaded \(uploaded) entries")
            BackgroundWork.end()
        }
    }
}

/// The app's one place for background time.
enum BackgroundWork {
    private static var taskID: UIBackgroundTaskIdentifier = .invalid

    static func begin(_ name: String) {
        taskID = UIApplication.shared.beginBackgroundTask(withName: name) {
            Self.end()
        }
    }

    static func end() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
