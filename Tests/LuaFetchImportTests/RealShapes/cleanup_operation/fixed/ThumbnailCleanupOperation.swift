import Foundation

/// Deletes old thumbnails in batches, checking for cancellation between batches.
final class ThumbnailCleanupOperation: Operation {
    let maxAge: TimeInterval
    private(set) var removedCount = 0

    init(maxAge: TimeInterval) {
        self.maxAge = maxAge
        super.init()
    }

    override func main() {
        guard !isCancelled else { return }
        let cutoff = Date().addingTimeInterval(-maxAge)
        for batch in 0..<40 {
            if isCancelled {
                print("cleanup cancelled after \(batch) batches")
                return
            }
            // Each batch walks a folder of the cache and deletes what is older than the cutoff.
            Thread.sleep(forTimeInterval: 0.5)
            removedCount += ThumbnailStore.removeFiles(olderThan: cutoff, batch: batch)
        }
    }
}
