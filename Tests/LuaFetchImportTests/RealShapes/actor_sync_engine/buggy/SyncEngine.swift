import Foundation

enum SyncError: Error {
    case offline
    case conflict(recordID: String)
}

actor SyncEngine {
    private let client: RemoteStore
    private(set) var isSyncing = false
    private var lastSync: Date?

    init(client: RemoteStore) {
        self.client = client
    }

    func pushLocalChanges() async throws -> Int {
        isSyncing = true
        defer { isSyncing = false }
        let changes = try await client.pendingChanges()
        guard !changes.isEmpty else {
            lastSync = Date()
            return 0
        }
        async let uploaded = client.upload(changes)
        async let cleared = client.clearTombstones()
        let (count, _) = try await (uploaded, cleared)
        lastSync = Date()
        return count
    }
}
