import Foundation

struct StepSample: Codable {
    let from: TimeInterval
    let to: TimeInterval
    let steps: Int
}

/// What the pedometer counted since the last successful upload.
final class StepJournal {
    private let defaults = UserDefaults.standard
    private let uploadedUntilKey = "steps.uploadedUntil"
    private let pedometer = PedometerReader()
    private(set) var uploadedUntil: TimeInterval = 0

    func restore() {
        uploadedUntil = defaults.double(forKey: uploadedUntilKey)
    }

    func collectPendingSamples() async -> [StepSample] {
        let now = Date().timeIntervalSince1970
        do {
            let steps = try await pedometer.stepCount(from: uploadedUntil, to: now)
            return [StepSample(from: uploadedUntil, to: now, steps: steps)]
        } catch {
            print("Pedometer unavailable: \(error)")
            return []
        }
    }

    func markUploaded(_ samples: [StepSample]) {
        guard let last = samples.last else { return }
        uploadedUntil = last.to
        defaults.set(uploadedUntil, forKey: uploadedUntilKey)
    }
}
