-- explore_me.lua: an app with four bugs that its own timeline never shows, for `luafetch explore`
-- to find (docs/EXPLORE.md). Run it as it is: it passes. Explore it and each bug turns up with
-- the smallest schedule that shows it:
--   luafetch explore examples/explore_me.lua --runs 2000
-- BUG 1 needs a burst (Home, open and Home again within two seconds), BUG 2 a Home while a request
-- is in flight, BUG 3 a BackgroundTasks action (the system expiring a task early), BUG 4 the other
-- order of a choice point iOS leaves open (SPEC 12.4). explore_me_fixed.lua is the same app
-- fixed; explore finds nothing there.
scenario { name = "Explore me", duration = hours(1) }

local api = server "api.example.test" { latency = 0.5 }
api:route("GET /sync", { status = 200, body = { changes = 3 } })

app {
  backgroundModes = { "remote-notification", "processing" },
  permittedIdentifiers = { "com.example.cleanup" },
  delegate = function(app)
    local uploadTask   -- BUG 1: one variable for every upload's task
    local syncing, syncTask, cancelled = false, nil, false  -- luacheck: ignore 231 (BUG 2: the task is kept, never ended)
    local lastSync = -hours(1)

    local function sync()
      if now() - lastSync < minutes(5) then return end
      lastSync, syncing = now(), true
      http.get("https://api.example.test/sync", function(response, err)
        syncing = false
        -- BUG 2: the task begun when Home came during the request is never ended.
      end)
    end

    return {
      didFinishLaunching = function(app, launch)
        BGTaskScheduler.register("com.example.cleanup", function(task)
          cancelled = false
          task.expirationHandler = function() cancelled = true end   -- BUG 3: no setTaskCompleted(false)
          after(5, function() if not cancelled then task:setTaskCompleted(true) end end)
        end)
      end,
      didBecomeActive = function(app) sync() end,
      didEnterBackground = function(app)
        if syncing then syncTask = app:beginBackgroundTask("sync", nil) end
        uploadTask = app:beginBackgroundTask("upload", function()
          if uploadTask then app:endBackgroundTask(uploadTask); uploadTask = nil end
        end)
        after(2, function()
          if uploadTask then app:endBackgroundTask(uploadTask); uploadTask = nil end
        end)
        local request = BGProcessingTaskRequest("com.example.cleanup")
        BGTaskScheduler.submit(request)
      end,
      didReceiveRemoteNotification = function(app, userInfo, completionHandler)
        -- BUG 4: the task is begun in a block, not before the completion handler is called; if iOS
        -- suspends the app first, the block runs at the next wake with no background time left.
        dispatch.main(function()
          local save = app:beginBackgroundTask("save", nil)
          after(10, function() app:endBackgroundTask(save) end)
        end)
        completionHandler(UIBackgroundFetchResultNewData)
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)
for _, m in ipairs({ 10, 20, 40, 50 }) do
  at(minutes(m), function() system.remoteNotification({}, { contentAvailable = true }) end)
end
at(minutes(30), user.open)
at(minutes(31), user.home)

expect.noViolations()
