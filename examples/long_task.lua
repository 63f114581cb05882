-- long_task.lua: the cookbook's long-running task. On entering the background the app begins a
-- background task and a 1-second timer that logs backgroundTimeRemaining; the task ends in the
-- expiration handler, or when the user comes back first. Clean under every profile:
--   luafetch run examples/long_task.lua --os ios6    (600 s of background time)
--   luafetch run examples/long_task.lua --os ios7    (180 s)
--   luafetch run examples/long_task.lua              (ios13: 30 s)
scenario { name = "Finishing a long task in the background", duration = minutes(30) }

local begun, ended = 0, 0   -- what the test measures (the world's, outside the app)

app {
  delegate = function(app)
    -- This process's memory: a relaunch starts from nothing.
    local task = UIBackgroundTaskInvalid
    local ticker = nil

    local function finish(why)
      if ticker then ticker:invalidate(); ticker = nil end
      if task ~= UIBackgroundTaskInvalid then
        print("ending the task: " .. why)
        app:endBackgroundTask(task)
        task = UIBackgroundTaskInvalid
        ended = ended + 1
      end
    end

    return {
      didEnterBackground = function(app)
        task = app:beginBackgroundTask("long task", function() finish("time is almost up") end)
        begun = begun + 1
        ticker = timer.every(1, function()
          print(string.format("background time remaining: %.0f s", app.backgroundTimeRemaining))
        end)
      end,
      willEnterForeground = function(app)
        finish("back in the foreground")
      end,
      willTerminate = function(app)
        finish("the app is quitting")      -- a force quit while the task runs
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)           -- runs until the expiration handler ends the task
at(minutes(20), user.open)
at(minutes(25), user.home)
at(minutes(25) + 10, user.open)     -- back before the budget ends: the foreground path ends it

expect.noViolations()
expect.that("every background stay ended its task", function() return begun > 0 and ended == begun end)
