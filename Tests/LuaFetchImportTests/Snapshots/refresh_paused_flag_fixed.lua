-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/refresh_paused_flag/fixed` (luafetch 0.1.0) from 1 Swift file and Info.plist:
--   AppDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/refresh_paused_flag/fixed
scenario { name = "Photos", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window", "uploader" })  --@ AppDelegate.swift:4
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:4
  self.uploader = swift.opaque("PhotoUploader")  --@ AppDelegate.swift:10
end)  --@ AppDelegate.swift:4
swift.static(T.AppDelegate, "refreshIdentifier", function() return "com.example.photos.upload" end)  --@ AppDelegate.swift:7
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:12
  BGTaskScheduler.register(T.AppDelegate.refreshIdentifier, function(task)  --@ AppDelegate.swift:14
    return self:handleUpload(task)  --@ AppDelegate.swift:15
  end)  --@ AppDelegate.swift:16
  do return true end  --@ AppDelegate.swift:17
end  --@ AppDelegate.swift:18
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:20
  self:scheduleUpload()  --@ AppDelegate.swift:21
end  --@ AppDelegate.swift:22
function T.AppDelegate:scheduleUpload()  --@ AppDelegate.swift:24
  local request = BGAppRefreshTaskRequest(T.AppDelegate.refreshIdentifier)  --@ AppDelegate.swift:25
  request.earliestBeginDate = swift.now() + (swift.mul(15, 60))  --@ AppDelegate.swift:26
  local __c1, __r2 = swift.doCatch(function()  --@ AppDelegate.swift:27
    swift.bgSubmit(request)  --@ AppDelegate.swift:28
  end, function(__e)  --@ AppDelegate.swift:29
    do  --@ AppDelegate.swift:29
      local error_ = __e  --@ AppDelegate.swift:29
      swift.print(swift.interp("Could not schedule the upload: ", error_))  --@ AppDelegate.swift:30
      do return nil end  --@ AppDelegate.swift:31
    end  --@ AppDelegate.swift:31
  end)  --@ AppDelegate.swift:31
  if __c1 == swift.RETURN then do return __r2 end end  --@ AppDelegate.swift:27
end  --@ AppDelegate.swift:32
function T.AppDelegate:handleUpload(task)  --@ AppDelegate.swift:34
  self:scheduleUpload()  --@ AppDelegate.swift:35
  if swift.get(1, self.uploader, "isPaused") then  --@ AppDelegate.swift:36
    task:setTaskCompleted(true)  --@ AppDelegate.swift:38
    do return end  --@ AppDelegate.swift:39
  end  --@ AppDelegate.swift:40
  local completed = false  --@ AppDelegate.swift:41
  local complete = function(success)  --@ AppDelegate.swift:42
    if completed then  --@ AppDelegate.swift:43
      do return end  --@ AppDelegate.swift:43
    end  --@ AppDelegate.swift:43
    completed = true  --@ AppDelegate.swift:44
    task:setTaskCompleted(success)  --@ AppDelegate.swift:45
  end  --@ AppDelegate.swift:46
  task.expirationHandler = function()  --@ AppDelegate.swift:47
    swift.call(2, self.uploader, "cancelAll", nil)  --@ AppDelegate.swift:48
    complete(false)  --@ AppDelegate.swift:49
  end  --@ AppDelegate.swift:50
  swift.call(3, self.uploader, "uploadPending", nil, function(uploaded)  --@ AppDelegate.swift:51
    swift.print(swift.interp("Uploaded ", uploaded, " photos"))  --@ AppDelegate.swift:52
    complete(true)  --@ AppDelegate.swift:53
  end)  --@ AppDelegate.swift:54
end  --@ AppDelegate.swift:55

app {
  backgroundModes = { "fetch" },
  permittedIdentifiers = { "com.example.photos.upload" },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:4
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:12
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:12
      end,  --@ AppDelegate.swift:12
      didEnterBackground = function(app)  --@ AppDelegate.swift:20
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:20
      end,  --@ AppDelegate.swift:20
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
  ["PhotoUploader.isPaused"] = { },  -- AppDelegate.swift:36
  ["PhotoUploader.cancelAll"] = { },  -- AppDelegate.swift:48
  ["PhotoUploader.uploadPending"] = { },  -- AppDelegate.swift:51
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "PhotoUploader.isPaused", "AppDelegate.swift:36", bool = true },
  { "PhotoUploader.cancelAll", "AppDelegate.swift:48" },
  { "PhotoUploader.uploadPending", "AppDelegate.swift:51", closures = { [1] = { index = 1, params = 1 } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
