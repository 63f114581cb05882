import Foundation

final class DownloadManager: NSObject {
    static let shared = DownloadManager()
    static let sessionIdentifier = "com.example.magazine.downloads"

    var completionHandlers: [String: () -> Void] = [:]
    private var activeDownloads: [Int: URL] = [:]

    lazy var session: URLSession = {
        let config = URLSessionConfiguration.background(withIdentifier: DownloadManager.sessionIdentifier)
        config.isDiscretionary = false
        config.sessionSendsLaunchEvents = true
        return URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }()

    func download(_ url: URL) {
        let task = session.downloadTask(with: url)
        activeDownloads[task.taskIdentifier] = url
        task.resume()
    }
}

extension DownloadManager: URLSessionDownloadDelegate {
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let name = activeDownloads[downloadTask.taskIdentifier]?.lastPathComponent ?? "issue.pdf"
        IssueLibrary.moveDownloadedFile(from: location, named: name)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        activeDownloads[task.taskIdentifier] = nil
        if let error = error {
            print("download failed: \(error.localizedDescription)")
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let id = session.configuration.identifier else { return }
        DispatchQueue.main.async {
            self.completionHandlers.removeValue(forKey: id)?()
        }
    }
}
