import BackgroundTasks

final class ExposureCheck {
    static let identifier = "com.example.exposure.check"

    private let scheduler: TaskScheduling
    private let client: ExposureClient

    init(scheduler: TaskScheduling, client: ExposureClient) {
        self.scheduler = scheduler
        self.client = client
    }

    func registerHandler() {
        scheduler.register(forTaskWithIdentifier: Self.identifier, using: .main) { [weak self] task in
            self?.run(task)
        }
    }

    func scheduleNext() {
        let request = BGProcessingTaskRequest(identifier: Self.identifier)
        request.requiresNetworkConnectivity = true
        request.earliestBeginDate = Date(timeIntervalSinceNow: 4 * 60 * 60)
        do {
            try scheduler.submit(request)
        } catch {
            print("could not schedule the exposure check: \(error)")
        }
    }

    func run(_ task: BackgroundTaskLike) {
        var finished = false
        func finish(_ success: Bool) {
            guard !finished else { return }
            finished = true
            task.setTaskCompleted(success: success)
        }
        let progress = client.downloadKeys { [weak self] result in
            switch result {
            case .success(let keys):
                print("matched against \(keys.count) keys")
                finish(true)
            case .failure(let error):
                print("key download failed: \(error)")
                finish(false)
            }
            self?.scheduleNext()
        }
        task.expirationHandler = {
            progress.cancel()
            finish(false)
        }
    }
}
