import BackgroundTasks

final class FeedSync {
    static let shared = FeedSync()

    func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.lantern.feed")
        try? BGTaskScheduler.shared.submit(request)
    }
}
