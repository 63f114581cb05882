import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    private let journal = Journal()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func applicationWillResignActive(_ application: UIApplication) {
        // An incoming call or Home: write the open entry out.
        let id = BackgroundWork.begin("SaveEntry")
        journal.saveOpenEntry {
            BackgroundWork.end(id)
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let id = BackgroundWork.begin("UploadEntries")
        journal.uploadPending { uploaded in
            print("uploaded \(uploaded) entries")
            BackgroundWork.end(id)
        }
    }
}

/// The app's one place for background time: each piece of work ends its own task.
enum BackgroundWork {
    private static var open: [Int: UIBackgroundTaskIdentifier] = [:]
    private static var nextKey = 0

    @discardableResult
    static func begin(_ name: String) -> Int {
        nextKey += 1
        let key = nextKey
        open[key] = UIApplication.shared.beginBackgroundTask(withName: name) {
            Self.end(key)
        }
        return key
    }

    static func end(_ key: Int) {
        guard let id = open.removeValue(forKey: key), id != .invalid else { return }
        UIApplication.shared.endBackgroundTask(id)
    }
}
