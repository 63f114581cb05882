import Foundation

final class Journal {
    private let store = EntryStore(fileName: "journal.sqlite")
    private let sync = EntrySyncClient(timeout: 15)

    func saveOpenEntry(completion: @escaping () -> Void) {
        store.saveDraft { _ in completion() }
    }

    func uploadPending(completion: @escaping (Int) -> Void) {
        sync.uploadChanges(since: UserDefaults.standard.double(forKey: "lastUpload")) { count, error in
            if error == nil {
                UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "lastUpload")
            }
            completion(count)
        }
    }
}
