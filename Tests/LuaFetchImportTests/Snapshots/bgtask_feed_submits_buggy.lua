-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/bgtask_feed_submits/buggy` (luafetch 0.1.0) from 1 Swift file and Info.plist:
--   AppDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/bgtask_feed_submits/buggy
scenario { name = "Newsstand", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window" })  --@ AppDelegate.swift:4
swift.static(T.AppDelegate, "feeds", function() return swift.array({ "top", "world", "sport", "tech", "science", "culture" }) end)  --@ AppDelegate.swift:8
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:12
  for _, feed in swift.iter(T.AppDelegate.feeds) do  --@ AppDelegate.swift:14
    BGTaskScheduler.register(swift.interp("com.example.newsstand.refresh.", feed), function(task)  --@ AppDelegate.swift:15
      return self:handleRefresh(task, feed)  --@ AppDelegate.swift:17
    end)  --@ AppDelegate.swift:18
  end  --@ AppDelegate.swift:19
  do return true end  --@ AppDelegate.swift:20
end  --@ AppDelegate.swift:21
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:23
  self:scheduleRefreshes()  --@ AppDelegate.swift:24
end  --@ AppDelegate.swift:25
function T.AppDelegate:scheduleRefreshes()  --@ AppDelegate.swift:28
  for _, feed in swift.iter(T.AppDelegate.feeds) do  --@ AppDelegate.swift:29
    local request = BGAppRefreshTaskRequest(swift.interp("com.example.newsstand.refresh.", feed))  --@ AppDelegate.swift:30
    request.earliestBeginDate = swift.now() + (swift.mul(30, 60))  --@ AppDelegate.swift:31
    local __c1, __r2 = swift.doCatch(function()  --@ AppDelegate.swift:32
      swift.bgSubmit(request)  --@ AppDelegate.swift:33
    end, function(__e)  --@ AppDelegate.swift:34
      do  --@ AppDelegate.swift:34
        local error_ = __e  --@ AppDelegate.swift:34
        swift.print(swift.interp("Could not schedule the ", feed, " refresh: ", error_))  --@ AppDelegate.swift:35
        do return nil end  --@ AppDelegate.swift:36
      end  --@ AppDelegate.swift:36
    end)  --@ AppDelegate.swift:36
    if __c1 == swift.RETURN then do return __r2 end end  --@ AppDelegate.swift:32
    if __c1 == "continue:2" then goto cont_2 end  --@ AppDelegate.swift:32
    if __c1 == "break:2" then goto cont_2_break end  --@ AppDelegate.swift:32
    ::cont_2::  --@ AppDelegate.swift:37
  end  --@ AppDelegate.swift:37
  ::cont_2_break::  --@ AppDelegate.swift:37
end  --@ AppDelegate.swift:38
function T.AppDelegate:handleRefresh(task, feed)  --@ AppDelegate.swift:40
  swift.call(1, swift.opaque("FeedCache"), "markStale", nil, feed)  --@ AppDelegate.swift:41
  swift.print(swift.interp("Marked the ", feed, " feed stale"))  --@ AppDelegate.swift:42
  task:setTaskCompleted(true)  --@ AppDelegate.swift:43
end  --@ AppDelegate.swift:44

app {
  backgroundModes = { "fetch" },
  permittedIdentifiers = { "com.example.newsstand.refresh.top", "com.example.newsstand.refresh.world", "com.example.newsstand.refresh.sport", "com.example.newsstand.refresh.tech", "com.example.newsstand.refresh.science", "com.example.newsstand.refresh.culture" },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:4
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:12
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:12
      end,  --@ AppDelegate.swift:12
      didEnterBackground = function(app)  --@ AppDelegate.swift:23
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:23
      end,  --@ AppDelegate.swift:23
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
  ["FeedCache.markStale"] = { },  -- AppDelegate.swift:41
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "FeedCache.markStale", "AppDelegate.swift:41" },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
