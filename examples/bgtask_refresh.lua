-- bgtask_refresh.lua: the modern way to refresh (SPEC 13). iOS 13 deprecated
-- setMinimumBackgroundFetchInterval; an app now registers a BGAppRefreshTask handler before
-- didFinishLaunching returns, submits a request with an earliest begin date, and resubmits from
-- the handler, so the chain goes on. This is twitter.lua's refresh rewritten: every exit path of
-- the handler resubmits (the classic bug is an early return that forgets to, and the chain stops),
-- the task completes when the request is done, and its expiration handler cancels the request.
scenario {
  name = "Timeline refresh with BGTaskScheduler",
  seed = 7,
  duration = days(1),
  fetchPolicy = "adaptive",   -- iOS adds a delay of up to refreshDelay (30 min) to each launch
  defaults = { tweets = 0, lastRefresh = 0 },
}

local api = server "api.twitter.test" { latency = 0.4, jitter = 0.3, failureRate = 0.05 }
local produced = 0
every(minutes(20), function() produced = produced + 1 end)
api:route("GET /timeline", function(request)
  if produced == 0 then return { status = 304 } end
  local n = produced
  produced = 0
  return { status = 200, body = { count = n } }
end)

-- What the test measures (the world's, outside the app): whether a request for the next refresh is
-- waiting (a launch uses its request up).
local scheduled = false

app {
  backgroundModes = { "fetch" },
  permittedIdentifiers = { "com.example.timeline.refresh" },
  delegate = function(app)
    local function scheduleRefresh()
      local request = BGAppRefreshTaskRequest("com.example.timeline.refresh")
      request.earliestBeginDate = now() + hours(1)
      local ok, err = BGTaskScheduler.submit(request)
      if ok then scheduled = true else print("could not schedule the refresh: " .. err) end
    end

    local function handleRefresh(task)
      scheduled = false               -- this launch used its request up (what the test measures)
      scheduleRefresh()               -- first: whatever happens below, the chain goes on
      local finished = false          -- the expiration handler and the response may both come
      local function finish(ok)
        if not finished then finished = true; task:setTaskCompleted(ok) end
      end
      task.expirationHandler = function() finish(false) end
      http.get("https://api.twitter.test/timeline", function(response, err)
        if err then return finish(false) end
        if response.status == 200 then
          defaults.set("tweets", defaults.get("tweets") + response.body.count)
        end
        defaults.set("lastRefresh", now())
        finish(true)
      end)
    end

    return {
      didFinishLaunching = function(app, launch)
        BGTaskScheduler.register("com.example.timeline.refresh", handleRefresh)
      end,
      didEnterBackground = function(app)
        scheduleRefresh()
      end,
      didBecomeActive = function(app)
        print(string.format("timeline shows %d tweets", defaults.get("tweets")))
      end,
    }
  end,
}

at(hours(7), user.launch)
at(hours(7) + minutes(5), user.home)
at(hours(12), user.open)
at(hours(12) + minutes(5), user.home)
at(hours(21), user.open)
at(hours(21) + minutes(5), user.home)

expect.noViolations()
expect.that("the refresh chain kept going: the next refresh is scheduled at the end of the day", function() return scheduled end)
expect.that("the timeline was refreshed in the background", function() return defaults.get("tweets") > 0 end)
