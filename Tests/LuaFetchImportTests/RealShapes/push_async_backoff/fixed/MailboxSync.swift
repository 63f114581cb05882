import Foundation

final class MailboxSync {
    private let client = IMAPClient(host: "imap.mail.example.com", timeout: 8)
    private let maxAttempts = 3

    func sync(folder: String) async -> UIBackgroundFetchResult {
        var attempt = 0
        let started = Date()
        // A push gives the app 30 s: stop retrying well before that.
        while attempt < maxAttempts && Date().timeIntervalSince(started) < 15 {
            do {
                let count = try await client.fetchNewMessages(in: folder)
                return count > 0 ? .newData : .noData
            } catch {
                attempt += 1
                // Exponential backoff: 10 s, 20 s, 40 s.
                let delay = min(UInt64(pow(2.0, Double(attempt - 1)) * 2), 4)
                try? await Task.sleep(nanoseconds: delay * NSEC_PER_SEC)
            }
        }
        return .failed
    }
}
