import Foundation

/// Photos the user shared while offline, waiting to be uploaded.
final class PhotoOutbox {
    static let shared = PhotoOutbox()

    private let storageKey = "outbox.pendingPhotoIDs"
    private let defaults = UserDefaults.standard
    private let client = PhotoSyncClient(endpoint: "https://upload.example-photos.com/v2", timeout: 25)
    private(set) var pending: [String] = []

    var pendingCount: Int {
        return pending.count
    }

    private init() {}

    func restore() {
        pending = defaults.stringArray(forKey: storageKey) ?? []
    }

    func persist() {
        defaults.set(pending, forKey: storageKey)
    }

    func add(_ localIdentifier: String) {
        guard !pending.contains(localIdentifier) else { return }
        pending.append(localIdentifier)
        persist()
    }

    /// Uploads everything queued so far; `completion` gets the number of photos sent.
    func uploadPending(completion: @escaping (Int) -> Void) {
        let batch = pending
        client.uploadPhotos(withIdentifiers: batch) { [weak self] error in
            if let error = error {
                print("Outbox: upload failed (\(error.localizedDescription)), will retry later")
                completion(0)
                return
            }
            self?.markUploaded(batch)
            completion(batch.count)
        }
    }

    private func markUploaded(_ uploaded: [String]) {
        pending = pending.filter { !uploaded.contains($0) }
        persist()
    }
}
