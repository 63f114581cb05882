import SwiftUI
import BackgroundTasks

@main
struct WeatherApp: App {
    @Environment(\.scenePhase) private var scenePhase
    @AppStorage("lastRefresh") private var lastRefresh: Double = 0
    private let refresher = ForecastRefresher()

    var body: some Scene {
        WindowGroup {
            ContentView()
        }
        .onChange(of: scenePhase) { newPhase in
            if newPhase == .background {
                scheduleRefresh()
            }
        }
        .backgroundTask(.appRefresh("com.example.weather.refresh")) {
            await scheduleRefresh()
            let ok = await refresher.refresh()
            if ok {
                await MainActor.run { lastRefresh = Date().timeIntervalSince1970 }
            }
        }
    }

    private func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.weather.refresh")
        request.earliestBeginDate = Date().addingTimeInterval(15 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }
}

struct ContentView: View {
    var body: some View {
        Text("Weather")
    }
}
