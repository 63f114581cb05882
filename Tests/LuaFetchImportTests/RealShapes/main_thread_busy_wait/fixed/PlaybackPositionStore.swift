import Foundation

final class PlaybackPositionStore {
    private(set) var isSynced = true
    private var positions: [String: Double] = [:]
    private let cloud = CloudKeyValueClient()

    func load() {
        positions = (UserDefaults.standard.dictionary(forKey: "positions") as? [String: Double]) ?? [:]
    }

    func syncPositions(completion: @escaping () -> Void) {
        isSynced = false
        cloud.push(positions) { [weak self] _ in
            self?.isSynced = true
            completion()
        }
    }
}
