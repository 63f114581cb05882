import UIKit

/// Before the app is suspended, pushes contact edits and backs up new photos, in parallel.
final class BackupCoordinator {
    static let shared = BackupCoordinator()

    private let contacts = ContactsSyncClient(server: "https://sync.example-family.com")
    private let photos = PhotoBackupClient(bucket: "family-backups")
    private let stateQueue = DispatchQueue(label: "com.example.family.backup-state")
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid
    private var isCancelled = false
    private var failedJobs: [String] = []

    private init() {}

    func runBeforeSuspension() {
        guard backgroundTask == .invalid else {
            print("A backup is already running")
            return
        }
        isCancelled = false
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "FamilyBackup") { [weak self] in
            // Stop starting new uploads; the group's notify ends the task.
            self?.isCancelled = true
        }
        let taskID = backgroundTask
        let group = DispatchGroup()

        group.enter()
        DispatchQueue.global().async {
            self.contacts.pushPendingEdits { error in
                if let error = error {
                    print("Contacts sync failed: \(error)")
                    self.recordFailure("contacts")
                    return
                }
                print("Contacts synced")
                group.leave()
            }
        }

        group.enter()
        DispatchQueue.global(qos: .utility).async {
            if self.isCancelled {
                group.leave()
                return
            }
            self.photos.uploadNewAssets(limit: 25) { _, error in
                if error != nil {
                    self.recordFailure("photos")
                }
                group.leave()
            }
        }

        group.notify(queue: .main) {
            self.finish(taskID)
        }
    }

    private func recordFailure(_ job: String) {
        stateQueue.sync {
            failedJobs.append(job)
        }
    }

    private func finish(_ taskID: UIBackgroundTaskIdentifier) {
        stateQueue.sync {
            print("Backup finished, failed jobs: \(failedJobs)")
            failedJobs.removeAll()
        }
        UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "backup.lastRun")
        endBackgroundTask(taskID)
    }

    private func endBackgroundTask(_ taskID: UIBackgroundTaskIdentifier) {
        guard taskID != .invalid, taskID == backgroundTask else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        backgroundTask = .invalid
    }
}
