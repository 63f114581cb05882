import UIKit
import Combine

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    private var cancellables = Set<AnyCancellable>()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        LocationBatcher.shared.start()

        NotificationCenter.default.publisher(for: UIApplication.willEnterForegroundNotification)
            .receive(on: DispatchQueue.main)
            .sink { _ in LocationBatcher.shared.resume() }
            .store(in: &cancellables)
        return true
    }
}
