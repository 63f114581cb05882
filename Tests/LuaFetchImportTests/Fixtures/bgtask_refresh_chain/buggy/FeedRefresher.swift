import Foundation

/// One refresh of the reading list: fetches new articles for an account, at most once.
final class FeedRefresher {
    private let client = FeedClient(host: "https://feeds.example-reader.com")
    private let defaults = UserDefaults(suiteName: "group.com.example.reader")
    private var completion: ((Bool) -> Void)?
    private var isCancelled = false

    func start(account: Account, completion: @escaping (Bool) -> Void) {
        self.completion = completion
        let since = defaults?.double(forKey: "feed.lastRefresh") ?? 0
        client.fetchArticles(for: account.identifier, since: since) { [weak self] articles, error in
            if let error = error {
                print("Feed refresh failed: \(error)")
                self?.finish(success: false)
                return
            }
            print("Fetched \(articles.count) new articles")
            self?.defaults?.set(Date().timeIntervalSince1970, forKey: "feed.lastRefresh")
            self?.finish(success: true)
        }
    }

    func cancel() {
        isCancelled = true
        client.cancelAllRequests()
        finish(success: false)
    }

    /// Reports the outcome once: a late reply after `cancel()` is ignored.
    private func finish(success: Bool) {
        guard let completion = completion else { return }
        self.completion = nil
        completion(success && !isCancelled)
    }
}
