import SwiftUI

@main
struct SproutApp: App {
    @Environment(\.scenePhase) private var phase
    var body: some Scene {
        WindowGroup { Text("Sprout") }
            .onChange(of: phase) { newPhase in
                if newPhase == .background { print("watering later") }
            }
    }
}
