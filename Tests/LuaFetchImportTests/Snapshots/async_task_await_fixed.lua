-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/async_task_await/fixed` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   StepJournal.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/async_task_await/fixed
scenario { name = "Stride", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window", "api", "journal", "backgroundTasks" })  --@ AppDelegate.swift:4
T.StepSample = swift.type("StepSample", "struct")  --@ StepJournal.swift:3
T.StepJournal = swift.type("StepJournal", "class")  --@ StepJournal.swift:10
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:4
  self.api = swift.stubCall(1, nil, "https://api.example-steps.com", 20)  --@ AppDelegate.swift:9
  self.journal = swift.new(T.StepJournal, "init")  --@ AppDelegate.swift:10
  self.backgroundTasks = swift.array({  })  --@ AppDelegate.swift:12
end)  --@ AppDelegate.swift:4
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:14
  self.journal:restore()  --@ AppDelegate.swift:16
  do return true end  --@ AppDelegate.swift:17
end  --@ AppDelegate.swift:18
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:20
  local taskID = swift.app:beginBackgroundTask("StepUpload", function()  --@ AppDelegate.swift:21
    swift.print("Step upload: background time expired")  --@ AppDelegate.swift:22
    swift.optCall(0, self, "endAllBackgroundTasks", nil)  --@ AppDelegate.swift:23
  end)  --@ AppDelegate.swift:24
  if swift.ne(taskID, UIBackgroundTaskInvalid) then  --@ AppDelegate.swift:25
    swift.call(0, self.backgroundTasks, "insert", nil, taskID)  --@ AppDelegate.swift:26
  end  --@ AppDelegate.swift:27
  swift.task(function()  --@ AppDelegate.swift:28
    local __c1, __r2 = swift.scope(function(defer)  --@ AppDelegate.swift:29
      defer(function()  --@ AppDelegate.swift:29
        self:endBackgroundTask(taskID)  --@ AppDelegate.swift:29
      end)  --@ AppDelegate.swift:29
      local samples = self.journal:collectPendingSamples()  --@ AppDelegate.swift:30
      local __c3, __r4 = swift.doCatch(function()  --@ AppDelegate.swift:31
        swift.call(2, self.api, "upload", "upload_samples", samples)  --@ AppDelegate.swift:32
        self.journal:markUploaded(swift.copy(samples))  --@ AppDelegate.swift:33
        swift.print(swift.interp("Uploaded ", swift.get(0, samples, "count"), " step samples"))  --@ AppDelegate.swift:34
      end, function(__e)  --@ AppDelegate.swift:35
        do  --@ AppDelegate.swift:35
          local error_ = __e  --@ AppDelegate.swift:35
          swift.print(swift.interp("Step upload failed: ", swift.errorDescription(error_)))  --@ AppDelegate.swift:36
          do return nil end  --@ AppDelegate.swift:37
        end  --@ AppDelegate.swift:37
      end)  --@ AppDelegate.swift:37
      if __c3 == swift.RETURN then do return swift.RETURN, __r4 end end  --@ AppDelegate.swift:31
    end)  --@ AppDelegate.swift:37
    if __c1 == swift.RETURN then do return __r2 end end  --@ AppDelegate.swift:29
  end, true)  --@ AppDelegate.swift:38
end  --@ AppDelegate.swift:39
function T.AppDelegate:applicationWillEnterForeground(application)  --@ AppDelegate.swift:41
  swift.task(function()  --@ AppDelegate.swift:42
    local samples = self.journal:collectPendingSamples()  --@ AppDelegate.swift:43
    swift.print(swift.interp(swift.get(0, samples, "count"), " step samples waiting for upload"))  --@ AppDelegate.swift:44
  end, true)  --@ AppDelegate.swift:45
end  --@ AppDelegate.swift:46
function T.AppDelegate:endBackgroundTask(taskID)  --@ AppDelegate.swift:48
  if not (swift.call(0, self.backgroundTasks, "contains", nil, taskID)) then  --@ AppDelegate.swift:49
    do return end  --@ AppDelegate.swift:49
  end  --@ AppDelegate.swift:49
  swift.call(0, self.backgroundTasks, "remove", nil, taskID)  --@ AppDelegate.swift:50
  swift.app:endBackgroundTask(taskID)  --@ AppDelegate.swift:51
end  --@ AppDelegate.swift:52
function T.AppDelegate:endAllBackgroundTasks()  --@ AppDelegate.swift:55
  for _, taskID in swift.iter(self.backgroundTasks) do  --@ AppDelegate.swift:56
    swift.app:endBackgroundTask(taskID)  --@ AppDelegate.swift:57
  end  --@ AppDelegate.swift:58
  swift.call(0, self.backgroundTasks, "removeAll", nil)  --@ AppDelegate.swift:59
end  --@ AppDelegate.swift:60
swift.memberwise(T.StepSample, { "from", "to", "steps" })  --@ StepJournal.swift:3
swift.fields(T.StepJournal, function(self)  --@ StepJournal.swift:10
  self.defaults = swift.userDefaults  --@ StepJournal.swift:11
  self.uploadedUntilKey = "steps.uploadedUntil"  --@ StepJournal.swift:12
  self.pedometer = swift.stubCall(3, nil)  --@ StepJournal.swift:13
  self.uploadedUntil = 0  --@ StepJournal.swift:14
end)  --@ StepJournal.swift:10
function T.StepJournal:restore()  --@ StepJournal.swift:16
  self.uploadedUntil = swift.defaultsGet(self.uploadedUntilKey, "double")  --@ StepJournal.swift:17
end  --@ StepJournal.swift:18
function T.StepJournal:collectPendingSamples()  --@ StepJournal.swift:20
  local now_ = (swift.now() + 1379462400)  --@ StepJournal.swift:21
  local __c5, __r6 = swift.doCatch(function()  --@ StepJournal.swift:22
    local steps = swift.call(4, self.pedometer, "stepCount", "stepCount_from", self.uploadedUntil, now_)  --@ StepJournal.swift:23
    do return swift.RETURN, swift.array({ swift.new(T.StepSample, "init", self.uploadedUntil, now_, steps) }) end  --@ StepJournal.swift:24
  end, function(__e)  --@ StepJournal.swift:25
    do  --@ StepJournal.swift:25
      local error_ = __e  --@ StepJournal.swift:25
      swift.print(swift.interp("Pedometer unavailable: ", error_))  --@ StepJournal.swift:26
      do return swift.RETURN, swift.array({  }) end  --@ StepJournal.swift:27
    end  --@ StepJournal.swift:28
  end)  --@ StepJournal.swift:28
  if __c5 == swift.RETURN then do return __r6 end end  --@ StepJournal.swift:22
end  --@ StepJournal.swift:29
function T.StepJournal:markUploaded(samples)  --@ StepJournal.swift:31
  local __ok7 = false  --@ StepJournal.swift:32
  local last  --@ StepJournal.swift:32
  last = swift.get(0, samples, "last")  --@ StepJournal.swift:32
  if last ~= nil then  --@ StepJournal.swift:32
    __ok7 = true  --@ StepJournal.swift:32
  end  --@ StepJournal.swift:32
  if not __ok7 then  --@ StepJournal.swift:32
    do return end  --@ StepJournal.swift:32
  end  --@ StepJournal.swift:32
  self.uploadedUntil = last.to  --@ StepJournal.swift:33
  swift.defaultsSet(self.uploadedUntilKey, self.uploadedUntil)  --@ StepJournal.swift:34
end  --@ StepJournal.swift:35

app {
  backgroundModes = {  },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:4
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:14
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:14
      end,  --@ AppDelegate.swift:14
      didEnterBackground = function(app)  --@ AppDelegate.swift:20
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:20
      end,  --@ AppDelegate.swift:20
      willEnterForeground = function(app)  --@ AppDelegate.swift:41
        appDelegate:applicationWillEnterForeground(app)  --@ AppDelegate.swift:41
      end,  --@ AppDelegate.swift:41
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
  ["StepsAPI.init"] = { },  -- AppDelegate.swift:9
  ["StepsAPI.upload"] = { },  -- AppDelegate.swift:32
  ["PedometerReader.init"] = { },  -- StepJournal.swift:13
  ["PedometerReader.stepCount"] = { },  -- StepJournal.swift:23
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "StepsAPI.init", "AppDelegate.swift:9" },
  { "StepsAPI.upload", "AppDelegate.swift:32", await = true, throws = true, fails = true },
  { "PedometerReader.init", "StepJournal.swift:13" },
  { "PedometerReader.stepCount", "StepJournal.swift:23", await = true, throws = true, fails = true },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "api.example-steps.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
