import Foundation
import BackgroundTasks

enum IndexStatus: String {
    case idle
    case scheduled
    case running
    case finished
}

/// Rebuilds the on-device search index of the photo library overnight, while the phone charges.
final class LibraryIndexer {
    private(set) var status: IndexStatus = .idle
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "com.example.gallery.indexer"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()

    func scheduleReindex() {
        let request = BGProcessingTaskRequest(identifier: AppDelegate.reindexTaskIdentifier)
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = false
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
            status = .scheduled
        } catch {
            print("Could not schedule the reindex: \(error)")
        }
    }

    func handleReindex(_ task: BGTask) {
        status = .running
        let operation = BlockOperation {
            // The index API is asynchronous; wait for it so the operation ends with the work.
            let done = DispatchSemaphore(value: 0)
            PhotoSearchIndex.shared.rebuild(batchSize: 500) { error in
                if let error = error {
                    print("Reindex failed: \(error)")
                }
                done.signal()
            }
            done.wait()
        }

        let completion = TaskCompletion(task)
        task.expirationHandler = { [queue] in
            // A running operation does not stop when cancelled: complete the task now.
            queue.cancelAllOperations()
            completion.complete(success: false)
        }

        operation.completionBlock = { [weak self, unowned operation] in
            let success = !operation.isCancelled
            self?.status = .finished
            completion.complete(success: success)
        }
        queue.addOperation(operation)
    }
}

/// Calls setTaskCompleted exactly once, whichever of expiration and the operation comes first.
final class TaskCompletion {
    private let task: BGTask
    private let lock = NSLock()
    private var isCompleted = false

    init(_ task: BGTask) {
        self.task = task
    }

    func complete(success: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard !isCompleted else { return }
        isCompleted = true
        task.setTaskCompleted(success: success)
    }
}
