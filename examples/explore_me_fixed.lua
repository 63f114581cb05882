-- explore_me_fixed.lua: explore_me.lua with its four bugs fixed, each the way Apple's
-- documentation recommends; `luafetch explore examples/explore_me_fixed.lua --runs 10000` finds
-- nothing. FIX 1: each upload keeps its own task. FIX 2: the response ends the task begun for it.
-- FIX 3: the expiration handler completes the BGTask. FIX 4: the task is begun in the handler,
-- before the completion handler lets iOS suspend the app, and its expiration handler ends it.
scenario { name = "Explore me, fixed", duration = hours(1) }

local api = server "api.example.test" { latency = 0.5 }
api:route("GET /sync", { status = 200, body = { changes = 3 } })

app {
  backgroundModes = { "remote-notification", "processing" },
  permittedIdentifiers = { "com.example.cleanup" },
  delegate = function(app)
    local syncing, syncTask = false, nil
    local lastSync = -hours(1)

    local function endTask(id)
      if id and id ~= UIBackgroundTaskInvalid then app:endBackgroundTask(id) end
    end

    local function sync()
      if now() - lastSync < minutes(5) then return end
      lastSync, syncing = now(), true
      http.get("https://api.example.test/sync", function(response, err)
        syncing = false
        endTask(syncTask)                                          -- FIX 2
        syncTask = nil
      end)
    end

    return {
      didFinishLaunching = function(app, launch)
        BGTaskScheduler.register("com.example.cleanup", function(task)
          local cancelled = false
          task.expirationHandler = function()
            cancelled = true
            task:setTaskCompleted(false)                           -- FIX 3
          end
          after(5, function() if not cancelled then task:setTaskCompleted(true) end end)
        end)
      end,
      didBecomeActive = function(app) sync() end,
      didEnterBackground = function(app)
        if syncing and not syncTask then
          syncTask = app:beginBackgroundTask("sync", function() endTask(syncTask); syncTask = nil end)
        end
        local upload                                               -- FIX 1: this upload's own task
        upload = app:beginBackgroundTask("upload", function() endTask(upload); upload = nil end)
        after(2, function() endTask(upload); upload = nil end)
        local request = BGProcessingTaskRequest("com.example.cleanup")
        BGTaskScheduler.submit(request)
      end,
      didReceiveRemoteNotification = function(app, userInfo, completionHandler)
        local save                                                 -- FIX 4: begun before the completion
        save = app:beginBackgroundTask("save", function() endTask(save); save = nil end)
        dispatch.main(function()
          after(10, function() endTask(save); save = nil end)
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
