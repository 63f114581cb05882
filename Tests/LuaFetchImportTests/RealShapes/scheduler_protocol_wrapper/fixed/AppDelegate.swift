import UIKit
import BackgroundTasks

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    private lazy var exposureCheck = ExposureCheck(scheduler: BGTaskScheduler.shared, client: ExposureClient())

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        exposureCheck.registerHandler()
        exposureCheck.scheduleNext()
        return true
    }
}
