-- scenes.lua: the UIScene life cycle (SPEC 16), which iOS 26 requires (TN3187). With
-- scenes = true UIKit calls the scene delegate's foreground and background methods and no longer
-- the app delegate's: this is long_task.lua moved to scenes, where the long task is begun in the
-- scene's didEnterBackground. The bug left behind: an upload that an older part of the app still
-- begins in the app delegate's didEnterBackground, which is never called any more, so the upload
-- never runs in the background (the expectation below says so, and passes only because the test
-- expects the bug: it checks that the upload never started).
scenario { name = "Finishing a long task, with scenes", os = "ios26", duration = minutes(10) }

local uploadsStarted, begun, ended = 0, 0, 0   -- what the test measures (the world's, outside the app)

app {
  scenes = true,
  delegate = function(app)
    local task = UIBackgroundTaskInvalid
    local ticker

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
      didEnterBackground = function(app)      -- BUG: never called once the app adopts scenes
        uploadsStarted = uploadsStarted + 1
      end,
      willTerminate = function(app) finish("the app is quitting") end,   -- a force quit while the task runs
      scene = {
        didEnterBackground = function(scene)
          task = app:beginBackgroundTask("long task", function() finish("time is almost up") end)
          begun = begun + 1
          ticker = timer.every(5, function()
            print(string.format("background time remaining: %.0f s", app.backgroundTimeRemaining))
          end)
        end,
        willEnterForeground = function(scene)
          finish("back in the foreground")
        end,
      },
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)           -- runs until the expiration handler ends the task
at(minutes(5), user.open)
at(minutes(6), user.home)
at(minutes(6) + 10, user.open)      -- back before the budget ends: the foreground path ends it

expect.noViolations()
expect.that("every background stay ended its task", function() return begun > 0 and ended == begun end)
expect.that("the app delegate's didEnterBackground never ran (the upload it begins is lost)",
            function() return uploadsStarted == 0 end)
