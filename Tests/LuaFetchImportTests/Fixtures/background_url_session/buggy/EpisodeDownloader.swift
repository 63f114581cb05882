import Foundation

/// Downloads podcast episodes in a background URL session, so they finish while we are suspended.
final class EpisodeDownloader: NSObject, URLSessionDownloadDelegate {
    static let shared = EpisodeDownloader()
    static let sessionIdentifier = "com.example.podcasts.episode-downloads"

    /// Called once the session has delivered all of its events after a background wake.
    var backgroundEventsCompletion: (() -> Void)?

    private var session: URLSession?
    private let latestEpisodeURL = "https://media.example-podcasts.com/feeds/daily/latest.mp3"

    func activate() {
        guard session == nil else { return }
        let configuration = URLSessionConfiguration.background(withIdentifier: EpisodeDownloader.sessionIdentifier)
        configuration.sessionSendsLaunchEvents = true
        configuration.isDiscretionary = false
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func downloadLatestEpisode() {
        activate()
        guard let url = URL(string: latestEpisodeURL) else { return }
        let task = session?.downloadTask(with: url)
        task?.resume()
        print("Queued a download of the latest episode")
    }

    // MARK: URLSessionDownloadDelegate

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask,
                    didFinishDownloadingTo location: URL) {
        EpisodeLibrary.shared.importDownloadedFile(at: location)
        UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "episodes.lastDownload")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error = error {
            print("Episode download failed: \(error.localizedDescription)")
        } else {
            print("Episode download complete")
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        // UIKit wants the handler called on the main queue.
        DispatchQueue.main.async {
            let completion = self.backgroundEventsCompletion
            self.backgroundEventsCompletion = nil
            completion?()
        }
    }
}
