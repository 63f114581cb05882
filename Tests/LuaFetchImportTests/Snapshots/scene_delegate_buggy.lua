-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/scene_delegate/buggy` (luafetch 0.1.0) from 3 Swift files and Info.plist:
--   AppDelegate.swift
--   DraftStore.swift
--   SceneDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/scene_delegate/buggy
scenario { name = "Drafts", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, {  })  --@ AppDelegate.swift:3
T.DraftStore = swift.type("DraftStore", "class")  --@ DraftStore.swift:4
swift.opaqueBase(T.DraftStore, { "titlesKey", "container", "autosaveTimer", "drafts" })  --@ DraftStore.swift:4
T.SceneDelegate = swift.type("SceneDelegate", "class")  --@ SceneDelegate.swift:3
swift.opaqueBase(T.SceneDelegate, { "window" })  --@ SceneDelegate.swift:3
function T.AppDelegate:application_didFinishLaunchingWithOptions(application, launchOptions)  --@ AppDelegate.swift:6
  T.DraftStore.shared:loadDrafts()  --@ AppDelegate.swift:8
  do return true end  --@ AppDelegate.swift:9
end  --@ AppDelegate.swift:10
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:18
  swift.call(1, swift.opaque("ThumbnailCache"), "trim", "trim_toMegabytes", 50)  --@ AppDelegate.swift:20
  swift.defaultsSet("app.lastBackgroundedAt", (swift.now() + 1379462400))  --@ AppDelegate.swift:21
end  --@ AppDelegate.swift:22
function T.AppDelegate:applicationWillTerminate(application)  --@ AppDelegate.swift:24
  T.DraftStore.shared:stopAutosave()  --@ AppDelegate.swift:25
end  --@ AppDelegate.swift:26
swift.fields(T.DraftStore, function(self)  --@ DraftStore.swift:4
  self.titlesKey = "drafts.titles"  --@ DraftStore.swift:7
  self.container = swift.stubCall(2, nil, "Drafts")  --@ DraftStore.swift:8
  self.drafts = swift.array({  })  --@ DraftStore.swift:10
end)  --@ DraftStore.swift:4
swift.static(T.DraftStore, "shared", function() return swift.new(T.DraftStore, "init") end)  --@ DraftStore.swift:5
function T.DraftStore:loadDrafts()  --@ DraftStore.swift:12
  self.drafts = swift.coalesce(swift.defaultsGet(self.titlesKey, "stringArray"), function() return swift.array({  }) end)  --@ DraftStore.swift:13
end  --@ DraftStore.swift:14
function T.DraftStore:startAutosave()  --@ DraftStore.swift:20
  swift.optApply(self.autosaveTimer, function(__r) return swift.invalidate(__r) end)  --@ DraftStore.swift:21
  self.autosaveTimer = swift.timer(30, true, function(...) return self:autosave(...) end)  --@ DraftStore.swift:22
end  --@ DraftStore.swift:24
function T.DraftStore:stopAutosave()  --@ DraftStore.swift:26
  swift.optApply(self.autosaveTimer, function(__r) return swift.invalidate(__r) end)  --@ DraftStore.swift:27
  self.autosaveTimer = nil  --@ DraftStore.swift:28
end  --@ DraftStore.swift:29
function T.DraftStore:save(completion)  --@ DraftStore.swift:32
  swift.defaultsSet(self.titlesKey, self.drafts)  --@ DraftStore.swift:33
  swift.call(3, self.container, "saveChanges", nil, function(error_)  --@ DraftStore.swift:34
    return completion(error_)  --@ DraftStore.swift:35
  end)  --@ DraftStore.swift:36
end  --@ DraftStore.swift:37
function T.DraftStore:autosave()  --@ DraftStore.swift:39
  self:save(function(error_)  --@ DraftStore.swift:40
    do  --@ DraftStore.swift:41
      local error__2 = error_  --@ DraftStore.swift:41
      if error__2 ~= nil then  --@ DraftStore.swift:41
        swift.print(swift.interp("Autosave failed: ", error__2))  --@ DraftStore.swift:42
      end  --@ DraftStore.swift:43
    end  --@ DraftStore.swift:43
  end)  --@ DraftStore.swift:44
end  --@ DraftStore.swift:45
function T.SceneDelegate:scene(scene, session, connectionOptions)  --@ SceneDelegate.swift:7
  swift.print(swift.interp("Scene connected with ", swift.get(0, T.DraftStore.shared.drafts, "count"), " drafts"))  --@ SceneDelegate.swift:9
end  --@ SceneDelegate.swift:10
function T.SceneDelegate:sceneDidDisconnect(scene)  --@ SceneDelegate.swift:12
  swift.call(4, swift.opaque("ThumbnailCache"), "removeAll", nil)  --@ SceneDelegate.swift:13
end  --@ SceneDelegate.swift:14
function T.SceneDelegate:sceneDidBecomeActive(scene)  --@ SceneDelegate.swift:16
  T.DraftStore.shared:startAutosave()  --@ SceneDelegate.swift:17
end  --@ SceneDelegate.swift:18
function T.SceneDelegate:sceneWillResignActive(scene)  --@ SceneDelegate.swift:20
  T.DraftStore.shared:stopAutosave()  --@ SceneDelegate.swift:21
end  --@ SceneDelegate.swift:22
function T.SceneDelegate:sceneWillEnterForeground(scene)  --@ SceneDelegate.swift:24
  T.DraftStore.shared:loadDrafts()  --@ SceneDelegate.swift:25
end  --@ SceneDelegate.swift:26
function T.SceneDelegate:sceneDidEnterBackground(scene)  --@ SceneDelegate.swift:28
  local taskID = swift.app:beginBackgroundTask("SaveDrafts", nil)  --@ SceneDelegate.swift:30
  T.DraftStore.shared:save(function(error_)  --@ SceneDelegate.swift:31
    do  --@ SceneDelegate.swift:32
      local error__2 = error_  --@ SceneDelegate.swift:32
      if error__2 ~= nil then  --@ SceneDelegate.swift:32
        swift.print(swift.interp("Could not save drafts: ", swift.errorDescription(error__2)))  --@ SceneDelegate.swift:33
        do return end  --@ SceneDelegate.swift:34
      end  --@ SceneDelegate.swift:35
    end  --@ SceneDelegate.swift:35
    swift.print("Drafts saved before suspension")  --@ SceneDelegate.swift:36
    swift.app:endBackgroundTask(taskID)  --@ SceneDelegate.swift:37
  end)  --@ SceneDelegate.swift:38
end  --@ SceneDelegate.swift:39

app {
  backgroundModes = {  },
  scenes = true,
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:6
        appDelegate:application_didFinishLaunchingWithOptions(app, swift.launchOptions(launch))  --@ AppDelegate.swift:6
      end,  --@ AppDelegate.swift:6
      willTerminate = function(app)  --@ AppDelegate.swift:24
        appDelegate:applicationWillTerminate(app)  --@ AppDelegate.swift:24
      end,  --@ AppDelegate.swift:24
      scene = {
        willConnect = function(scene)  --@ SceneDelegate.swift:7
          swift.connectScene(T.SceneDelegate, true):scene(scene, swift.opaque("UISceneSession"), swift.opaque("UIScene.ConnectionOptions"))  --@ SceneDelegate.swift:7
        end,  --@ SceneDelegate.swift:7
        willEnterForeground = function(scene)  --@ SceneDelegate.swift:24
          swift.sceneDelegate():sceneWillEnterForeground(scene)  --@ SceneDelegate.swift:24
        end,  --@ SceneDelegate.swift:24
        didBecomeActive = function(scene)  --@ SceneDelegate.swift:16
          swift.sceneDelegate():sceneDidBecomeActive(scene)  --@ SceneDelegate.swift:16
        end,  --@ SceneDelegate.swift:16
        willResignActive = function(scene)  --@ SceneDelegate.swift:20
          swift.sceneDelegate():sceneWillResignActive(scene)  --@ SceneDelegate.swift:20
        end,  --@ SceneDelegate.swift:20
        didEnterBackground = function(scene)  --@ SceneDelegate.swift:28
          swift.sceneDelegate():sceneDidEnterBackground(scene)  --@ SceneDelegate.swift:28
        end,  --@ SceneDelegate.swift:28
        didDisconnect = function(scene)  --@ SceneDelegate.swift:12
          swift.sceneDelegate():sceneDidDisconnect(scene)  --@ SceneDelegate.swift:12
        end,  --@ SceneDelegate.swift:12
      },
    }
  end,
}

-- Stubs: calls into code the imported files do not define (docs/IMPORT.md). Each runs for `seconds`
-- (default { 0.01, 10 }; explore draws from { 0.001, 120 } unless you fix it), returns `result`
-- ("opaque": a value whose every field and call is again a stub; "nil"; or a Lua value), calls
-- each closure `calls` times (default 1). `blocking = true`: the call itself takes `seconds` on
-- the calling thread. `lock = "sharedContainer"`: it holds the app-group container's lock
-- meanwhile (`"ifSharedContainer"`, the import's guess for a database write: only when the
-- database was opened on a path in the app-group container). Edit to match your SDKs; a later
-- stubs{} adds to this one and wins.
stubs {
  ["ThumbnailCache.trim"] = { },  -- AppDelegate.swift:20
  ["DocumentContainer.init"] = { },  -- DraftStore.swift:8
  ["DocumentContainer.saveChanges"] = { },  -- DraftStore.swift:34
  ["ThumbnailCache.removeAll"] = { },  -- SceneDelegate.swift:13
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "ThumbnailCache.trim", "AppDelegate.swift:20" },
  { "DocumentContainer.init", "DraftStore.swift:8" },
  { "DocumentContainer.saveChanges", "DraftStore.swift:34", fails = true, closures = { [1] = { index = 1, params = 1, kinds = { "error" } } } },
  { "ThumbnailCache.removeAll", "SceneDelegate.swift:13" },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
