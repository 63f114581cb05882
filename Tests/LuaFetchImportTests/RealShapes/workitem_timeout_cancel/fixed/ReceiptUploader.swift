import Foundation

final class ReceiptUploader {
    private var pending: [String] { UserDefaults.standard.stringArray(forKey: "pendingReceipts") ?? [] }
    private var cancelled = false
    private let client = ReceiptsClient()

    func uploadPending(completion: @escaping (Int) -> Void) {
        cancelled = false
        let receipts = pending
        client.upload(receipts) { [weak self] accepted in
            guard let self = self, !self.cancelled else { return }
            UserDefaults.standard.set([String](), forKey: "pendingReceipts")
            completion(accepted.count)
        }
    }

    func cancel() {
        cancelled = true
    }
}
