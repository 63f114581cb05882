-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/gcd_dispatch_group/buggy` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   BackupCoordinator.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/gcd_dispatch_group/buggy
scenario { name = "Family Backup", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window" })  --@ AppDelegate.swift:3
T.BackupCoordinator = swift.type("BackupCoordinator", "class")  --@ BackupCoordinator.swift:4
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:8
  swift.print(swift.interp("Family Backup launched; last backup: ", self:lastBackupDescription()))  --@ AppDelegate.swift:10
  do return true end  --@ AppDelegate.swift:11
end  --@ AppDelegate.swift:12
function T.AppDelegate:applicationDidBecomeActive(application)  --@ AppDelegate.swift:14
  after(2, function()  --@ AppDelegate.swift:16
    return swift.optCall(0, self, "remindIfBackupIsOld", nil)  --@ AppDelegate.swift:17
  end)  --@ AppDelegate.swift:18
end  --@ AppDelegate.swift:19
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:21
  T.BackupCoordinator.shared:runBeforeSuspension()  --@ AppDelegate.swift:22
end  --@ AppDelegate.swift:23
function T.AppDelegate:remindIfBackupIsOld()  --@ AppDelegate.swift:25
  if swift.defaultsGet("backup.lastRun", "object") == nil then  --@ AppDelegate.swift:26
    swift.print("Reminder: this device has never been backed up")  --@ AppDelegate.swift:27
  end  --@ AppDelegate.swift:28
end  --@ AppDelegate.swift:29
function T.AppDelegate:lastBackupDescription()  --@ AppDelegate.swift:31
  local __ok1 = false  --@ AppDelegate.swift:32
  local lastRun  --@ AppDelegate.swift:32
  lastRun = swift.defaultsGet("backup.lastRun", "object")  --@ AppDelegate.swift:32
  if lastRun ~= nil then  --@ AppDelegate.swift:32
    __ok1 = true  --@ AppDelegate.swift:32
  end  --@ AppDelegate.swift:32
  if not __ok1 then  --@ AppDelegate.swift:32
    do return "never" end  --@ AppDelegate.swift:32
  end  --@ AppDelegate.swift:32
  do return swift.interp("at ", lastRun) end  --@ AppDelegate.swift:33
end  --@ AppDelegate.swift:34
swift.fields(T.BackupCoordinator, function(self)  --@ BackupCoordinator.swift:4
  self.contacts = swift.stubCall(1, nil, "https://sync.example-family.com")  --@ BackupCoordinator.swift:7
  self.photos = swift.stubCall(2, nil, "family-backups")  --@ BackupCoordinator.swift:8
  self.stateQueue = dispatch.queue("com.example.family.backup-state")  --@ BackupCoordinator.swift:9
  self.backgroundTask = UIBackgroundTaskInvalid  --@ BackupCoordinator.swift:10
  self.isCancelled = false  --@ BackupCoordinator.swift:11
  self.failedJobs = swift.array({  })  --@ BackupCoordinator.swift:12
end)  --@ BackupCoordinator.swift:4
swift.static(T.BackupCoordinator, "shared", function() return swift.new(T.BackupCoordinator, "init") end)  --@ BackupCoordinator.swift:5
function T.BackupCoordinator:init()  --@ BackupCoordinator.swift:14
end  --@ BackupCoordinator.swift:14
function T.BackupCoordinator:runBeforeSuspension()  --@ BackupCoordinator.swift:16
  if swift.ne(self.backgroundTask, UIBackgroundTaskInvalid) then  --@ BackupCoordinator.swift:17
    swift.print("A backup is already running")  --@ BackupCoordinator.swift:18
    do return end  --@ BackupCoordinator.swift:19
  end  --@ BackupCoordinator.swift:20
  self.isCancelled = false  --@ BackupCoordinator.swift:21
  self.backgroundTask = swift.app:beginBackgroundTask("FamilyBackup", function()  --@ BackupCoordinator.swift:22
    do local __o2 = self if __o2 ~= nil then __o2.isCancelled = true end end  --@ BackupCoordinator.swift:24
  end)  --@ BackupCoordinator.swift:25
  local taskID = self.backgroundTask  --@ BackupCoordinator.swift:26
  local group = dispatch.group()  --@ BackupCoordinator.swift:27
  group:enter()  --@ BackupCoordinator.swift:29
  dispatch.global(function()  --@ BackupCoordinator.swift:30
    return swift.call(3, self.contacts, "pushPendingEdits", nil, function(error_)  --@ BackupCoordinator.swift:31
      do  --@ BackupCoordinator.swift:32
        local error__2 = error_  --@ BackupCoordinator.swift:32
        if error__2 ~= nil then  --@ BackupCoordinator.swift:32
          swift.print(swift.interp("Contacts sync failed: ", error__2))  --@ BackupCoordinator.swift:33
          self:recordFailure("contacts")  --@ BackupCoordinator.swift:34
          do return end  --@ BackupCoordinator.swift:35
        end  --@ BackupCoordinator.swift:36
      end  --@ BackupCoordinator.swift:36
      swift.print("Contacts synced")  --@ BackupCoordinator.swift:37
      group:leave()  --@ BackupCoordinator.swift:38
    end)  --@ BackupCoordinator.swift:39
  end)  --@ BackupCoordinator.swift:40
  group:enter()  --@ BackupCoordinator.swift:42
  dispatch.global(function()  --@ BackupCoordinator.swift:43
    if self.isCancelled then  --@ BackupCoordinator.swift:44
      group:leave()  --@ BackupCoordinator.swift:45
      do return end  --@ BackupCoordinator.swift:46
    end  --@ BackupCoordinator.swift:47
    swift.call(4, self.photos, "uploadNewAssets", "uploadNewAssets_limit", 25, function(_, error_)  --@ BackupCoordinator.swift:48
      if error_ ~= nil then  --@ BackupCoordinator.swift:49
        self:recordFailure("photos")  --@ BackupCoordinator.swift:50
      end  --@ BackupCoordinator.swift:51
      group:leave()  --@ BackupCoordinator.swift:52
    end)  --@ BackupCoordinator.swift:53
  end)  --@ BackupCoordinator.swift:54
  group:notify(function()  --@ BackupCoordinator.swift:56
    return self:finish(taskID)  --@ BackupCoordinator.swift:57
  end, "main")  --@ BackupCoordinator.swift:58
end  --@ BackupCoordinator.swift:59
function T.BackupCoordinator:recordFailure(job)  --@ BackupCoordinator.swift:61
  swift.qSync(self.stateQueue, function()  --@ BackupCoordinator.swift:62
    return swift.call(0, self.failedJobs, "append", nil, job)  --@ BackupCoordinator.swift:63
  end)  --@ BackupCoordinator.swift:64
end  --@ BackupCoordinator.swift:65
function T.BackupCoordinator:finish(taskID)  --@ BackupCoordinator.swift:67
  swift.qSync(self.stateQueue, function()  --@ BackupCoordinator.swift:68
    swift.print(swift.interp("Backup finished, failed jobs: ", self.failedJobs))  --@ BackupCoordinator.swift:69
    swift.call(0, self.failedJobs, "removeAll", nil)  --@ BackupCoordinator.swift:70
  end)  --@ BackupCoordinator.swift:71
  swift.defaultsSet("backup.lastRun", (swift.now() + 1379462400))  --@ BackupCoordinator.swift:72
  self:endBackgroundTask(taskID)  --@ BackupCoordinator.swift:73
end  --@ BackupCoordinator.swift:74
function T.BackupCoordinator:endBackgroundTask(taskID)  --@ BackupCoordinator.swift:76
  if not (swift.ne(taskID, UIBackgroundTaskInvalid) and taskID == self.backgroundTask) then  --@ BackupCoordinator.swift:77
    do return end  --@ BackupCoordinator.swift:77
  end  --@ BackupCoordinator.swift:77
  swift.app:endBackgroundTask(taskID)  --@ BackupCoordinator.swift:78
  self.backgroundTask = UIBackgroundTaskInvalid  --@ BackupCoordinator.swift:79
end  --@ BackupCoordinator.swift:80

app {
  backgroundModes = {  },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:8
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:8
      end,  --@ AppDelegate.swift:8
      didBecomeActive = function(app)  --@ AppDelegate.swift:14
        appDelegate:applicationDidBecomeActive(app)  --@ AppDelegate.swift:14
      end,  --@ AppDelegate.swift:14
      didEnterBackground = function(app)  --@ AppDelegate.swift:21
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:21
      end,  --@ AppDelegate.swift:21
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
  ["ContactsSyncClient.init"] = { },  -- BackupCoordinator.swift:7
  ["PhotoBackupClient.init"] = { },  -- BackupCoordinator.swift:8
  ["ContactsSyncClient.pushPendingEdits"] = { },  -- BackupCoordinator.swift:31
  ["PhotoBackupClient.uploadNewAssets"] = { },  -- BackupCoordinator.swift:48
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "ContactsSyncClient.init", "BackupCoordinator.swift:7" },
  { "PhotoBackupClient.init", "BackupCoordinator.swift:8" },
  { "ContactsSyncClient.pushPendingEdits", "BackupCoordinator.swift:31", fails = true, closures = { [1] = { index = 1, params = 1, kinds = { "error" } } } },
  { "PhotoBackupClient.uploadNewAssets", "BackupCoordinator.swift:48", fails = true, closures = { [2] = { index = 2, params = 2, kinds = { false, "error" } } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "sync.example-family.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
