-- bgtask_processing.lua: a nightly clean-up with a BGProcessingTask (SPEC 13). iOS launches a
-- processing task only while the device is idle (here the default window, 01:00-05:00, when it is
-- charging) and gives it minutes rather than seconds; but the moment the person uses the phone,
-- the task is expired: its expiration handler runs at once and it has expirationWarning (5 s) to
-- stop. The clean-up below works in chunks of 3 s on its own queue (a chunk must be shorter than
-- those 5 s), saves its progress to disk (defaults) and stops after the chunk it is in when
-- expired, so the next launch resumes where it left.
scenario {
  name = "Nightly database clean-up",
  duration = days(2),
  fetchPolicy = "fixed",
  defaults = { cleaned = 0 },
}

local total = 400   -- chunks of the database to clean
local worked = 0    -- what the test measures (the world's, outside the app): seconds the clean-up ran

app {
  backgroundModes = { "processing" },
  permittedIdentifiers = { "com.example.db.cleanup" },
  delegate = function(app)
    local queue = dispatch.queue("com.example.db")

    local function schedule()
      if defaults.get("cleaned") >= total then return end
      local request = BGProcessingTaskRequest("com.example.db.cleanup")
      request.requiresExternalPower = true
      BGTaskScheduler.submit(request)
    end

    local function cleanUp(task)
      local expired = false
      task.expirationHandler = function() expired = true end
      queue:async(function()
        local began = now()
        while defaults.get("cleaned") < total and not expired do
          work(3)                                    -- one chunk
          defaults.set("cleaned", defaults.get("cleaned") + 1)
        end
        worked = worked + (now() - began)
        print(string.format("clean-up stopped at %d of %d chunks%s", defaults.get("cleaned"), total,
                            expired and " (expired)" or ""))
        schedule()
        task:setTaskCompleted(not expired)
      end)
    end

    return {
      didFinishLaunching = function(app, launch)
        BGTaskScheduler.register("com.example.db.cleanup", cleanUp)
      end,
      didEnterBackground = function(app) schedule() end,
    }
  end,
}

at(hours(22), user.launch)
at(hours(22) + minutes(10), user.home)
at(days(1) + hours(1) + minutes(3), user.open)        -- the person picks up the phone at 01:03
at(days(1) + hours(1) + minutes(4), user.home)

expect.noViolations()
expect.that("the clean-up resumed after each interruption and finished once iOS had given it the 20 minutes it needs", function()
  return defaults.get("cleaned") == total or worked < total * 3
end)
