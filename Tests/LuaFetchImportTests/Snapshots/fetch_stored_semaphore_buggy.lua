-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/fetch_stored_semaphore/buggy` (luafetch 0.1.0) from 1 Swift file and Info.plist:
--   AppDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/fetch_stored_semaphore/buggy
scenario { name = "Mail", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window" })  --@ AppDelegate.swift:3
function T.AppDelegate:application_didFinishLaunchingWithOptions(application, launchOptions)  --@ AppDelegate.swift:8
  application:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)  --@ AppDelegate.swift:10
  do return true end  --@ AppDelegate.swift:11
end  --@ AppDelegate.swift:12
function T.AppDelegate:application_performFetchWithCompletionHandler(application, completionHandler)  --@ AppDelegate.swift:14
  dispatch.global(function()  --@ AppDelegate.swift:16
    local session = swift.opaque("MailSession")  --@ AppDelegate.swift:17
    swift.setMember(session, "readySignal", dispatch.semaphore(0))  --@ AppDelegate.swift:19
    swift.call(1, session, "connect", nil)  --@ AppDelegate.swift:20
    local _ = swift.optCall(3, swift.get(2, session, "readySignal"), "wait", "wait_timeout", swift.add(now(), 60))  --@ AppDelegate.swift:21
    swift.call(4, swift.opaque("MailClient"), "fetchNewMessages", nil, function(count)  --@ AppDelegate.swift:22
      return completionHandler((function() if swift.gt(count, 0) then return swift.case("newData") end return swift.case("noData") end)())  --@ AppDelegate.swift:23
    end)  --@ AppDelegate.swift:24
  end)  --@ AppDelegate.swift:25
end  --@ AppDelegate.swift:26

app {
  backgroundModes = { "fetch" },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:8
        appDelegate:application_didFinishLaunchingWithOptions(app, swift.launchOptions(launch))  --@ AppDelegate.swift:8
      end,  --@ AppDelegate.swift:8
      performFetch = function(app, completionHandler)  --@ AppDelegate.swift:14
        appDelegate:application_performFetchWithCompletionHandler(app, swift.completion(completionHandler))  --@ AppDelegate.swift:14
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
  ["MailSession.connect"] = { },  -- AppDelegate.swift:20
  ["MailSession.readySignal"] = { },  -- AppDelegate.swift:21
  ["MailSession.readySignal.wait"] = { },  -- AppDelegate.swift:21
  ["MailClient.fetchNewMessages"] = { },  -- AppDelegate.swift:22
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "MailSession.connect", "AppDelegate.swift:20" },
  { "MailSession.readySignal", "AppDelegate.swift:21", opt = true },
  { "MailSession.readySignal.wait", "AppDelegate.swift:21" },
  { "MailClient.fetchNewMessages", "AppDelegate.swift:22", closures = { [1] = { index = 1, params = 1 } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
