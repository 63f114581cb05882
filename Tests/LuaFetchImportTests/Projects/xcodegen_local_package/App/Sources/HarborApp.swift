import SwiftUI
import BackgroundTasks
import HarborCore

@main
struct HarborApp: App {
    init() {
        #if HARBOR_RELEASE
        print("release build")
        #else
        print("some other build")
        #endif
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.Harbor.sync", using: nil) { task in
            Dock().sync()
            task.setTaskCompleted(success: true)
        }
    }
    var body: some Scene {
        WindowGroup { Text("Harbor") }
    }
}
