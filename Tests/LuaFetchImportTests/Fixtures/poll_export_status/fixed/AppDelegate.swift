import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?
    var exportTask: UIBackgroundTaskIdentifier = .invalid

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard exportTask == .invalid else { return }
        exportTask = application.beginBackgroundTask(withName: "export") {
            print("The export ran out of time; it resumes at the next launch")
            self.endExportTask()
        }
        DispatchQueue.global().async {
            let exporter = VideoExporter.shared
            exporter.start()
            var polls = 0
            // Poll every 8 s until the exporter says it is done.
            while !exporter.isFinished {
                Thread.sleep(forTimeInterval: 8)
                polls += 1
            }
            print("Export finished after \(polls) polls")
            DispatchQueue.main.async { self.endExportTask() }
        }
    }

    func endExportTask() {
        guard exportTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(exportTask)
        exportTask = .invalid
    }
}
