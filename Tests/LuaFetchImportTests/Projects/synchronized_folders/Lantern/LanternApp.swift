import SwiftUI
import BackgroundTasks

@main
struct LanternApp: App {
    init() {
        FeedSync.shared.schedule()
    }
    var body: some Scene {
        WindowGroup { Text("Lantern").foregroundColor(Palette.accent) }
    }
}
