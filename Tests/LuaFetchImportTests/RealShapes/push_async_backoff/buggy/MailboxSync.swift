import Foundation

final class MailboxSync {
    private let client = IMAPClient(host: "imap.mail.example.com", timeout: 8)
    private let maxAttempts = 3

    func sync(folder: String) async -> UIBackgroundFetchResult {
        var attempt = 0
        while attempt < maxAttempts {
            do {
                let count = try await client.fetchNewMessages(in: folder)
                return count > 0 ? .newData : .noData
            } catch {
                attempt += 1
                // Exponential backoff: 10 s, 20 s, 40 s.
                let delay = UInt64(pow(2.0, Double(attempt - 1)) * 10)
                try? await Task.sleep(nanoseconds: delay * NSEC_PER_SEC)
            }
        }
        return .failed
    }
}
