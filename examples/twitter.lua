-- twitter.lua: the flagship. A Twitter-like client refreshes its timeline with background fetch
-- over two simulated days. The server produces tweets over time; the network is a little flaky;
-- the person opens the app a few times a day. Adaptive scheduling backs off when there is nothing
-- new. The expectations check that the timeline was fresh whenever the person opened the app, as
-- long as background fetches worked (a force quit, Low Power Mode or iOS backing off stops them).
scenario {
  name = "Twitter timeline refresh",
  os = "ios13",
  seed = 7,
  duration = days(2),
  fetchPolicy = "adaptive",
  defaults = { tweets = 0, lastRefresh = 0 },
}

-- The world: people tweet; more during the day than at night.
local api = server "api.twitter.test" { latency = 0.4, jitter = 0.3, failureRate = 0.05 }
local backlog, produced = 0, 0
every(minutes(20), function()
  local hour = (now() // 3600) % 24
  local n = (hour >= 7 and hour < 23) and math.random(0, 4) or math.random(0, 1)
  backlog = backlog + n
  produced = produced + n
end)

api:route("GET /timeline", function(request)
  if backlog == 0 then return { status = 304 } end
  local n = backlog
  backlog = 0
  return { status = 200, body = { count = n, since = request.query.since } }
end)

-- What the test measures (the world's, outside the app): when a background fetch last told iOS it
-- worked (newData or noData), and the opens that found the timeline older than 6 hours even so.
local fetchWorked, staleOpens = -math.huge, 0
notifications.observe(UIApplicationDidBecomeActiveNotification, function()
  local age = now() - defaults.get("lastRefresh")
  if age > hours(6) and now() - fetchWorked <= hours(6) then staleOpens = staleOpens + 1 end
end)

-- The app. The timeline's size and when it was refreshed are on disk (defaults), so a relaunch
-- shows the cached timeline; everything else is the memory of one process.
app {
  backgroundModes = { "fetch" },
  delegate = function(app)
    local function refresh(done)
      http.get("https://api.twitter.test/timeline?since=" .. defaults.get("lastRefresh"), function(response, err)
        if err then return done("failed") end
        defaults.set("lastRefresh", now())
        if response.status == 304 then return done("noData") end
        defaults.set("tweets", defaults.get("tweets") + response.body.count)
        done("newData")
      end)
    end

    return {
      didFinishLaunching = function(app, launch)
        app:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)
        return true
      end,
      didBecomeActive = function(app)
        local age = now() - defaults.get("lastRefresh")
        print(string.format("timeline shows %d tweets, refreshed %d min ago", defaults.get("tweets"), age // 60))
        refresh(function() end)   -- pull to refresh on open
      end,
      performFetch = function(app, completionHandler)
        refresh(function(result)
          if result ~= "failed" then fetchWorked = now() end   -- (what the test measures)
          completionHandler(result)
        end)
      end,
    }
  end,
}

-- The person: morning, lunch and evening, for two days.
at(hours(7) + minutes(30), user.launch)
for day = 0, 1 do
  local base = days(day)
  if day > 0 then at(base + hours(7) + minutes(30), user.open) end
  at(base + hours(7) + minutes(35), user.home)
  at(base + hours(12) + minutes(10), user.open)
  at(base + hours(12) + minutes(20), user.home)
  at(base + hours(21), user.open)
  at(base + hours(21) + minutes(15), user.home)
end

expect.noViolations()
expect.that("the timeline refreshed in the background", function() return defaults.get("tweets") > 0 end)
expect.that("the timeline was never more than 6 hours old when opened, unless no background fetch had worked in those 6 hours",
  function() return staleOpens == 0 end)
