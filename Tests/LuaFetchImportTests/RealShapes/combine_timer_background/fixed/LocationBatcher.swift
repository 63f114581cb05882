import Foundation
import Combine
import UIKit

/// Collects location samples and uploads them every minute.
final class LocationBatcher: ObservableObject {
    static let shared = LocationBatcher()

    @Published private(set) var pending: [String] = []
    private var uploadTimer: Timer?
    private let workQueue = DispatchQueue(label: "com.example.trails.batcher", qos: .utility)
    private var subscriptions = Set<AnyCancellable>()

    func start() {
        $pending
            .map { $0.count }
            .removeDuplicates()
            .sink { count in print("pending samples: \(count)") }
            .store(in: &subscriptions)

        NotificationCenter.default.publisher(for: UIApplication.didEnterBackgroundNotification)
            .sink { [weak self] _ in self?.pause() }
            .store(in: &subscriptions)
        resume()
    }

    func resume() {
        // A scheduled timer needs a run loop that runs: the main one.
        DispatchQueue.main.async { [weak self] in
            guard let self = self else { return }
            self.uploadTimer?.invalidate()
            self.uploadTimer = Timer.scheduledTimer(withTimeInterval: 60, repeats: true) { [weak self] _ in
                self?.flush()
            }
        }
    }

    func pause() {
        uploadTimer?.invalidate()
        uploadTimer = nil
    }

    private func flush() {
        let batch = pending
        pending.removeAll()
        TrailsAPI.shared.upload(samples: batch) { error in
            if let error = error { print("upload failed: \(error)") }
        }
    }
}
