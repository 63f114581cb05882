import SwiftUI
import BackgroundTasks

@main
struct StepsApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @Environment(\.scenePhase) private var scenePhase
    @StateObject private var model = StepsModel()

    var body: some Scene {
        WindowGroup {
            DashboardView()
                .environmentObject(model)
        }
        .onChange(of: scenePhase) { oldPhase, newPhase in
            switch (oldPhase, newPhase) {
            case (_, .background):
                model.saveSnapshot()
                RefreshScheduler.submit()
            case (.background, .active), (.inactive, .active):
                model.reload()
            default:
                break
            }
        }
    }
}

struct DashboardView: View {
    @EnvironmentObject var model: StepsModel

    var body: some View {
        VStack {
            Text("\(model.steps) steps")
        }
        .task { await model.refreshFromHealth() }
    }
}
