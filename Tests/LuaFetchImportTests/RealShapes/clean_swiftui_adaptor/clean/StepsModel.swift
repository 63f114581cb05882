import Foundation
import Combine

@MainActor
final class StepsModel: ObservableObject {
    @Published var steps = 0
    @Published var lastSaved: Date?

    func reload() {
        steps = UserDefaults.standard.integer(forKey: "steps")
    }

    func saveSnapshot() {
        UserDefaults.standard.set(steps, forKey: "steps")
        lastSaved = Date()
    }

    func refreshFromHealth() async {
        steps = await HealthReader.shared.todaySteps()
    }

    static func uploadDailyTotal() async {
        let total = UserDefaults.standard.integer(forKey: "steps")
        do {
            try await StepsService.shared.upload(total: total)
        } catch is CancellationError {
            print("upload cancelled")
        } catch {
            print("upload failed: \(error)")
        }
    }
}
