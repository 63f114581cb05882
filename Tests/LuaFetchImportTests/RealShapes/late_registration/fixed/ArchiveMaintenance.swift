import Foundation
import BackgroundTasks

enum ArchiveMaintenance {
    static let identifier = "com.example.notes.archive"

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: DispatchQueue.global(qos: .background)) { task in
            run(task as! BGProcessingTask)
        }
    }

    static func schedule() {
        let request = BGProcessingTaskRequest(identifier: identifier)
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    private static func run(_ task: BGProcessingTask) {
        var stop = false
        task.expirationHandler = { stop = true }
        var compacted = 0
        while !stop && compacted < 10 {
            Thread.sleep(forTimeInterval: 1)
            compacted += 1
        }
        print("compacted \(compacted) notebooks")
        task.setTaskCompleted(success: !stop)
        schedule()
    }
}
