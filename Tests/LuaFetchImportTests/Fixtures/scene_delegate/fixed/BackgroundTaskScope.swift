import UIKit

/// A UIKit background task that is ended exactly once: by `end()`, or when its time runs out.
final class BackgroundTaskScope {
    private let name: String
    private var identifier: UIBackgroundTaskIdentifier = .invalid

    init(name: String) {
        self.name = name
        // Captures self strongly: UIKit releases the handler once the task has ended.
        identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
            print("\(name): background time is up, ending the task")
            self.end()
        }
    }

    func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
        print("\(name): background task ended")
    }
}
