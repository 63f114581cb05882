import Foundation
import BackgroundTasks
import os

final class RefreshService {
    static let shared = RefreshService()
    static let taskIdentifier = "com.example.headlines.refresh"

    private let logger = Logger(subsystem: Bundle.main.bundleIdentifier ?? "headlines", category: "refresh")
    private let api = HeadlinesAPI(baseURL: URL(string: "https://api.headlines.example.com")!)
    private var currentTask: Task<Void, Never>?

    private init() {}

    func registerTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.taskIdentifier, using: nil) { task in
            self.handleRefresh(task: task as! BGAppRefreshTask)
        }
    }

    func scheduleNextRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.taskIdentifier)
        request.earliestBeginDate = Calendar.current.date(byAdding: .minute, value: 30, to: Date())
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            logger.error("could not schedule refresh: \(error.localizedDescription)")
        }
    }

    private func handleRefresh(task: BGAppRefreshTask) {
        scheduleNextRefresh()

        task.expirationHandler = { [weak self] in
            self?.currentTask?.cancel()
        }

        currentTask = Task {
            do {
                let headlines = try await api.latestHeadlines(limit: 50)
                HeadlineCache.shared.store(headlines)
                logger.info("refreshed \(headlines.count) headlines")
                task.setTaskCompleted(success: true)
            } catch {
                // The cancellation from the expiration handler lands here too.
                logger.error("refresh failed: \(error.localizedDescription)")
            }
        }
    }
}
