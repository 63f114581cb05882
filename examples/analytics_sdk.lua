-- analytics_sdk.lua: threads and the watchdog (SPEC 12.2, 12.3). Two SDKs flush their events when
-- the app goes to the background. The "blocking" one does it on the main thread, inside its
-- UIApplicationDidEnterBackgroundNotification observer: observers share didEnterBackground's 5 s,
-- so its 11 s flush gets the app terminated (callback-overrun, 0x8badf00d). The "queued" one does
-- what Apple recommends: it begins a background task first, flushes on its own serial queue, and
-- ends the task when the flush is done, so the main thread stays free and the app is suspended
-- right after. Set sdk below to "queued" to see the fix.
scenario { name = "An analytics SDK on the way to the background", duration = minutes(2) }

local sdk = "blocking"

local function blockingSDK()
  notifications.observe(UIApplicationDidEnterBackgroundNotification, function()
    work(11)                                   -- BUG: 11 s of flushing on the main thread
    print("blocking SDK: flushed")
  end)
end

local function queuedSDK(app)
  local queue = dispatch.queue("com.example.analytics")
  notifications.observe(UIApplicationDidEnterBackgroundNotification, function()
    local task
    task = app:beginBackgroundTask("analytics flush", function() app:endBackgroundTask(task) end)
    queue:async(function()
      work(11)                                 -- the flush occupies only the SDK's queue
      print("queued SDK: flushed")
      app:endBackgroundTask(task)
    end)
  end)
end

app {
  delegate = function(app)
    return {
      didFinishLaunching = function(app, launch)
        if sdk == "blocking" then blockingSDK() else queuedSDK(app) end
      end,
    }
  end,
}

at(0, user.launch)
at(seconds(30), user.home)

if sdk == "blocking" then
  expect.violation("callback-overrun", 1)
else
  expect.noViolations()
end
