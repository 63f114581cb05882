import SwiftUI
import BackgroundTasks
import HarborCore

@main
struct HarborApp: App {
    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.Harbor.sync", using: nil) { task in
            Dock().sync()
            task.setTaskCompleted(success: true)
        }
    }
    var body: some Scene {
        WindowGroup { Text("Harbor") }
    }
}
