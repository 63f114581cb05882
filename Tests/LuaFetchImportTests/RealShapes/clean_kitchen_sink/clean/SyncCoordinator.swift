import UIKit
import BackgroundTasks

enum Delay {
    case seconds(Double)
    case minutes(Int)

    var timeInterval: TimeInterval {
        switch self {
        case .seconds(let s): return s
        case .minutes(let m): return Double(m) * 60
        }
    }
}

protocol Syncing: AnyObject {
    func pull(completion: @escaping (Result<Int, Error>) -> Void)
}

extension Syncing {
    func pullIgnoringErrors(_ done: @escaping (Int) -> Void) {
        pull { result in
            if case .success(let n) = result { done(n) } else { done(0) }
        }
    }
}

final class SyncCoordinator {
    private let store: PantryStore
    private var flushTasks: [UUID: UIBackgroundTaskIdentifier] = [:]
    private let lock = NSLock()
    private let isolation = DispatchQueue(label: "pantry.sync.isolation", attributes: .concurrent)
    private var _lastPull: Date?

    var lastPull: Date? {
        get { isolation.sync { _lastPull } }
        set { isolation.async(flags: .barrier) { self._lastPull = newValue } }
    }

    init(store: PantryStore) {
        self.store = store
    }

    func scheduleRefresh(after delay: Delay) {
        let request = BGAppRefreshTaskRequest(identifier: TaskID.refresh.rawValue)
        request.earliestBeginDate = Date(timeIntervalSinceNow: delay.timeInterval)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch BGTaskScheduler.Error.notPermitted {
            print("refresh is not permitted")
        } catch {
            print("could not schedule: \(error.localizedDescription)")
        }
    }

    func handle(_ task: BGAppRefreshTask) {
        scheduleRefresh(after: .minutes(45))
        var completed = false
        let complete: (Bool) -> Void = { success in
            DispatchQueue.main.async {
                guard !completed else { return }
                completed = true
                task.setTaskCompleted(success: success)
            }
        }
        task.expirationHandler = { complete(false) }
        store.pullIgnoringErrors { [weak self] count in
            self?.lastPull = Date()
            complete(count >= 0)
        }
    }

    func flushInBackground(_ application: UIApplication) {
        let key = UUID()
        lock.lock()
        defer { lock.unlock() }
        let id = application.beginBackgroundTask(withName: "PantryFlush") { [weak self] in
            self?.endFlush(key)
        }
        guard id != .invalid else { return }
        flushTasks[key] = id
        store.flushPendingEdits(
            progress: { fraction in print("flush \(Int(fraction * 100)) %") },
            completion: { [weak self] in self?.endFlush(key) }
        )
    }

    private func endFlush(_ key: UUID) {
        lock.lock()
        let id = flushTasks.removeValue(forKey: key)
        lock.unlock()
        if let id = id {
            UIApplication.shared.endBackgroundTask(id)
        }
    }
}
