import UIKit

/// A UIKit background task that is ended exactly once: by `end()`, or when its time runs out,
/// after `onExpiration` has had its chance to stop the work.
final class BackgroundActivity {
    private var identifier: UIBackgroundTaskIdentifier = .invalid

    init(name: String, onExpiration: @escaping () -> Void) {
        // Captures self strongly: UIKit releases the handler once the task has ended.
        identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
            print("\(name): out of background time")
            onExpiration()
            self.end()
        }
    }

    func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
    }
}
