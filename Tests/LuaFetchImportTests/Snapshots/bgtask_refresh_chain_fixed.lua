-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/bgtask_refresh_chain/fixed` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   FeedRefresher.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/bgtask_refresh_chain/fixed
scenario { name = "Reader", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window" })  --@ AppDelegate.swift:4
T.FeedRefresher = swift.type("FeedRefresher", "class")  --@ FeedRefresher.swift:4
swift.static(T.AppDelegate, "refreshTaskIdentifier", function() return "com.example.reader.refresh" end)  --@ AppDelegate.swift:7
swift.static(T.AppDelegate, "refreshInterval", function() return swift.mul(20, 60) end)  --@ AppDelegate.swift:9
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:13
  BGTaskScheduler.register(T.AppDelegate.refreshTaskIdentifier, function(task)  --@ AppDelegate.swift:15
    return self:handleAppRefresh(task)  --@ AppDelegate.swift:17
  end, "main")  --@ AppDelegate.swift:18
  do return true end  --@ AppDelegate.swift:19
end  --@ AppDelegate.swift:20
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:22
  self:scheduleAppRefresh()  --@ AppDelegate.swift:23
end  --@ AppDelegate.swift:24
function T.AppDelegate:scheduleAppRefresh()  --@ AppDelegate.swift:26
  local request = BGAppRefreshTaskRequest(T.AppDelegate.refreshTaskIdentifier)  --@ AppDelegate.swift:27
  request.earliestBeginDate = swift.now() + T.AppDelegate.refreshInterval  --@ AppDelegate.swift:28
  local __c1, __r2 = swift.doCatch(function()  --@ AppDelegate.swift:29
    swift.bgSubmit(request)  --@ AppDelegate.swift:30
    swift.print("Scheduled the next feed refresh")  --@ AppDelegate.swift:31
  end, function(__e)  --@ AppDelegate.swift:32
    do  --@ AppDelegate.swift:32
      local error_ = __e  --@ AppDelegate.swift:32
      swift.print(swift.interp("Could not schedule the feed refresh: ", error_))  --@ AppDelegate.swift:33
      do return nil end  --@ AppDelegate.swift:34
    end  --@ AppDelegate.swift:34
  end)  --@ AppDelegate.swift:34
  if __c1 == swift.RETURN then do return __r2 end end  --@ AppDelegate.swift:29
end  --@ AppDelegate.swift:35
function T.AppDelegate:handleAppRefresh(task)  --@ AppDelegate.swift:37
  self:scheduleAppRefresh()  --@ AppDelegate.swift:39
  local refresher = swift.new(T.FeedRefresher, "init")  --@ AppDelegate.swift:41
  task.expirationHandler = function()  --@ AppDelegate.swift:42
    return refresher:cancel()  --@ AppDelegate.swift:44
  end  --@ AppDelegate.swift:45
  local __ok3 = false  --@ AppDelegate.swift:47
  local account  --@ AppDelegate.swift:47
  account = swift.get(1, swift.opaque("AccountStore"), "currentAccount")  --@ AppDelegate.swift:47
  if account ~= nil then  --@ AppDelegate.swift:47
    __ok3 = true  --@ AppDelegate.swift:47
  end  --@ AppDelegate.swift:47
  if not __ok3 then  --@ AppDelegate.swift:47
    swift.print("Feed refresh skipped: nobody is signed in")  --@ AppDelegate.swift:48
    task:setTaskCompleted(false)  --@ AppDelegate.swift:49
    do return end  --@ AppDelegate.swift:50
  end  --@ AppDelegate.swift:51
  refresher:start(account, function(success)  --@ AppDelegate.swift:53
    swift.print(swift.interp("Feed refresh finished, success: ", success))  --@ AppDelegate.swift:54
    task:setTaskCompleted(success)  --@ AppDelegate.swift:55
  end)  --@ AppDelegate.swift:56
end  --@ AppDelegate.swift:57
swift.fields(T.FeedRefresher, function(self)  --@ FeedRefresher.swift:4
  self.client = swift.stubCall(2, nil, "https://feeds.example-reader.com")  --@ FeedRefresher.swift:5
  self.defaults = swift.userDefaults  --@ FeedRefresher.swift:6
  self.isCancelled = false  --@ FeedRefresher.swift:8
end)  --@ FeedRefresher.swift:4
function T.FeedRefresher:start(account, completion)  --@ FeedRefresher.swift:10
  self.completion = completion  --@ FeedRefresher.swift:11
  local since = swift.coalesce(swift.optApply(self.defaults, function(__r) return swift.defaultsGet("feed.lastRefresh", "double") end), function() return 0 end)  --@ FeedRefresher.swift:12
  swift.call(5, self.client, "fetchArticles", "fetchArticles_for", swift.get(3, account, "identifier"), since, function(articles, error_)  --@ FeedRefresher.swift:13
    do  --@ FeedRefresher.swift:14
      local error__2 = error_  --@ FeedRefresher.swift:14
      if error__2 ~= nil then  --@ FeedRefresher.swift:14
        swift.print(swift.interp("Feed refresh failed: ", error__2))  --@ FeedRefresher.swift:15
        swift.optCall(0, self, "finish", nil, false)  --@ FeedRefresher.swift:16
        do return end  --@ FeedRefresher.swift:17
      end  --@ FeedRefresher.swift:18
    end  --@ FeedRefresher.swift:18
    swift.print(swift.interp("Fetched ", swift.get(4, articles, "count"), " new articles"))  --@ FeedRefresher.swift:19
    swift.optApply(swift.opt(self, "defaults"), function(__r) return swift.defaultsSet("feed.lastRefresh", (swift.now() + 1379462400)) end)  --@ FeedRefresher.swift:20
    swift.optCall(0, self, "finish", nil, true)  --@ FeedRefresher.swift:21
  end)  --@ FeedRefresher.swift:22
end  --@ FeedRefresher.swift:23
function T.FeedRefresher:cancel()  --@ FeedRefresher.swift:25
  self.isCancelled = true  --@ FeedRefresher.swift:26
  swift.call(6, self.client, "cancelAllRequests", nil)  --@ FeedRefresher.swift:27
  self:finish(false)  --@ FeedRefresher.swift:28
end  --@ FeedRefresher.swift:29
function T.FeedRefresher:finish(success)  --@ FeedRefresher.swift:32
  local __ok4 = false  --@ FeedRefresher.swift:33
  local completion  --@ FeedRefresher.swift:33
  completion = self.completion  --@ FeedRefresher.swift:33
  if completion ~= nil then  --@ FeedRefresher.swift:33
    __ok4 = true  --@ FeedRefresher.swift:33
  end  --@ FeedRefresher.swift:33
  if not __ok4 then  --@ FeedRefresher.swift:33
    do return end  --@ FeedRefresher.swift:33
  end  --@ FeedRefresher.swift:33
  self.completion = nil  --@ FeedRefresher.swift:34
  completion(success and (not self.isCancelled))  --@ FeedRefresher.swift:35
end  --@ FeedRefresher.swift:36

app {
  backgroundModes = { "fetch" },
  permittedIdentifiers = { "com.example.reader.refresh" },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:4
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
  ["AccountStore.currentAccount"] = { },  -- AppDelegate.swift:47
  ["FeedClient.init"] = { },  -- FeedRefresher.swift:5
  ["Account.identifier"] = { },  -- FeedRefresher.swift:13
  ["articles.count"] = { },  -- FeedRefresher.swift:19
  ["FeedClient.fetchArticles"] = { },  -- FeedRefresher.swift:13
  ["FeedClient.cancelAllRequests"] = { },  -- FeedRefresher.swift:27
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "AccountStore.currentAccount", "AppDelegate.swift:47", opt = true },
  { "FeedClient.init", "FeedRefresher.swift:5" },
  { "Account.identifier", "FeedRefresher.swift:13" },
  { "articles.count", "FeedRefresher.swift:19" },
  { "FeedClient.fetchArticles", "FeedRefresher.swift:13", fails = true, closures = { [3] = { index = 3, params = 2, kinds = { false, "error" } } } },
  { "FeedClient.cancelAllRequests", "FeedRefresher.swift:27" },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "feeds.example-reader.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
