// Scenes (SPEC 16): with `app{ scenes = true }` UIKit calls the scene delegate's foreground and
// background methods instead of the app delegate's (still posting the UIApplication
// notifications at those moments), connects the scene after a user launch's didFinishLaunching or
// at the first open of a background-launched process, and may disconnect a background scene
// (`system.disconnectScene()`). Each scene callback is followed by its UIScene notification
// (SPEC 18.7.3). `scene.state` follows the callbacks. Under `ios26` an app without scenes gets
// `scene-lifecycle-required` at every launch. Part of World's lifecycle.

/// The scene delegate's methods (`scene = { ... }` in the delegate).
public enum SceneMethod: String, CaseIterable, Sendable {
    case willConnect, didBecomeActive, willResignActive, willEnterForeground, didEnterBackground, didDisconnect

    /// The scene method UIKit calls instead of an app delegate method.
    init?(replacing method: DelegateMethod) {
        switch method {
        case .didBecomeActive: self = .didBecomeActive
        case .willResignActive: self = .willResignActive
        case .willEnterForeground: self = .willEnterForeground
        case .didEnterBackground: self = .didEnterBackground
        case .didFinishLaunching, .willTerminate: return nil
        }
    }

    /// The NotificationCenter name UIKit posts right after this scene method.
    public var notificationName: String {
        switch self {
        case .willConnect: return "UISceneWillConnectNotification"
        case .didBecomeActive: return "UISceneDidActivateNotification"
        case .willResignActive: return "UISceneWillDeactivateNotification"
        case .willEnterForeground: return "UISceneWillEnterForegroundNotification"
        case .didEnterBackground: return "UISceneDidEnterBackgroundNotification"
        case .didDisconnect: return "UISceneDidDisconnectNotification"
        }
    }

    /// `scene.state` during the call.
    var state: SceneState {
        switch self {
        case .willConnect, .willEnterForeground, .willResignActive: return .inactive
        case .didBecomeActive: return .active
        case .didEnterBackground: return .background
        case .didDisconnect: return .unattached
        }
    }
}

/// `scene.state`.
public enum SceneState: String, Sendable { case unattached, inactive, active, background }

extension World {
    /// The scene's delegate method of the running process.
    func sceneHandler(_ method: SceneMethod) -> ScriptRef? {
        app.factory == nil ? app.sceneDelegate[method] : processDelegate.sceneMethods[method]
    }

    /// Calls a scene delegate method with the scene, `scene.state` set for it, then posts the
    /// method's UIScene notification inside the same limit (SPEC 18.7.3; a caller that replaces an
    /// app delegate method posts the UIApplication one after). False when the app did not survive.
    func sceneCall(_ method: SceneMethod) -> Bool {
        sceneState = method.state
        log("app", .info, "scene: \(method.rawValue) (\(sceneState.rawValue))", detail: .scene(sceneState.rawValue))
        if let fn = sceneHandler(method) {
            guard callApp(fn, Invocation(.scene)) else { return false }
        }
        guard isRunning else { return false }
        let before = observing
        observing = method.notificationName
        postSystem(method.notificationName)
        observing = before
        return isRunning
    }

    /// Connects the scene (a user launch after didFinishLaunching, or the first open of a process
    /// launched in the background): willConnect.
    func connectScene() -> Bool {
        sceneConnected = true
        return boundedByTransition("the scene's willConnect") { sceneCall(.willConnect) }
    }

    /// `system.disconnectScene()`: iOS reclaims a background scene's memory; a suspended app is
    /// woken in the background for the call and suspended again when nothing holds it.
    public func systemDisconnectScene() {
        log("system", .action, "disconnects the app's scene")
        guard app.scenes, sceneConnected, !isForeground, state != .notRunning else {
            log("system", .info, "(no background scene is connected)")
            return
        }
        if state == .suspended {
            stats.wakes += 1
            setState(.background, "woken to disconnect its scene")
        }
        sceneConnected = false
        guard sceneCall(.didDisconnect) else { return }
        settle()
    }

    /// Why `system.disconnectScene()` cannot be called now (an error in world code).
    public var disconnectSceneRefusal: String? {
        if !app.scenes || !sceneConnected || state == .notRunning { return "system.disconnectScene(): no scene is connected (app{ scenes = true } connects one at a user launch)" }
        if isForeground { return "system.disconnectScene(): the app is in the foreground; iOS disconnects only background scenes" }
        return nil
    }

    /// iOS 26 logs this for an app that has not adopted scenes, at every launch.
    func warnSceneLifecycle() {
        guard os == .ios26, !app.scenes else { return }
        violate(.sceneLifecycleRequired, at: app.location,
                "the app has not adopted the UIScene life cycle, which iOS 26 requires of apps built with its SDK (TN3187): set app{ scenes = true } and move the foreground and background work to scene = { ... }")
    }
}
