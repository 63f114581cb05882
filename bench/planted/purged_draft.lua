-- purged_draft.lua: a planted bug for guided explore (scripts/bench, docs/PERFORMANCE.md). It
-- passes as it is. The app keeps an unsent draft on disk when it goes to the background; if the
-- system purges it while suspended and a background fetch launches it again, it restores the
-- draft and sends it from performFetch; when that fails a second time in Low Power Mode it
-- forgets the completion handler. Random schedules rarely line up two purges, each followed by a
-- background launch with no network, and Low Power Mode; a run that reaches the restore, or a
-- failed send, is a step guided explore builds on.
scenario { name = "A draft after a purge", duration = minutes(30), defaults = { draft = false, tries = 0 } }

local api = server "api.example.test" { latency = 0.5 }
api:route("POST /drafts", { status = 200, body = {} })

app {
  backgroundModes = { "fetch" },
  delegate = function(app)
    local restored = false
    return {
      didFinishLaunching = function(app, launch)
        app:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)
        if defaults.get("draft") then
          restored = true  -- the last process ended without sending it
          print("restored a draft (launched for " .. launch.reason .. ")")
        end
        return true
      end,
      didBecomeActive = function(app) defaults.set("draft", false); defaults.set("tries", 0) end,  -- sent while in use
      didEnterBackground = function(app) defaults.set("draft", true) end,
      performFetch = function(app, completionHandler)
        if not restored then
          completionHandler(UIBackgroundFetchResultNoData)
          return
        end
        restored = false
        http.request({ method = "POST", url = "https://api.example.test/drafts" }, function(_, err)
          if err then
            local tries = defaults.get("tries") + 1
            defaults.set("tries", tries)
            print("the draft could not be sent (" .. err .. ", " .. tries .. " tries)")
            if tries >= 2 then
              print("the draft waits for the network")
              if device.lowPowerMode then
                return  -- BUG: in Low Power Mode the second retry waits, and the completion handler is never called
              end
            end
            completionHandler(UIBackgroundFetchResultFailed)
            return
          end
          defaults.set("draft", false)
          defaults.set("tries", 0)
          completionHandler(UIBackgroundFetchResultNewData)
        end)
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)

expect.noViolations()
