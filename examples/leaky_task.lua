-- leaky_task.lua: the classic bug. The task id lives in one variable; a quick
-- background → foreground → background toggle begins a second task and overwrites the id, so the
-- first task is never ended. At the deadline the watchdog terminates the app (task-expired,
-- 0x8badf00d), reported where its handler returned without ending it (begun at line 13).
-- The fix: end the task in willEnterForeground, or keep one id per task.
scenario { name = "Leaked background task" }

app {
  delegate = function(app)
    local taskId = UIBackgroundTaskInvalid   -- this process's memory
    return {
      didEnterBackground = function(app)
        taskId = app:beginBackgroundTask("upload", function()   -- the leaked task begins here
          app:endBackgroundTask(taskId)    -- BUG: ends whichever task the variable names now
          taskId = UIBackgroundTaskInvalid
        end)
      end,
      willEnterForeground = function(app)
        -- BUG: the task is not ended when the app returns to the foreground
      end,
    }
  end,
}

at(0, user.launch)
at(seconds(10), user.home)
at(seconds(12), user.open)
at(seconds(14), user.home)

expect.violation("task-expired", 1)
expect.violation("task-not-ended-in-handler", 1)
expect.violation("task-held-too-long", 1)
