import UIKit
import Combine

enum FlushTrigger: String {
    case timer
    case background
    case terminate
}

/// Batches analytics events and sends them to the collector.
final class AnalyticsController {
    static let shared = AnalyticsController()
    static var flushInterval: TimeInterval = 60

    private let client = TelemetryClient(apiKey: "pk_live_3f9a", host: "https://collect.example-metrics.com")
    private lazy var suiteDefaults = UserDefaults(suiteName: "group.com.example.metrics")
    private var cancellables = Set<AnyCancellable>()
    private var flushTimer: Timer?
    private var pending: [String] = []
    private var flushTasks: [Int: UIBackgroundTaskIdentifier] = [:]
    private var flushCount = 0

    private init() {}

    func start() {
        pending = suiteDefaults?.stringArray(forKey: "analytics.unsent") ?? []
        let center = NotificationCenter.default
        center.publisher(for: UIApplication.didBecomeActiveNotification)
            .sink { [weak self] _ in self?.startTimer() }
            .store(in: &cancellables)
        center.publisher(for: UIApplication.willResignActiveNotification)
            .sink { [weak self] _ in self?.stopTimer() }
            .store(in: &cancellables)
        center.publisher(for: UIApplication.didEnterBackgroundNotification)
            .sink { [weak self] _ in self?.flush(trigger: .background) }
            .store(in: &cancellables)
        center.publisher(for: UIApplication.willTerminateNotification)
            .sink { [weak self] _ in self?.flush(trigger: .terminate) }
            .store(in: &cancellables)
    }

    func track(_ name: String) {
        pending.append("\(name)@\(Date().timeIntervalSince1970)")
    }

    private func startTimer() {
        flushTimer?.invalidate()
        flushTimer = Timer.scheduledTimer(withTimeInterval: AnalyticsController.flushInterval, repeats: true) { [weak self] _ in
            self?.flush(trigger: .timer)
        }
    }

    private func stopTimer() {
        flushTimer?.invalidate()
        flushTimer = nil
    }

    private func flush(trigger: FlushTrigger) {
        let batch = pending
        pending.removeAll()
        switch trigger {
        case .timer:
            client.send(events: batch) { [weak self] error in
                if error != nil {
                    self?.pending.append(contentsOf: batch)
                }
            }
        case .background:
            // Ask for time to send the batch instead of blocking the main thread.
            let flushID = beginFlushTask()
            client.send(events: batch) { [weak self] error in
                if let error = error {
                    print("Analytics flush (\(trigger.rawValue)) failed: \(error)")
                    self?.keepForLater(batch)
                }
                self?.endFlushTask(flushID)
            }
        case .terminate:
            // No time to send anything: keep the batch on disk for the next launch.
            keepForLater(batch)
        }
    }

    private func keepForLater(_ batch: [String]) {
        pending.append(contentsOf: batch)
        suiteDefaults?.set(pending, forKey: "analytics.unsent")
    }

    private func beginFlushTask() -> Int {
        flushCount += 1
        let flushID = flushCount
        flushTasks[flushID] = UIApplication.shared.beginBackgroundTask(withName: "AnalyticsFlush") { [weak self] in
            self?.endFlushTask(flushID)
        }
        return flushID
    }

    private func endFlushTask(_ flushID: Int) {
        guard let taskID = flushTasks.removeValue(forKey: flushID), taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
    }
}
