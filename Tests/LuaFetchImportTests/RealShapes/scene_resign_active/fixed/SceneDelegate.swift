import UIKit

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    private var saveTask: UIBackgroundTaskIdentifier = .invalid
    private let editor = EditorSession.shared

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let _ = (scene as? UIWindowScene) else { return }
        editor.restore()
    }

    func sceneDidBecomeActive(_ scene: UIScene) {
        endSaveTask()
    }

    private func endSaveTask() {
        if saveTask != .invalid {
            UIApplication.shared.endBackgroundTask(saveTask)
            saveTask = .invalid
        }
    }

    func sceneWillResignActive(_ scene: UIScene) {
        // Keep the app alive while the document is written out.
        endSaveTask()
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "SaveDocument") { [weak self] in
            self?.endSaveTask()
        }
        editor.saveDocument { [weak self] ok in
            print("document saved: \(ok)")
            self?.endSaveTask()
        }
    }

    func sceneDidEnterBackground(_ scene: UIScene) {
        (UIApplication.shared.delegate as? AppDelegate)?.flushAnalytics()
        editor.closeTransientFiles()
    }
}
