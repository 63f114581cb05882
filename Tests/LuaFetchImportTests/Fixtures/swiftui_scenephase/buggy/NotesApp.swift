import SwiftUI

@main
struct NotesApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @Environment(\.scenePhase) private var scenePhase

    init() {
        UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "app.launchedAt")
    }

    var body: some Scene {
        WindowGroup {
            ContentView()
        }
        .onChange(of: scenePhase) { newPhase in
            switch newPhase {
            case .background:
                DraftUploader.shared.uploadInBackground()
            case .active:
                Task {
                    await DraftUploader.shared.refreshFromServer()
                }
            default:
                break
            }
        }
    }
}
