-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/legacy_fetch/buggy` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   ForecastLoader.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/legacy_fetch/buggy
scenario { name = "Forecast", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window", "keychain", "loader" })  --@ AppDelegate.swift:3
T.RefreshOutcome = swift.type("RefreshOutcome", "enum")  --@ ForecastLoader.swift:3
T.ForecastLoader = swift.type("ForecastLoader", "class")  --@ ForecastLoader.swift:10
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:3
  self.keychain = swift.stubCall(1, nil)  --@ AppDelegate.swift:8
  self.loader = swift.new(T.ForecastLoader, "init")  --@ AppDelegate.swift:9
end)  --@ AppDelegate.swift:3
function T.AppDelegate:application_didFinishLaunchingWithOptions(application, launchOptions)  --@ AppDelegate.swift:11
  application:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)  --@ AppDelegate.swift:13
  do return true end  --@ AppDelegate.swift:14
end  --@ AppDelegate.swift:15
function T.AppDelegate:applicationWillEnterForeground(application)  --@ AppDelegate.swift:17
  local __ok1 = false  --@ AppDelegate.swift:18
  local token  --@ AppDelegate.swift:18
  token = swift.call(2, self.keychain, "get", nil, "forecast.authToken")  --@ AppDelegate.swift:18
  if token ~= nil then  --@ AppDelegate.swift:18
    __ok1 = true  --@ AppDelegate.swift:18
  end  --@ AppDelegate.swift:18
  if not __ok1 then  --@ AppDelegate.swift:18
    do return end  --@ AppDelegate.swift:18
  end  --@ AppDelegate.swift:18
  self.loader:refresh(token, function(outcome)  --@ AppDelegate.swift:19
    return swift.print(swift.interp("Foreground refresh: ", outcome.rawValue))  --@ AppDelegate.swift:20
  end)  --@ AppDelegate.swift:21
end  --@ AppDelegate.swift:22
function T.AppDelegate:application_performFetchWithCompletionHandler(application, completionHandler)  --@ AppDelegate.swift:25
  local __ok2 = false  --@ AppDelegate.swift:27
  local token  --@ AppDelegate.swift:27
  token = swift.call(3, self.keychain, "get", nil, "forecast.authToken")  --@ AppDelegate.swift:27
  if token ~= nil then  --@ AppDelegate.swift:27
    __ok2 = true  --@ AppDelegate.swift:27
  end  --@ AppDelegate.swift:27
  if not __ok2 then  --@ AppDelegate.swift:27
    swift.print("Background fetch skipped: not signed in")  --@ AppDelegate.swift:28
    do return end  --@ AppDelegate.swift:29
  end  --@ AppDelegate.swift:30
  self.loader:refresh(token, function(outcome)  --@ AppDelegate.swift:31
    do  --@ AppDelegate.swift:32
      local __s3 = outcome  --@ AppDelegate.swift:32
      if swift.caseOf(__s3) == "updated" then  --@ AppDelegate.swift:33
        do return completionHandler(swift.case("newData")) end  --@ AppDelegate.swift:34
      elseif swift.caseOf(__s3) == "unchanged" then  --@ AppDelegate.swift:35
        do return completionHandler(swift.case("noData")) end  --@ AppDelegate.swift:36
      elseif swift.caseOf(__s3) == "failed" then  --@ AppDelegate.swift:37
        do return completionHandler(swift.case("failed")) end  --@ AppDelegate.swift:38
      end  --@ AppDelegate.swift:39
    end  --@ AppDelegate.swift:39
  end)  --@ AppDelegate.swift:40
end  --@ AppDelegate.swift:41
swift.enum(T.RefreshOutcome, { { "updated", "updated" }, { "unchanged", "unchanged" }, { "failed", "failed" } })  --@ ForecastLoader.swift:3
swift.fields(T.ForecastLoader, function(self)  --@ ForecastLoader.swift:10
  self.client = swift.stubCall(4, nil, "https://api.example-weather.com", 20)  --@ ForecastLoader.swift:11
  self.defaults = swift.userDefaults  --@ ForecastLoader.swift:12
end)  --@ ForecastLoader.swift:10
swift.computed(T.ForecastLoader, "city", function(self)  --@ ForecastLoader.swift:15
  do return swift.coalesce(swift.optApply(self.defaults, function(__r) return swift.defaultsGet("forecast.city", "string") end), function() return "Lisbon" end) end  --@ ForecastLoader.swift:16
end)  --@ ForecastLoader.swift:17
function T.ForecastLoader:refresh(token, completion)  --@ ForecastLoader.swift:19
  swift.call(7, self.client, "forecast", "forecast_for", self.city, token, function(forecast, error_)  --@ ForecastLoader.swift:20
    local __ok4 = false  --@ ForecastLoader.swift:21
    local self_  --@ ForecastLoader.swift:21
    self_ = self  --@ ForecastLoader.swift:21
    if self_ ~= nil then  --@ ForecastLoader.swift:21
      __ok4 = true  --@ ForecastLoader.swift:21
    end  --@ ForecastLoader.swift:21
    if not __ok4 then  --@ ForecastLoader.swift:21
      completion(swift.case("failed"))  --@ ForecastLoader.swift:22
      do return end  --@ ForecastLoader.swift:23
    end  --@ ForecastLoader.swift:24
    do  --@ ForecastLoader.swift:25
      local error__2 = error_  --@ ForecastLoader.swift:25
      if error__2 ~= nil then  --@ ForecastLoader.swift:25
        swift.print(swift.interp("Forecast request failed: ", error__2))  --@ ForecastLoader.swift:26
        completion(swift.case("failed"))  --@ ForecastLoader.swift:27
        do return end  --@ ForecastLoader.swift:28
      end  --@ ForecastLoader.swift:29
    end  --@ ForecastLoader.swift:29
    local __ok5 = false  --@ ForecastLoader.swift:30
    local forecast_2  --@ ForecastLoader.swift:30
    forecast_2 = forecast  --@ ForecastLoader.swift:30
    if forecast_2 ~= nil then  --@ ForecastLoader.swift:30
      __ok5 = true  --@ ForecastLoader.swift:30
    end  --@ ForecastLoader.swift:30
    if not __ok5 then  --@ ForecastLoader.swift:30
      completion(swift.case("unchanged"))  --@ ForecastLoader.swift:31
      do return end  --@ ForecastLoader.swift:32
    end  --@ ForecastLoader.swift:33
    local changed = swift.ne(swift.get(5, forecast_2, "issuedAt"), self.lastIssuedAt)  --@ ForecastLoader.swift:34
    self.lastIssuedAt = swift.get(6, forecast_2, "issuedAt")  --@ ForecastLoader.swift:35
    swift.optApply(self.defaults, function(__r) return swift.defaultsSet("forecast.lastFetch", (swift.now() + 1379462400)) end)  --@ ForecastLoader.swift:36
    completion((function() if changed then return swift.case("updated") end return swift.case("unchanged") end)())  --@ ForecastLoader.swift:37
  end)  --@ ForecastLoader.swift:38
end  --@ ForecastLoader.swift:39

app {
  backgroundModes = { "fetch" },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:11
        appDelegate:application_didFinishLaunchingWithOptions(app, swift.launchOptions(launch))  --@ AppDelegate.swift:11
      end,  --@ AppDelegate.swift:11
      willEnterForeground = function(app)  --@ AppDelegate.swift:17
        appDelegate:applicationWillEnterForeground(app)  --@ AppDelegate.swift:17
      end,  --@ AppDelegate.swift:17
      performFetch = function(app, completionHandler)  --@ AppDelegate.swift:25
        appDelegate:application_performFetchWithCompletionHandler(app, swift.completion(completionHandler))  --@ AppDelegate.swift:25
      end,  --@ AppDelegate.swift:25
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
  ["KeychainSwift.init"] = { },  -- AppDelegate.swift:8
  ["KeychainSwift.get"] = { },  -- AppDelegate.swift:18 (+1 more)
  ["WeatherClient.init"] = { },  -- ForecastLoader.swift:11
  ["forecast.issuedAt"] = { },  -- ForecastLoader.swift:34 (+1 more)
  ["WeatherClient.forecast"] = { },  -- ForecastLoader.swift:20
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "KeychainSwift.init", "AppDelegate.swift:8" },
  { "KeychainSwift.get", "AppDelegate.swift:18", opt = true },
  { "KeychainSwift.get", "AppDelegate.swift:27", opt = true },
  { "WeatherClient.init", "ForecastLoader.swift:11" },
  { "forecast.issuedAt", "ForecastLoader.swift:34" },
  { "forecast.issuedAt", "ForecastLoader.swift:35" },
  { "WeatherClient.forecast", "ForecastLoader.swift:20", fails = true, closures = { [3] = { index = 3, params = 2, kinds = { false, "error" } } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "api.example-weather.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
