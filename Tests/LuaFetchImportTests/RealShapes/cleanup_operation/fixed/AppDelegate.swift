import UIKit
import BackgroundTasks

@UIApplicationMain
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private let cleanupIdentifier = "com.example.gallery.cleanup"
    private lazy var operationQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "gallery.cleanup"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey : Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: cleanupIdentifier, using: nil) { [unowned self] task in
            guard let processingTask = task as? BGProcessingTask else { return }
            self.handleCleanup(processingTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleCleanup()
    }

    private func scheduleCleanup() {
        let request = BGProcessingTaskRequest(identifier: cleanupIdentifier)
        request.requiresNetworkConnectivity = false
        request.requiresExternalPower = true
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch let error {
            print("BGTaskScheduler submit failed: \(error)")
        }
    }

    private func handleCleanup(_ task: BGProcessingTask) {
        let operation = ThumbnailCleanupOperation(maxAge: 7 * 24 * 3600)

        task.expirationHandler = { [weak operation] in
            // The completion block below completes the task once the operation stops.
            operation?.cancel()
        }

        operation.completionBlock = {
            task.setTaskCompleted(success: !operation.isCancelled)
        }

        operationQueue.addOperations([operation], waitUntilFinished: false)
    }
}
