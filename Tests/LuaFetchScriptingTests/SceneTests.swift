// SPEC 16: scenes. With `scenes = true` UIKit calls the scene delegate instead of the app
// delegate's four foreground/background methods, in a fixed order per transition, still posting
// the UIApplication notifications; a background launch connects no scene; iOS may disconnect a
// background scene; iOS 26 warns apps without scenes. Each scene callback posts its UIScene
// notification (SPEC 18.7.3).
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

/// An app that prints every call (app delegate as `app.X`, scene delegate as `scene.X state`) and
/// the notifications.
func sceneApp(scenes: Bool = true, extra: String = "") -> String {
    let appMethods = ["didBecomeActive", "willResignActive", "didEnterBackground", "willEnterForeground", "willTerminate"]
        .map { "\($0) = function() print('app.\($0)') end," }.joined(separator: "\n  ")
    return """
    scenario { os = "ios26", fetchPolicy = "manual", duration = 200 }
    for _, n in ipairs({ UIApplicationDidBecomeActiveNotification, UIApplicationWillResignActiveNotification,
                         UIApplicationDidEnterBackgroundNotification, UIApplicationWillEnterForegroundNotification }) do
      notifications.observe(n, function(name) print("post " .. name:gsub("UIApplication", ""):gsub("Notification", "")) end)
    end
    local function m(name) return function(scene) print("scene." .. name .. " " .. scene.state) end end
    app { scenes = \(scenes), backgroundModes = { "fetch" },
      didFinishLaunching = function(app, launch) print("app.didFinishLaunching " .. launch.reason) end,
      \(appMethods)
      performFetch = function(app, done) done("noData") end,
      scene = { willConnect = m("willConnect"), didBecomeActive = m("didBecomeActive"), willResignActive = m("willResignActive"),
                willEnterForeground = m("willEnterForeground"), didEnterBackground = m("didEnterBackground"),
                didDisconnect = m("didDisconnect") },
      \(extra) }
    """
}

@Suite struct SceneTests {
    @Test func aUserLaunchConnectsTheSceneAfterDidFinishLaunching() {
        let s = simulate(sceneApp() + "\nat(0, user.launch)")
        #expect(s.printed == ["app.didFinishLaunching user", "scene.willConnect inactive", "scene.willEnterForeground inactive",
                              "post WillEnterForeground", "scene.didBecomeActive active", "post DidBecomeActive"])
        #expect(s.codes == [])
    }

    @Test func homeAndOpen() {
        let s = simulate(sceneApp() + "\nat(0, user.launch)\nat(10, function() print('--') end)\nat(10, user.home)\nat(20, user.open)")
        let after = Array(s.printed.drop { $0 != "--" }.dropFirst())
        #expect(after == ["scene.willResignActive inactive", "post WillResignActive", "scene.didEnterBackground background",
                          "post DidEnterBackground", "scene.willEnterForeground inactive", "post WillEnterForeground",
                          "scene.didBecomeActive active", "post DidBecomeActive"])
    }

    @Test func anInterruption() {
        let s = simulate(sceneApp() + "\nat(0, user.launch)\nat(10, function() print('--') user.interrupt(5) end)")
        let after = Array(s.printed.drop { $0 != "--" }.dropFirst())
        #expect(after == ["scene.willResignActive inactive", "post WillResignActive", "scene.didBecomeActive active", "post DidBecomeActive"])
    }

    @Test func terminationCallsNoSceneCallback() {
        let s = simulate(sceneApp() + "\nat(0, user.launch)\nat(10, user.home)\nat(11, function() print('--') end)\nat(11, user.forceQuit)")
        #expect(Array(s.printed.drop { $0 != "--" }.dropFirst()).isEmpty)
        #expect(s.world.state == .notRunning)
    }

    @Test func aBackgroundLaunchConnectsNoSceneAndTheFirstOpenDoes() {
        let s = simulate(sceneApp() + "\nat(5, system.launchForFetch)\nat(10, function() print('--') end)\nat(10, user.open)")
        #expect(s.printed.first == "app.didFinishLaunching backgroundFetch")
        let after = Array(s.printed.drop { $0 != "--" }.dropFirst())
        #expect(after == ["scene.willConnect inactive", "scene.willEnterForeground inactive", "post WillEnterForeground",
                          "scene.didBecomeActive active", "post DidBecomeActive"])
    }

    @Test func disconnectAndReconnect() {
        let s = simulate(sceneApp() + """
        at(0, user.launch)
        at(10, user.home)
        at(20, function() print('--') system.disconnectScene() print(app.state) end)
        at(30, user.open)
        """)
        let after = Array(s.printed.drop { $0 != "--" }.dropFirst())
        #expect(after == ["scene.didDisconnect unattached", "suspended", "scene.willConnect inactive", "scene.willEnterForeground inactive",
                          "post WillEnterForeground", "scene.didBecomeActive active", "post DidBecomeActive"])
        #expect(s.world.stats.wakes == 1)
        let fg = simulate(sceneApp() + "\nat(0, user.launch)\nat(5, system.disconnectScene)")
        #expect(fg.exitCode == 2)
        #expect(fg.error?.message.contains("the app is in the foreground") == true, "\(fg.error?.message ?? "")")
        let none = simulate(sceneApp(scenes: false) + "\nat(0, user.launch)\nat(5, user.home)\nat(6, system.disconnectScene)")
        #expect(none.error?.message.contains("no scene is connected") == true)
    }

    @Test func withoutScenesTheAppDelegateIsCalledAndIOS26Warns() {
        let s = simulate(sceneApp(scenes: false) + "\nat(0, user.launch)\nat(10, user.home)\nat(20, system.memoryPressure)\nat(30, system.launchForFetch)")
        #expect(s.printed.prefix(4) == ["app.didFinishLaunching user", "app.didBecomeActive", "post DidBecomeActive", "app.willResignActive"])
        #expect(!s.printed.contains { $0.hasPrefix("scene.") })
        #expect(s.codes == ["scene-lifecycle-required", "scene-lifecycle-required"])  // at every launch
    }

    @Test func theScenesDidEnterBackgroundHasTheFiveSecondLimit() {
        let s = simulate(sceneApp().replacingAll("didEnterBackground = m(\"didEnterBackground\")", with: "didEnterBackground = function() work(6) end")
                         + "\nat(0, user.launch)\nat(10, user.home)")
        #expect(s.codes == ["callback-overrun"])
        #expect(s.world.violations[0].time == 15_000)
    }

    /// SPEC 18.7.3: each scene callback is followed by its UIScene notification, then (where the
    /// callback replaces an app delegate method) the UIApplication one.
    @Test func theSceneNotificationsArePostedRightAfterEachSceneCallback() {
        let names = ["UISceneWillConnectNotification", "UISceneWillEnterForegroundNotification", "UISceneDidActivateNotification",
                     "UISceneWillDeactivateNotification", "UISceneDidEnterBackgroundNotification", "UISceneDidDisconnectNotification"]
        let observe = names.map { "notifications.observe(\($0), function(name) print('post ' .. name) end)" }.joined(separator: "\n")
        let s = simulate(sceneApp() + """
        \(observe)
        at(0, user.launch)
        at(10, user.home)
        at(20, system.disconnectScene)
        """)
        #expect(s.printed == ["app.didFinishLaunching user",
                              "scene.willConnect inactive", "post UISceneWillConnectNotification",
                              "scene.willEnterForeground inactive", "post UISceneWillEnterForegroundNotification", "post WillEnterForeground",
                              "scene.didBecomeActive active", "post UISceneDidActivateNotification", "post DidBecomeActive",
                              "scene.willResignActive inactive", "post UISceneWillDeactivateNotification", "post WillResignActive",
                              "scene.didEnterBackground background", "post UISceneDidEnterBackgroundNotification", "post DidEnterBackground",
                              "scene.didDisconnect unattached", "post UISceneDidDisconnectNotification"], "\(s.printed)")
        let constants = simulate("print(\(names.joined(separator: ", ")))")
        #expect(constants.printed == [names.joined(separator: "\t")])
        let none = simulate(sceneApp(scenes: false) + "\n\(observe)\nat(0, user.launch)\nat(10, user.home)")
        #expect(!none.printed.contains { $0.hasPrefix("post UIScene") }, "\(none.printed)")
    }

    @Test func anObserverOfTheScenesDidEnterBackgroundSharesItsFiveSeconds() {
        let s = simulate("""
        app { scenes = true,
          didFinishLaunching = function()
            notifications.observe(UISceneDidEnterBackgroundNotification, function() work(6) end)
          end,
          scene = { didEnterBackground = function() work(1) end } }
        at(0, user.launch)
        at(10, user.home)
        """)
        #expect(s.codes == ["callback-overrun"])
        #expect(s.world.violations[0].time == 15_000)
        #expect(s.world.violations[0].location?.line == 3)
        #expect(s.world.violations[0].message.hasPrefix("an observer of UISceneDidEnterBackgroundNotification computed past didEnterBackground's 5s limit"),
                "\(s.world.violations[0].message)")
    }

    @Test func scenesNeedIOS13() {
        let s = simulate("scenario { os = 'ios7' }\napp { scenes = true }\nat(0, user.launch)")
        #expect(s.exitCode == 2)
        #expect(s.error?.message == "test.lua:2: app{}: scenes = true needs iOS 13 or later; the ios7 profile has no scenes", "\(s.error?.message ?? "")")
        let bad = simulate("app { scenes = true, scene = { willConect = print } }")
        #expect(bad.error?.message.contains("did you mean willConnect?") == true, "\(bad.error?.message ?? "")")
        let notTable = simulate("app { scene = 5 }")
        #expect(notTable.exitCode == 2)
    }

    @Test func theDelegateFormReturnsTheSceneDelegate() {
        let s = simulate("""
        app { scenes = true, delegate = function(app)
          local connected = 0
          return { scene = { willConnect = function(scene) connected = connected + 1 print("connect", connected) end } }
        end }
        at(0, user.launch)
        at(5, user.forceQuit)
        at(10, user.launch)
        """)
        #expect(s.printed == ["connect\t1", "connect\t1"])
    }
}
