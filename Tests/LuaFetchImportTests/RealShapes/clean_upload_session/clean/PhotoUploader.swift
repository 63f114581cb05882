import UIKit

final class PhotoUploader: NSObject, URLSessionDelegate, URLSessionTaskDelegate {
    static let shared = PhotoUploader()
    static let identifier = "com.example.snapshare.upload"

    private var session: URLSession!
    private var uploadsInFlight = Set<Int>()

    func reconnect() {
        guard session == nil else { return }
        let configuration = URLSessionConfiguration.background(withIdentifier: PhotoUploader.identifier)
        configuration.sessionSendsLaunchEvents = true
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func uploadPending() {
        reconnect()
        var request = URLRequest(url: URL(string: "https://upload.snapshare.example.com/v1/photos")!)
        request.httpMethod = "POST"
        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pending.jpg")
        let task = session.uploadTask(with: request, fromFile: file)
        uploadsInFlight.insert(task.taskIdentifier)
        task.resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        uploadsInFlight.remove(task.taskIdentifier)
        if let error = error {
            print("upload \(task.taskIdentifier) failed: \(error.localizedDescription)")
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            guard let appDelegate = UIApplication.shared.delegate as? AppDelegate,
                  let handler = appDelegate.backgroundSessionCompletionHandler else { return }
            appDelegate.backgroundSessionCompletionHandler = nil
            handler()
        }
    }
}
