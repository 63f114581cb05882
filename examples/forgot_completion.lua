-- forgot_completion.lua: an error path that forgets the completion handler. When the request
-- fails, performFetch's callback returns early without calling completionHandler; iOS's watchdog
-- terminates the app 30 s later (fetch-no-completion, 0x8badf00d), reported at that `return`.
scenario { name = "Forgotten fetch completion", fetchPolicy = "manual" }

local api = server "api.example.test" { latency = 0.5 }
api:route("GET /inbox", { status = 200, body = { unread = 3 } })
api:down(minutes(10), minutes(20))      -- an outage: requests fail with notConnected

app {
  backgroundModes = { "fetch" },
  didFinishLaunching = function(app, launch)
    app:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)
    return true
  end,
  performFetch = function(app, completionHandler)
    http.get("https://api.example.test/inbox", function(response, err)
      if err then
        print("fetch failed: " .. err)
        return                         -- BUG: completionHandler is never called on this path
      end
      completionHandler("newData")
    end)
  end,
}

at(0, user.launch)
at(minutes(1), user.home)
at(minutes(5), system.backgroundFetch)   -- works: completes with newData
at(minutes(15), system.backgroundFetch)  -- during the outage: the completion is forgotten

expect.violation("fetch-no-completion", 1)
