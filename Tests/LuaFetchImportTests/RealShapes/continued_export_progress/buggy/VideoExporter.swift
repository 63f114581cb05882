import Foundation
import BackgroundTasks

final class VideoExporter {
    static let shared = VideoExporter()
    static let identifierPrefix = "com.example.clips.export"

    private let workQueue = DispatchQueue(label: "clips.export")
    private var queued = ["trip.mov", "birthday.mov", "concert.mov", "hike.mov", "beach.mov", "dinner.mov", "run.mov", "dog.mov"]
    private var isExporting = false

    func registerHandler() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "\(Self.identifierPrefix).*", using: nil) { [weak self] task in
            guard let self, let task = task as? BGContinuedProcessingTask else { return }
            self.run(task)
        }
    }

    func exportQueuedClips() {
        guard !isExporting, !queued.isEmpty else { return }
        let request = BGContinuedProcessingTaskRequest(identifier: "\(Self.identifierPrefix).batch",
                                                       title: "Exporting clips",
                                                       subtitle: "\(queued.count) clips")
        request.strategy = .fail
        do {
            try BGTaskScheduler.shared.submit(request)
            isExporting = true
        } catch {
            print("export could not start: \(error)")
        }
    }

    private func run(_ task: BGContinuedProcessingTask) {
        var cancelled = false
        task.expirationHandler = {
            cancelled = true
        }
        let clips = queued
        task.progress.totalUnitCount = Int64(clips.count)
        workQueue.async {
            for clip in clips {
                if cancelled {
                    print("export cancelled before \(clip)")
                    return
                }
                // Transcoding one clip takes about ten seconds, in one-second slices.
                for _ in 0..<10 where !cancelled {
                    Thread.sleep(forTimeInterval: 1)
                }
            }
            task.progress.completedUnitCount = Int64(clips.count)
            task.setTaskCompleted(success: true)
        }
    }
}
