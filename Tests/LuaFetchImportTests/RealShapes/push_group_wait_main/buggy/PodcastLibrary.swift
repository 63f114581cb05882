import Foundation

final class PodcastLibrary {
    private let client = FeedClient(timeout: 10)
    private(set) var episodes: [String] = []

    func refreshFeeds(completion: @escaping (Int) -> Void) {
        client.fetchNewEpisodes(after: episodes.last) { [weak self] fresh in
            self?.episodes.append(contentsOf: fresh)
            completion(fresh.count)
        }
    }

    func refreshChapters(completion: @escaping () -> Void) {
        client.fetchChapterMarks(for: episodes.suffix(5).map { $0 }) { _ in
            completion()
        }
    }
}
