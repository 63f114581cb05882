import UIKit
import BackgroundTasks
import os.log

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private let log = OSLog(subsystem: "com.example.pantry", category: "app")
    private lazy var coordinator = SyncCoordinator(store: PantryStore.shared)

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        os_log("launched, state %{public}@", log: log, type: .info, String(describing: application.applicationState))
        BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskID.refresh.rawValue, using: nil) { [weak self] task in
            guard let self = self, let refresh = task as? BGAppRefreshTask else {
                task.setTaskCompleted(success: false)
                return
            }
            self.coordinator.handle(refresh)
        }
        return true
    }

    func applicationWillResignActive(_ application: UIApplication) {
        PantryStore.shared.persist(reason: .resignActive)
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        coordinator.scheduleRefresh(after: .minutes(45))
        coordinator.flushInBackground(application)
    }

    func applicationWillTerminate(_ application: UIApplication) {
        PantryStore.shared.persist(reason: .terminate)
    }
}

enum TaskID: String, CaseIterable {
    case refresh = "com.example.pantry.refresh"
}
