-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/poll_export_status/fixed` (luafetch 0.1.0) from 1 Swift file and Info.plist:
--   AppDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/poll_export_status/fixed
scenario { name = "Clips", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window", "exportTask" })  --@ AppDelegate.swift:3
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:3
  self.exportTask = UIBackgroundTaskInvalid  --@ AppDelegate.swift:7
end)  --@ AppDelegate.swift:3
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:9
  do return true end  --@ AppDelegate.swift:11
end  --@ AppDelegate.swift:12
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:14
  if swift.ne(self.exportTask, UIBackgroundTaskInvalid) then  --@ AppDelegate.swift:15
    do return end  --@ AppDelegate.swift:15
  end  --@ AppDelegate.swift:15
  self.exportTask = application:beginBackgroundTask("export", function()  --@ AppDelegate.swift:16
    swift.print("The export ran out of time; it resumes at the next launch")  --@ AppDelegate.swift:17
    self:endExportTask()  --@ AppDelegate.swift:18
  end)  --@ AppDelegate.swift:19
  dispatch.global(function()  --@ AppDelegate.swift:20
    local exporter = swift.opaque("VideoExporter")  --@ AppDelegate.swift:21
    swift.call(1, exporter, "start", nil)  --@ AppDelegate.swift:22
    local polls = 0  --@ AppDelegate.swift:23
    local __loop1 = swift.loop()  --@ AppDelegate.swift:25
    while true do  --@ AppDelegate.swift:25
      local __ok2 = false  --@ AppDelegate.swift:25
      swift.loopEnter(__loop1)  --@ AppDelegate.swift:25
      do  --@ AppDelegate.swift:25
        if not (swift.get(2, exporter, "isFinished")) then  --@ AppDelegate.swift:25
          if swift.loopCondition(__loop1, true) then  --@ AppDelegate.swift:25
            __ok2 = true  --@ AppDelegate.swift:25
            do  --@ AppDelegate.swift:25
              work(8)  --@ AppDelegate.swift:26
              polls = swift.add(polls, 1)  --@ AppDelegate.swift:27
            end  --@ AppDelegate.swift:28
          end  --@ AppDelegate.swift:25
        end  --@ AppDelegate.swift:25
      end  --@ AppDelegate.swift:25
      if not __ok2 then break end  --@ AppDelegate.swift:25
    end  --@ AppDelegate.swift:28
    swift.print(swift.interp("Export finished after ", polls, " polls"))  --@ AppDelegate.swift:29
    dispatch.main(function()  --@ AppDelegate.swift:30
      return self:endExportTask()  --@ AppDelegate.swift:30
    end)  --@ AppDelegate.swift:30
  end)  --@ AppDelegate.swift:31
end  --@ AppDelegate.swift:32
function T.AppDelegate:endExportTask()  --@ AppDelegate.swift:34
  if swift.eq(self.exportTask, UIBackgroundTaskInvalid) then  --@ AppDelegate.swift:35
    do return end  --@ AppDelegate.swift:35
  end  --@ AppDelegate.swift:35
  swift.app:endBackgroundTask(self.exportTask)  --@ AppDelegate.swift:36
  self.exportTask = UIBackgroundTaskInvalid  --@ AppDelegate.swift:37
end  --@ AppDelegate.swift:38

app {
  backgroundModes = { "fetch" },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:9
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:9
      end,  --@ AppDelegate.swift:9
      didEnterBackground = function(app)  --@ AppDelegate.swift:14
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:14
      end,  --@ AppDelegate.swift:14
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
  ["VideoExporter.start"] = { },  -- AppDelegate.swift:22
  ["VideoExporter.isFinished"] = { },  -- AppDelegate.swift:25
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "VideoExporter.start", "AppDelegate.swift:22" },
  { "VideoExporter.isFinished", "AppDelegate.swift:25", bool = true },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
