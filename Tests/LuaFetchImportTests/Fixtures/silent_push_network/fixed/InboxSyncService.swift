import UIKit

enum SyncReason: String {
    case launch
    case foreground
    case silentPush = "silent-push"
}

/// Talks to the mail backend through the vendor SDK and keeps the local inbox current.
final class InboxSyncService {
    static let shared = InboxSyncService()

    private let api = MailAPIClient(baseURL: "https://api.example-mail.com", timeout: 20)
    private let defaults = UserDefaults.standard
    private var syncCount = 0

    private init() {}

    func registerDevice(token: Data) {
        api.registerPushToken(token, success: { _ in
            print("Push token registered")
        }, failure: { error in
            print("Push token registration failed: \(error)")
        })
    }

    func sync(reason: SyncReason, completion: @escaping (UIBackgroundFetchResult) -> Void) {
        syncCount += 1
        let cursor = defaults.string(forKey: "inbox.cursor") ?? ""
        print("Inbox sync #\(syncCount) (\(reason.rawValue)) from cursor '\(cursor)'")
        api.fetchChanges(since: cursor, success: { [weak self] changes in
            self?.apply(changes)
            completion(changes.messages.isEmpty ? .noData : .newData)
        }, failure: { error in
            print("Inbox sync (\(reason.rawValue)) failed: \(error)")
            completion(.failed)
        })
    }

    private func apply(_ changes: MailChanges) {
        MessageStore.shared.insert(changes.messages)
        MessageStore.shared.delete(changes.deletedIDs)
        defaults.set(Date().timeIntervalSince1970, forKey: "inbox.lastSync")
    }
}
