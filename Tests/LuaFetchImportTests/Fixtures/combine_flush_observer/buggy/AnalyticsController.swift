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
        case .background, .terminate:
            // We are about to be suspended: wait until the batch is out.
            let sent = DispatchSemaphore(value: 0)
            client.send(events: batch) { error in
                if let error = error {
                    print("Analytics flush (\(trigger.rawValue)) failed: \(error)")
                }
                sent.signal()
            }
            sent.wait()
        }
    }
}
