-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/combine_flush_observer/fixed` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AnalyticsController.swift
--   AppDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/combine_flush_observer/fixed
scenario { name = "Trailhead", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.FlushTrigger = swift.type("FlushTrigger", "enum")  --@ AnalyticsController.swift:4
T.AnalyticsController = swift.type("AnalyticsController", "class")  --@ AnalyticsController.swift:11
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window" })  --@ AppDelegate.swift:3
swift.enum(T.FlushTrigger, { { "timer", "timer" }, { "background", "background" }, { "terminate", "terminate" } })  --@ AnalyticsController.swift:4
swift.fields(T.AnalyticsController, function(self)  --@ AnalyticsController.swift:11
  self.client = swift.stubCall(1, nil, "pk_live_3f9a", "https://collect.example-metrics.com")  --@ AnalyticsController.swift:15
  self.cancellables = swift.set()  --@ AnalyticsController.swift:17
  self.pending = swift.array({  })  --@ AnalyticsController.swift:19
  self.flushTasks = swift.dict({})  --@ AnalyticsController.swift:20
  self.flushCount = 0  --@ AnalyticsController.swift:21
end)  --@ AnalyticsController.swift:11
swift.static(T.AnalyticsController, "shared", function() return swift.new(T.AnalyticsController, "init") end)  --@ AnalyticsController.swift:12
swift.static(T.AnalyticsController, "flushInterval", function() return 60 end)  --@ AnalyticsController.swift:13
swift.lazy(T.AnalyticsController, "suiteDefaults", function(self)  --@ AnalyticsController.swift:16
  return swift.userDefaults  --@ AnalyticsController.swift:16
end)  --@ AnalyticsController.swift:16
function T.AnalyticsController:init()  --@ AnalyticsController.swift:23
end  --@ AnalyticsController.swift:23
function T.AnalyticsController:start()  --@ AnalyticsController.swift:25
  self.pending = swift.coalesce(swift.optApply(self.suiteDefaults, function(__r) return swift.defaultsGet("analytics.unsent", "stringArray") end), function() return swift.array({  }) end)  --@ AnalyticsController.swift:26
  local center = swift.notificationCenter  --@ AnalyticsController.swift:27
  swift.call(0, swift.call(0, swift.publisher("UIApplicationDidBecomeActiveNotification"), "sink", nil, function(_)  --@ AnalyticsController.swift:28
    return swift.optCall(0, self, "startTimer", nil)  --@ AnalyticsController.swift:29
  end), "store", nil, self.cancellables)  --@ AnalyticsController.swift:29
  swift.call(0, swift.call(0, swift.publisher("UIApplicationWillResignActiveNotification"), "sink", nil, function(_)  --@ AnalyticsController.swift:31
    return swift.optCall(0, self, "stopTimer", nil)  --@ AnalyticsController.swift:32
  end), "store", nil, self.cancellables)  --@ AnalyticsController.swift:32
  swift.call(0, swift.call(0, swift.publisher("UIApplicationDidEnterBackgroundNotification"), "sink", nil, function(_)  --@ AnalyticsController.swift:34
    return swift.optCall(0, self, "flush", nil, T.FlushTrigger.background)  --@ AnalyticsController.swift:35
  end), "store", nil, self.cancellables)  --@ AnalyticsController.swift:35
  swift.call(0, swift.call(0, swift.publisher("UIApplicationWillTerminateNotification"), "sink", nil, function(_)  --@ AnalyticsController.swift:37
    return swift.optCall(0, self, "flush", nil, T.FlushTrigger.terminate)  --@ AnalyticsController.swift:38
  end), "store", nil, self.cancellables)  --@ AnalyticsController.swift:38
end  --@ AnalyticsController.swift:40
function T.AnalyticsController:track(name)  --@ AnalyticsController.swift:42
  swift.call(0, self.pending, "append", nil, swift.interp(name, "@", (swift.now() + 1379462400)))  --@ AnalyticsController.swift:43
end  --@ AnalyticsController.swift:44
function T.AnalyticsController:startTimer()  --@ AnalyticsController.swift:46
  swift.optApply(self.flushTimer, function(__r) return swift.invalidate(__r) end)  --@ AnalyticsController.swift:47
  self.flushTimer = swift.timer(T.AnalyticsController.flushInterval, true, function(_)  --@ AnalyticsController.swift:48
    return swift.optCall(0, self, "flush", nil, T.FlushTrigger.timer)  --@ AnalyticsController.swift:49
  end)  --@ AnalyticsController.swift:50
end  --@ AnalyticsController.swift:51
function T.AnalyticsController:stopTimer()  --@ AnalyticsController.swift:53
  swift.optApply(self.flushTimer, function(__r) return swift.invalidate(__r) end)  --@ AnalyticsController.swift:54
  self.flushTimer = nil  --@ AnalyticsController.swift:55
end  --@ AnalyticsController.swift:56
function T.AnalyticsController:flush(trigger)  --@ AnalyticsController.swift:58
  local batch = swift.copy(self.pending)  --@ AnalyticsController.swift:59
  swift.call(0, self.pending, "removeAll", nil)  --@ AnalyticsController.swift:60
  do  --@ AnalyticsController.swift:61
    local __s1 = trigger  --@ AnalyticsController.swift:61
    if swift.caseOf(__s1) == "timer" then  --@ AnalyticsController.swift:62
      swift.call(2, self.client, "send", "send_events", batch, function(error_)  --@ AnalyticsController.swift:63
        if error_ ~= nil then  --@ AnalyticsController.swift:64
          swift.optCall(0, swift.opt(self, "pending"), "append", "append_contentsOf", batch)  --@ AnalyticsController.swift:65
        end  --@ AnalyticsController.swift:66
      end)  --@ AnalyticsController.swift:67
    elseif swift.caseOf(__s1) == "background" then  --@ AnalyticsController.swift:68
      local flushID = self:beginFlushTask()  --@ AnalyticsController.swift:70
      swift.call(3, self.client, "send", "send_events", batch, function(error_)  --@ AnalyticsController.swift:71
        do  --@ AnalyticsController.swift:72
          local error__2 = error_  --@ AnalyticsController.swift:72
          if error__2 ~= nil then  --@ AnalyticsController.swift:72
            swift.print(swift.interp("Analytics flush (", trigger.rawValue, ") failed: ", error__2))  --@ AnalyticsController.swift:73
            swift.optCall(0, self, "keepForLater", nil, swift.copy(batch))  --@ AnalyticsController.swift:74
          end  --@ AnalyticsController.swift:75
        end  --@ AnalyticsController.swift:75
        swift.optCall(0, self, "endFlushTask", nil, flushID)  --@ AnalyticsController.swift:76
      end)  --@ AnalyticsController.swift:77
    elseif swift.caseOf(__s1) == "terminate" then  --@ AnalyticsController.swift:78
      self:keepForLater(swift.copy(batch))  --@ AnalyticsController.swift:80
    end  --@ AnalyticsController.swift:81
  end  --@ AnalyticsController.swift:81
end  --@ AnalyticsController.swift:82
function T.AnalyticsController:keepForLater(batch)  --@ AnalyticsController.swift:84
  swift.call(0, self.pending, "append", "append_contentsOf", batch)  --@ AnalyticsController.swift:85
  swift.optApply(self.suiteDefaults, function(__r) return swift.defaultsSet("analytics.unsent", self.pending) end)  --@ AnalyticsController.swift:86
end  --@ AnalyticsController.swift:87
function T.AnalyticsController:beginFlushTask()  --@ AnalyticsController.swift:89
  self.flushCount = swift.add(self.flushCount, 1)  --@ AnalyticsController.swift:90
  local flushID = self.flushCount  --@ AnalyticsController.swift:91
  swift.setIndex(self.flushTasks, flushID, swift.app:beginBackgroundTask("AnalyticsFlush", function()  --@ AnalyticsController.swift:92
    return swift.optCall(0, self, "endFlushTask", nil, flushID)  --@ AnalyticsController.swift:93
  end))  --@ AnalyticsController.swift:94
  do return flushID end  --@ AnalyticsController.swift:95
end  --@ AnalyticsController.swift:96
function T.AnalyticsController:endFlushTask(flushID)  --@ AnalyticsController.swift:98
  local __ok2 = false  --@ AnalyticsController.swift:99
  local taskID  --@ AnalyticsController.swift:99
  taskID = swift.call(0, self.flushTasks, "removeValue", "removeValue_forKey", flushID)  --@ AnalyticsController.swift:99
  if taskID ~= nil then  --@ AnalyticsController.swift:99
    if swift.ne(taskID, UIBackgroundTaskInvalid) then  --@ AnalyticsController.swift:99
      __ok2 = true  --@ AnalyticsController.swift:99
    end  --@ AnalyticsController.swift:99
  end  --@ AnalyticsController.swift:99
  if not __ok2 then  --@ AnalyticsController.swift:99
    do return end  --@ AnalyticsController.swift:99
  end  --@ AnalyticsController.swift:99
  swift.app:endBackgroundTask(taskID)  --@ AnalyticsController.swift:100
end  --@ AnalyticsController.swift:101
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:8
  T.AnalyticsController.shared:start()  --@ AppDelegate.swift:10
  T.AnalyticsController.shared:track("app_launch")  --@ AppDelegate.swift:11
  do return true end  --@ AppDelegate.swift:12
end  --@ AppDelegate.swift:13
function T.AppDelegate:applicationDidBecomeActive(application)  --@ AppDelegate.swift:15
  T.AnalyticsController.shared:track("app_active")  --@ AppDelegate.swift:16
end  --@ AppDelegate.swift:17
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:19
  T.AnalyticsController.shared:track("app_background")  --@ AppDelegate.swift:20
end  --@ AppDelegate.swift:21

app {
  backgroundModes = {  },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:8
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:8
      end,  --@ AppDelegate.swift:8
      didBecomeActive = function(app)  --@ AppDelegate.swift:15
        appDelegate:applicationDidBecomeActive(app)  --@ AppDelegate.swift:15
      end,  --@ AppDelegate.swift:15
      didEnterBackground = function(app)  --@ AppDelegate.swift:19
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:19
      end,  --@ AppDelegate.swift:19
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
  ["TelemetryClient.init"] = { },  -- AnalyticsController.swift:15
  ["TelemetryClient.send"] = { },  -- AnalyticsController.swift:63 (+1 more)
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "TelemetryClient.init", "AnalyticsController.swift:15" },
  { "TelemetryClient.send", "AnalyticsController.swift:63", fails = true, closures = { [2] = { index = 2, params = 1, kinds = { "error" } } } },
  { "TelemetryClient.send", "AnalyticsController.swift:71", fails = true, closures = { [2] = { index = 2, params = 1, kinds = { "error" } } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "collect.example-metrics.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
