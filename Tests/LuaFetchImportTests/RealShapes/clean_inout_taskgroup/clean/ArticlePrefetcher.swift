import Foundation

final class ArticlePrefetcher {
    private let feed = NewsFeedClient()
    private var current: Task<Int, Never>?

    func prefetchTopStories(limit: Int) async -> Int {
        let ids = Array((0..<limit).map { "story-\($0)" })
        let task = Task { () -> Int in
            await withTaskGroup(of: Bool.self) { group in
                for id in ids {
                    group.addTask { await self.feed.download(articleID: id) }
                }
                var done = 0
                for await ok in group where ok {
                    done += 1
                }
                return done
            }
        }
        current = task
        return await task.value
    }

    func cancel() {
        current?.cancel()
        current = nil
    }
}
