-- cold_launch.lua: memory belongs to a process (SPEC 12.1). The app sets up its store only when
-- the person launches it. That works while the person uses it, and even after a background fetch
-- wakes it from suspension, because the process and its memory are still there. But iOS purges
-- suspended apps under memory pressure, and the next fetch launches a fresh process into the
-- background (launch.reason == "backgroundFetch"): the store was never set up, and performFetch
-- crashes. The `delegate = function(app) ... end` form shows it, because luafetch calls it at the
-- start of every process; delegate fields that closed over top-level locals would hide the bug,
-- since top-level locals outlive every process.
-- The fix: set the store up in didFinishLaunching whatever the launch reason (or read it from disk).
scenario { name = "Cold launch for a background fetch", duration = minutes(20), fetchPolicy = "fixed" }

local api = server "feed.example.test" { latency = 0.5 }
api:route("GET /items", { status = 200, body = { "item" } })

app {
  backgroundModes = { "fetch" },
  delegate = function(app)
    local store   -- this process's memory: nil again in every new process

    return {
      didFinishLaunching = function(app, launch)
        app:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)
        if launch.reason == "user" then   -- BUG: only a user launch sets the store up
          store = { items = {} }
        end
      end,
      performFetch = function(app, completionHandler)
        http.get("https://feed.example.test/items", function(response, err)
          if err then return completionHandler("failed") end
          table.insert(store.items, response.body[1])   -- crashes after a cold launch
          completionHandler("newData")
        end)
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)
at(minutes(2), system.backgroundFetch)  -- woken from suspension: the process and its store are there
at(minutes(5), system.memoryPressure)   -- the suspended app is purged; the next fetch cold-launches it

expect.violation("app-crash", 1)
