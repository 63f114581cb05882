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
        if saveTask != .invalid {
            UIApplication.shared.endBackgroundTask(saveTask)
            saveTask = .invalid
        }
    }

    func sceneWillResignActive(_ scene: UIScene) {
        // Keep the app alive while the document is written out.
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "SaveDocument", expirationHandler: nil)
        editor.saveDocument { ok in
            print("document saved: \(ok)")
        }
    }

    func sceneDidEnterBackground(_ scene: UIScene) {
        (UIApplication.shared.delegate as? AppDelegate)?.flushAnalytics()
        editor.closeTransientFiles()
    }
}
