-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/swiftui_scenephase/fixed` (luafetch 0.1.0) from 4 Swift files and Info.plist:
--   AppDelegate.swift
--   ContentView.swift
--   DraftUploader.swift
--   NotesApp.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/swiftui_scenephase/fixed
scenario { name = "Jot", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, {  })  --@ AppDelegate.swift:3
T.DraftCache = swift.type("DraftCache", "enum")  --@ DraftUploader.swift:4
T.DraftUploader = swift.type("DraftUploader", "class")  --@ DraftUploader.swift:23
T.NotesApp = swift.type("NotesApp", "struct")  --@ NotesApp.swift:3
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:5
  swift.print(swift.interp("Notes launched with ", swift.get(0, T.DraftCache.pendingDrafts(), "count"), " drafts waiting"))  --@ AppDelegate.swift:7
  do return true end  --@ AppDelegate.swift:8
end  --@ AppDelegate.swift:9
function T.AppDelegate:applicationWillTerminate(application)  --@ AppDelegate.swift:11
  swift.print("Notes is terminating")  --@ AppDelegate.swift:12
end  --@ AppDelegate.swift:13
swift.static(T.DraftCache, "key", function() return "drafts.pending" end)  --@ DraftUploader.swift:5
function T.DraftCache.pendingDrafts()  --@ DraftUploader.swift:7
  do return swift.coalesce(swift.defaultsGet(T.DraftCache.key, "stringArray"), function() return swift.array({  }) end) end  --@ DraftUploader.swift:8
end  --@ DraftUploader.swift:9
function T.DraftCache.clear()  --@ DraftUploader.swift:17
  swift.defaultsSet(T.DraftCache.key, nil)  --@ DraftUploader.swift:18
end  --@ DraftUploader.swift:19
swift.fields(T.DraftUploader, function(self)  --@ DraftUploader.swift:23
  self.api = swift.stubCall(1, nil, "https://api.example-notes.com", 20)  --@ DraftUploader.swift:27
  self.backgroundTaskID = UIBackgroundTaskInvalid  --@ DraftUploader.swift:29
end)  --@ DraftUploader.swift:23
swift.static(T.DraftUploader, "shared", function() return swift.new(T.DraftUploader, "init") end)  --@ DraftUploader.swift:25
function T.DraftUploader:init()  --@ DraftUploader.swift:31
end  --@ DraftUploader.swift:31
function T.DraftUploader:uploadInBackground()  --@ DraftUploader.swift:33
  if self.uploadTask ~= nil then  --@ DraftUploader.swift:34
    swift.print("A draft upload is already running")  --@ DraftUploader.swift:35
    do return end  --@ DraftUploader.swift:36
  end  --@ DraftUploader.swift:37
  local drafts = T.DraftCache.pendingDrafts()  --@ DraftUploader.swift:38
  self.backgroundTaskID = swift.app:beginBackgroundTask("UploadDrafts", function()  --@ DraftUploader.swift:39
    swift.optApply(swift.opt(self, "uploadTask"), function(__r) return __r:cancel() end)  --@ DraftUploader.swift:41
    swift.optCall(0, self, "endBackgroundTask", nil)  --@ DraftUploader.swift:42
  end)  --@ DraftUploader.swift:43
  self.uploadTask = swift.task(function()  --@ DraftUploader.swift:44
    local __c1, __r2 = swift.scope(function(defer)  --@ DraftUploader.swift:45
      defer(function()  --@ DraftUploader.swift:45
        self.uploadTask = nil  --@ DraftUploader.swift:46
        self:endBackgroundTask()  --@ DraftUploader.swift:47
      end)  --@ DraftUploader.swift:48
      local __c3, __r4 = swift.doCatch(function()  --@ DraftUploader.swift:49
        swift.call(2, self.api, "upload", "upload_drafts", drafts)  --@ DraftUploader.swift:50
        T.DraftCache.clear()  --@ DraftUploader.swift:51
        swift.print(swift.interp("Uploaded ", swift.get(0, drafts, "count"), " drafts"))  --@ DraftUploader.swift:52
      end, function(__e)  --@ DraftUploader.swift:53
        do  --@ DraftUploader.swift:53
          local error_ = __e  --@ DraftUploader.swift:53
          swift.print(swift.interp("Draft upload failed: ", error_))  --@ DraftUploader.swift:54
          do return nil end  --@ DraftUploader.swift:55
        end  --@ DraftUploader.swift:55
      end)  --@ DraftUploader.swift:55
      if __c3 == swift.RETURN then do return swift.RETURN, __r4 end end  --@ DraftUploader.swift:49
    end)  --@ DraftUploader.swift:55
    if __c1 == swift.RETURN then do return __r2 end end  --@ DraftUploader.swift:45
  end, true)  --@ DraftUploader.swift:56
end  --@ DraftUploader.swift:57
function T.DraftUploader:refreshFromServer()  --@ DraftUploader.swift:59
  local __c5, __r6 = swift.doCatch(function()  --@ DraftUploader.swift:60
    local count = swift.call(3, self.api, "serverDraftCount", nil)  --@ DraftUploader.swift:61
    swift.print(swift.interp("The server has ", count, " drafts"))  --@ DraftUploader.swift:62
  end, function(__e)  --@ DraftUploader.swift:63
    do  --@ DraftUploader.swift:63
      local error_ = __e  --@ DraftUploader.swift:63
      swift.print(swift.interp("Could not reach the notes server: ", error_))  --@ DraftUploader.swift:64
      do return nil end  --@ DraftUploader.swift:65
    end  --@ DraftUploader.swift:65
  end)  --@ DraftUploader.swift:65
  if __c5 == swift.RETURN then do return __r6 end end  --@ DraftUploader.swift:60
end  --@ DraftUploader.swift:66
function T.DraftUploader:endBackgroundTask()  --@ DraftUploader.swift:68
  if swift.eq(self.backgroundTaskID, UIBackgroundTaskInvalid) then  --@ DraftUploader.swift:69
    do return end  --@ DraftUploader.swift:69
  end  --@ DraftUploader.swift:69
  swift.app:endBackgroundTask(self.backgroundTaskID)  --@ DraftUploader.swift:70
  self.backgroundTaskID = UIBackgroundTaskInvalid  --@ DraftUploader.swift:71
end  --@ DraftUploader.swift:72
swift.fields(T.NotesApp, function(self)  --@ NotesApp.swift:3
  self.appDelegate = swift.adaptor(T.AppDelegate)  --@ NotesApp.swift:5
end)  --@ NotesApp.swift:3
swift.computed(T.NotesApp, "scenePhase", function() return swift.currentScenePhase() end)  --@ NotesApp.swift:6
function T.NotesApp:init()  --@ NotesApp.swift:8
  swift.defaultsSet("app.launchedAt", (swift.now() + 1379462400))  --@ NotesApp.swift:9
end  --@ NotesApp.swift:10
function T.NotesApp:__swiftui()  --@ NotesApp.swift:12
  swift.onScenePhase(function(newPhase)  --@ NotesApp.swift:16
    do  --@ NotesApp.swift:17
      local __s7 = newPhase  --@ NotesApp.swift:17
      if swift.caseOf(__s7) == "background" then  --@ NotesApp.swift:18
        T.DraftUploader.shared:uploadInBackground()  --@ NotesApp.swift:19
      elseif swift.caseOf(__s7) == "active" then  --@ NotesApp.swift:20
        swift.task(function()  --@ NotesApp.swift:21
          return T.DraftUploader.shared:refreshFromServer()  --@ NotesApp.swift:22
        end, true)  --@ NotesApp.swift:23
      else  --@ NotesApp.swift:24
        goto sw_1  --@ NotesApp.swift:25
      end  --@ NotesApp.swift:26
    end  --@ NotesApp.swift:26
    ::sw_1::  --@ NotesApp.swift:26
  end, 1)  --@ NotesApp.swift:27
end  --@ NotesApp.swift:28

app {
  backgroundModes = {  },
  scenes = true,
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:3
    local appStruct = swift.new(T.NotesApp, "init")  -- the SwiftUI App: its init is the launch  --@ NotesApp.swift:3
    appStruct:__swiftui()  --@ NotesApp.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:5
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:5
      end,  --@ AppDelegate.swift:5
      willTerminate = function(app)  --@ AppDelegate.swift:11
        appDelegate:applicationWillTerminate(app)  --@ AppDelegate.swift:11
      end,  --@ AppDelegate.swift:11
      scene = {
        willEnterForeground = function(scene)
          swift.scenePhase("inactive")
        end,
        didBecomeActive = function(scene)
          swift.scenePhase("active")
        end,
        willResignActive = function(scene)
          swift.scenePhase("inactive")
        end,
        didEnterBackground = function(scene)
          swift.scenePhase("background")
        end,
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
  ["NotesAPI.init"] = { },  -- DraftUploader.swift:27
  ["NotesAPI.upload"] = { },  -- DraftUploader.swift:50
  ["NotesAPI.serverDraftCount"] = { },  -- DraftUploader.swift:61
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "NotesAPI.init", "DraftUploader.swift:27" },
  { "NotesAPI.upload", "DraftUploader.swift:50", await = true, throws = true, fails = true },
  { "NotesAPI.serverDraftCount", "DraftUploader.swift:61", await = true, throws = true, fails = true },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "api.example-notes.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
