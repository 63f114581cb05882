-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/task_manager_singleton/fixed` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   BackgroundTaskManager.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/task_manager_singleton/fixed
scenario { name = "Habits", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window", "tasks", "syncTimer" })  --@ AppDelegate.swift:3
T.BackgroundTaskManager = swift.type("BackgroundTaskManager", "class")  --@ BackgroundTaskManager.swift:4
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:3
  self.tasks = T.BackgroundTaskManager.shared  --@ AppDelegate.swift:8
end)  --@ AppDelegate.swift:3
swift.static(T.AppDelegate, "lastSyncKey", function() return "sync.lastFinishedAt" end)  --@ AppDelegate.swift:10
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:12
  swift.call(1, swift.opaque("SyncEngine"), "configure", "configure_containerIdentifier", "iCloud.com.example.habits")  --@ AppDelegate.swift:14
  do return true end  --@ AppDelegate.swift:15
end  --@ AppDelegate.swift:16
function T.AppDelegate:applicationDidBecomeActive(application)  --@ AppDelegate.swift:18
  swift.optApply(self.syncTimer, function(__r) return swift.invalidate(__r) end)  --@ AppDelegate.swift:19
  self.syncTimer = swift.timer(300, true, function(_)  --@ AppDelegate.swift:20
    return swift.optCall(0, self, "syncInForeground", nil)  --@ AppDelegate.swift:21
  end)  --@ AppDelegate.swift:22
end  --@ AppDelegate.swift:23
function T.AppDelegate:applicationWillResignActive(application)  --@ AppDelegate.swift:25
  swift.optApply(self.syncTimer, function(__r) return swift.invalidate(__r) end)  --@ AppDelegate.swift:26
  self.syncTimer = nil  --@ AppDelegate.swift:27
end  --@ AppDelegate.swift:28
function T.AppDelegate:applicationWillEnterForeground(application)  --@ AppDelegate.swift:30
  self.tasks:end_("sync")  --@ AppDelegate.swift:32
end  --@ AppDelegate.swift:33
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:35
  if not self.tasks:begin("sync") then  --@ AppDelegate.swift:37
    do return end  --@ AppDelegate.swift:37
  end  --@ AppDelegate.swift:37
  swift.call(2, swift.opaque("SyncEngine"), "pushLocalChanges", nil, function(changed, error_)  --@ AppDelegate.swift:38
    do  --@ AppDelegate.swift:39
      local error__2 = error_  --@ AppDelegate.swift:39
      if error__2 ~= nil then  --@ AppDelegate.swift:39
        swift.print(swift.interp("Background sync failed: ", error__2))  --@ AppDelegate.swift:40
      else  --@ AppDelegate.swift:41
        swift.print(swift.interp("Background sync pushed ", changed, " changes"))  --@ AppDelegate.swift:42
        swift.defaultsSet(T.AppDelegate.lastSyncKey, (swift.now() + 1379462400))  --@ AppDelegate.swift:43
      end  --@ AppDelegate.swift:44
    end  --@ AppDelegate.swift:44
    swift.optCall(0, swift.opt(self, "tasks"), "end_", nil, "sync")  --@ AppDelegate.swift:45
  end)  --@ AppDelegate.swift:46
end  --@ AppDelegate.swift:47
function T.AppDelegate:applicationWillTerminate(application)  --@ AppDelegate.swift:49
  swift.optApply(self.syncTimer, function(__r) return swift.invalidate(__r) end)  --@ AppDelegate.swift:50
  swift.call(3, swift.opaque("SyncEngine"), "saveJournal", nil)  --@ AppDelegate.swift:51
end  --@ AppDelegate.swift:52
function T.AppDelegate:syncInForeground()  --@ AppDelegate.swift:54
  if self.tasks:isRunning("sync") then  --@ AppDelegate.swift:55
    do return end  --@ AppDelegate.swift:55
  end  --@ AppDelegate.swift:55
  swift.call(4, swift.opaque("SyncEngine"), "pushLocalChanges", nil, function(_, error_)  --@ AppDelegate.swift:56
    if error_ == nil then  --@ AppDelegate.swift:57
      swift.defaultsSet(T.AppDelegate.lastSyncKey, (swift.now() + 1379462400))  --@ AppDelegate.swift:58
    end  --@ AppDelegate.swift:59
  end)  --@ AppDelegate.swift:60
end  --@ AppDelegate.swift:61
swift.fields(T.BackgroundTaskManager, function(self)  --@ BackgroundTaskManager.swift:4
  self.tasks = swift.dict({})  --@ BackgroundTaskManager.swift:7
  self.stateLock = dispatch.lock()  --@ BackgroundTaskManager.swift:8
end)  --@ BackgroundTaskManager.swift:4
swift.static(T.BackgroundTaskManager, "shared", function() return swift.new(T.BackgroundTaskManager, "init") end)  --@ BackgroundTaskManager.swift:5
function T.BackgroundTaskManager:init()  --@ BackgroundTaskManager.swift:10
end  --@ BackgroundTaskManager.swift:10
function T.BackgroundTaskManager:isRunning(name)  --@ BackgroundTaskManager.swift:12
  local __c1, __r2 = swift.scope(function(defer)  --@ BackgroundTaskManager.swift:13
    self.stateLock:lock()  --@ BackgroundTaskManager.swift:13
    defer(function()  --@ BackgroundTaskManager.swift:14
      self.stateLock:unlock()  --@ BackgroundTaskManager.swift:14
    end)  --@ BackgroundTaskManager.swift:14
    do return swift.RETURN, swift.index(self.tasks, name) ~= nil end  --@ BackgroundTaskManager.swift:15
  end)  --@ BackgroundTaskManager.swift:15
  if __c1 == swift.RETURN then do return __r2 end end  --@ BackgroundTaskManager.swift:13
end  --@ BackgroundTaskManager.swift:16
function T.BackgroundTaskManager:begin(name)  --@ BackgroundTaskManager.swift:19
  local __c3, __r4 = swift.scope(function(defer)  --@ BackgroundTaskManager.swift:21
    self.stateLock:lock()  --@ BackgroundTaskManager.swift:21
    defer(function()  --@ BackgroundTaskManager.swift:22
      self.stateLock:unlock()  --@ BackgroundTaskManager.swift:22
    end)  --@ BackgroundTaskManager.swift:22
    if swift.index(self.tasks, name) ~= nil then  --@ BackgroundTaskManager.swift:23
      swift.print(swift.interp("[BackgroundTaskManager] ", name, " is already running"))  --@ BackgroundTaskManager.swift:24
      do return swift.RETURN, false end  --@ BackgroundTaskManager.swift:25
    end  --@ BackgroundTaskManager.swift:26
    local identifier = swift.app:beginBackgroundTask(name, function()  --@ BackgroundTaskManager.swift:27
      local remaining = swift.app.backgroundTimeRemaining  --@ BackgroundTaskManager.swift:28
      swift.print(swift.interp("[BackgroundTaskManager] ", name, " is about to expire (", remaining, " s left)"))  --@ BackgroundTaskManager.swift:29
      swift.optCall(0, self, "end_", nil, name)  --@ BackgroundTaskManager.swift:30
    end)  --@ BackgroundTaskManager.swift:31
    if swift.eq(identifier, UIBackgroundTaskInvalid) then  --@ BackgroundTaskManager.swift:32
      swift.print(swift.interp("[BackgroundTaskManager] iOS refused background time for ", name))  --@ BackgroundTaskManager.swift:33
      do return swift.RETURN, false end  --@ BackgroundTaskManager.swift:34
    end  --@ BackgroundTaskManager.swift:35
    swift.setIndex(self.tasks, name, identifier)  --@ BackgroundTaskManager.swift:36
    swift.print(swift.interp("[BackgroundTaskManager] began ", name, ", ", swift.get(0, self.tasks, "count"), " running"))  --@ BackgroundTaskManager.swift:37
    do return swift.RETURN, true end  --@ BackgroundTaskManager.swift:38
  end)  --@ BackgroundTaskManager.swift:38
  if __c3 == swift.RETURN then do return __r4 end end  --@ BackgroundTaskManager.swift:21
end  --@ BackgroundTaskManager.swift:39
function T.BackgroundTaskManager:end_(name)  --@ BackgroundTaskManager.swift:41
  local __c5, __r6 = swift.scope(function(defer)  --@ BackgroundTaskManager.swift:42
    self.stateLock:lock()  --@ BackgroundTaskManager.swift:42
    defer(function()  --@ BackgroundTaskManager.swift:43
      self.stateLock:unlock()  --@ BackgroundTaskManager.swift:43
    end)  --@ BackgroundTaskManager.swift:43
    local __ok7 = false  --@ BackgroundTaskManager.swift:44
    local identifier  --@ BackgroundTaskManager.swift:44
    identifier = swift.call(0, self.tasks, "removeValue", "removeValue_forKey", name)  --@ BackgroundTaskManager.swift:44
    if identifier ~= nil then  --@ BackgroundTaskManager.swift:44
      __ok7 = true  --@ BackgroundTaskManager.swift:44
    end  --@ BackgroundTaskManager.swift:44
    if not __ok7 then  --@ BackgroundTaskManager.swift:44
      do return swift.RETURN end  --@ BackgroundTaskManager.swift:44
    end  --@ BackgroundTaskManager.swift:44
    swift.app:endBackgroundTask(identifier)  --@ BackgroundTaskManager.swift:45
    swift.print(swift.interp("[BackgroundTaskManager] ended ", name))  --@ BackgroundTaskManager.swift:46
  end)  --@ BackgroundTaskManager.swift:46
  if __c5 == swift.RETURN then do return __r6 end end  --@ BackgroundTaskManager.swift:42
end  --@ BackgroundTaskManager.swift:47

app {
  backgroundModes = {  },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:12
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:12
      end,  --@ AppDelegate.swift:12
      didBecomeActive = function(app)  --@ AppDelegate.swift:18
        appDelegate:applicationDidBecomeActive(app)  --@ AppDelegate.swift:18
      end,  --@ AppDelegate.swift:18
      willResignActive = function(app)  --@ AppDelegate.swift:25
        appDelegate:applicationWillResignActive(app)  --@ AppDelegate.swift:25
      end,  --@ AppDelegate.swift:25
      didEnterBackground = function(app)  --@ AppDelegate.swift:35
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:35
      end,  --@ AppDelegate.swift:35
      willEnterForeground = function(app)  --@ AppDelegate.swift:30
        appDelegate:applicationWillEnterForeground(app)  --@ AppDelegate.swift:30
      end,  --@ AppDelegate.swift:30
      willTerminate = function(app)  --@ AppDelegate.swift:49
        appDelegate:applicationWillTerminate(app)  --@ AppDelegate.swift:49
      end,  --@ AppDelegate.swift:49
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
  ["SyncEngine.configure"] = { },  -- AppDelegate.swift:14
  ["SyncEngine.pushLocalChanges"] = { },  -- AppDelegate.swift:38 (+1 more)
  ["SyncEngine.saveJournal"] = { },  -- AppDelegate.swift:51
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "SyncEngine.configure", "AppDelegate.swift:14" },
  { "SyncEngine.pushLocalChanges", "AppDelegate.swift:38", fails = true, closures = { [1] = { index = 1, params = 2, kinds = { false, "error" } } } },
  { "SyncEngine.saveJournal", "AppDelegate.swift:51" },
  { "SyncEngine.pushLocalChanges", "AppDelegate.swift:56", fails = true, closures = { [1] = { index = 1, params = 2, kinds = { false, "error" } } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
