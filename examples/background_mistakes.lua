-- background_mistakes.lua: one of each mistake the BackgroundTasks framework and remote
-- notifications punish (SPEC 13, 14), in the order they happen, each expected with
-- expect.violation. Read the timeline next to the code: every violation names the line.
--   bgtask-registration    a launch handler registered after didFinishLaunching returned
--   bgtask-unregistered    a request submitted before its launch handler was registered
--   bgtask-no-completion   a task that never calls setTaskCompleted before its 30 s end
--   push-no-completion     a background push whose completionHandler is never called
--   push-double-completion a completionHandler called twice
--   push-bad-result        a completionHandler given something other than the three results
scenario { name = "Background mistakes", duration = minutes(10), fetchPolicy = "manual", defaults = { launches = 0 } }

app {
  backgroundModes = { "fetch", "remote-notification" },
  permittedIdentifiers = { "com.example.refresh", "com.example.late" },
  delegate = function(app)
    return {
      didFinishLaunching = function(app, launch)
        local n = defaults.get("launches") + 1
        defaults.set("launches", n)
        if n == 1 then
          after(1, function()   -- BUG: too late, launch has finished
            BGTaskScheduler.register("com.example.late", function(task) task:setTaskCompleted(true) end)
          end)
        elseif n == 2 then      -- BUG: submits before registering the launch handler
          BGTaskScheduler.submit(BGAppRefreshTaskRequest("com.example.refresh"))
          BGTaskScheduler.register("com.example.refresh", function(task) task:setTaskCompleted(true) end)
        else
          BGTaskScheduler.register("com.example.refresh", function(task)
            task.expirationHandler = function() print("expiring, but never completing") end   -- BUG
          end)
          BGTaskScheduler.submit(BGAppRefreshTaskRequest("com.example.refresh"))
        end
      end,
      didReceiveRemoteNotification = function(app, userInfo, completionHandler)
        if userInfo.kind == "forget" then return end                        -- BUG: never completes
        if userInfo.kind == "twice" then completionHandler("newData") end   -- BUG: twice
        if userInfo.kind == "bad" then return completionHandler("done") end -- BUG: not a result
        completionHandler("newData")
      end,
    }
  end,
}

local function push(kind) system.remoteNotification({ kind = kind }, { contentAvailable = true }) end

at(0, user.launch)                                                   -- bgtask-registration at 1 s
at(10, user.launch)                                                  -- bgtask-unregistered
at(30, user.launch)
at(31, user.home)
at(40, function() system.launchTask("com.example.refresh") end)      -- bgtask-no-completion at 70 s
at(100, function() push("forget") end)                               -- push-no-completion at 130 s
at(200, function() push("twice") end)                                -- push-double-completion
at(300, function() push("bad") end)                                  -- push-bad-result

expect.violation("bgtask-registration", 1)
expect.violation("bgtask-unregistered", 1)
expect.violation("bgtask-no-completion", 1)
expect.violation("push-no-completion", 1)
expect.violation("push-double-completion", 1)
expect.violation("push-bad-result", 1)
