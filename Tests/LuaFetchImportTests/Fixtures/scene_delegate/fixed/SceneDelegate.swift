import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {

    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession,
               options connectionOptions: UIScene.ConnectionOptions) {
        print("Scene connected with \(DraftStore.shared.drafts.count) drafts")
    }

    func sceneDidDisconnect(_ scene: UIScene) {
        ThumbnailCache.shared.removeAll()
    }

    func sceneDidBecomeActive(_ scene: UIScene) {
        DraftStore.shared.startAutosave()
    }

    func sceneWillResignActive(_ scene: UIScene) {
        DraftStore.shared.stopAutosave()
    }

    func sceneWillEnterForeground(_ scene: UIScene) {
        DraftStore.shared.loadDrafts()
    }

    func sceneDidEnterBackground(_ scene: UIScene) {
        // Saving takes a moment; ask iOS for the time to finish it.
        let backgroundTask = BackgroundTaskScope(name: "SaveDrafts")
        DraftStore.shared.save { error in
            if let error = error {
                print("Could not save drafts: \(error.localizedDescription)")
            } else {
                print("Drafts saved before suspension")
            }
            backgroundTask.end()
        }
    }
}
