import UIKit

struct Attachment: Codable, Hashable {
    let id: UUID
    let fileName: String
    var uploaded = false
}

final class AttachmentSync {
    static let shared = AttachmentSync()

    private let queue = DispatchQueue(label: "attachments.sync", attributes: .concurrent)
    private let storage = AttachmentStorage()
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private var queued: [Attachment] = [
        Attachment(id: UUID(), fileName: "scan-1.jpg"),
        Attachment(id: UUID(), fileName: "scan-2.jpg"),
        Attachment(id: UUID(), fileName: "voice-memo.m4a"),
    ]

    func uploadQueuedAttachments() {
        guard taskID == .invalid, !queued.isEmpty else { return }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "AttachmentUpload") {
            // notify() ends the task once every upload has reported.
            print("attachment upload is running out of time")
        }
        let group = DispatchGroup()
        var failures = 0
        for attachment in queued where !attachment.uploaded {
            group.enter()
            guard let data = storage.data(for: attachment.fileName) else {
                print("missing file \(attachment.fileName)")
                continue
            }
            queue.async {
                UploadClient.shared.put(data, name: attachment.fileName) { ok in
                    if !ok {
                        self.queue.async(flags: .barrier) { failures += 1 }
                    }
                    group.leave()
                }
            }
        }
        group.notify(queue: .main) { [weak self] in
            print("attachments uploaded, \(failures) failed")
            self?.endTask()
        }
    }

    private func endTask() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
