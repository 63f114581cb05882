-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/bgtask_feed_submits/fixed` (luafetch 0.1.0) from 1 Swift file and Info.plist:
--   AppDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/bgtask_feed_submits/fixed
scenario { name = "Newsstand", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window" })  --@ AppDelegate.swift:4
swift.static(T.AppDelegate, "feeds", function() return swift.array({ "top", "world", "sport", "tech", "science", "culture" }) end)  --@ AppDelegate.swift:8
swift.static(T.AppDelegate, "refreshIdentifier", function() return "com.example.newsstand.refresh" end)  --@ AppDelegate.swift:9
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:13
  BGTaskScheduler.register(T.AppDelegate.refreshIdentifier, function(task)  --@ AppDelegate.swift:15
    return self:handleRefresh(task)  --@ AppDelegate.swift:17
  end)  --@ AppDelegate.swift:18
  do return true end  --@ AppDelegate.swift:19
end  --@ AppDelegate.swift:20
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:22
  self:scheduleRefresh()  --@ AppDelegate.swift:23
end  --@ AppDelegate.swift:24
function T.AppDelegate:scheduleRefresh()  --@ AppDelegate.swift:27
  local request = BGAppRefreshTaskRequest(T.AppDelegate.refreshIdentifier)  --@ AppDelegate.swift:28
  request.earliestBeginDate = swift.now() + (swift.mul(30, 60))  --@ AppDelegate.swift:29
  local __c1, __r2 = swift.doCatch(function()  --@ AppDelegate.swift:30
    swift.bgSubmit(request)  --@ AppDelegate.swift:31
  end, function(__e)  --@ AppDelegate.swift:32
    do  --@ AppDelegate.swift:32
      local error_ = __e  --@ AppDelegate.swift:32
      swift.print(swift.interp("Could not schedule the feed refresh: ", error_))  --@ AppDelegate.swift:33
      do return nil end  --@ AppDelegate.swift:34
    end  --@ AppDelegate.swift:34
  end)  --@ AppDelegate.swift:34
  if __c1 == swift.RETURN then do return __r2 end end  --@ AppDelegate.swift:30
end  --@ AppDelegate.swift:35
function T.AppDelegate:handleRefresh(task)  --@ AppDelegate.swift:37
  self:scheduleRefresh()  --@ AppDelegate.swift:38
  for _, feed in swift.iter(T.AppDelegate.feeds) do  --@ AppDelegate.swift:39
    swift.call(1, swift.opaque("FeedCache"), "markStale", nil, feed)  --@ AppDelegate.swift:40
  end  --@ AppDelegate.swift:41
  swift.print("Marked every feed stale")  --@ AppDelegate.swift:42
  task:setTaskCompleted(true)  --@ AppDelegate.swift:43
end  --@ AppDelegate.swift:44

app {
  backgroundModes = { "fetch" },
  permittedIdentifiers = { "com.example.newsstand.refresh" },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:4
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:13
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:13
      end,  --@ AppDelegate.swift:13
      didEnterBackground = function(app)  --@ AppDelegate.swift:22
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:22
      end,  --@ AppDelegate.swift:22
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
  ["FeedCache.markStale"] = { },  -- AppDelegate.swift:40
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "FeedCache.markStale", "AppDelegate.swift:40" },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
