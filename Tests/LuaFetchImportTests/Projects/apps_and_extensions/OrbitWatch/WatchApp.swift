import SwiftUI
import WatchKit

@main
struct OrbitWatchApp: App {
    var body: some Scene {
        WindowGroup { Text("Orbit on the wrist") }
    }
}
