-- silent_push.lua: remote notifications (SPEC 14). A server pushes "new mail" as a silent
-- (content-available) notification; iOS wakes the suspended app, or launches it into the
-- background when it is not running, and calls didReceiveRemoteNotification, whose completion
-- keeps the app running until it is called (at most 30 s). In the foreground every push is
-- delivered at once; a push that is not content-available never reaches a background app; Low
-- Power Mode drops silent pushes. The handler downloads the message and calls the completion on
-- every path.
scenario { name = "Silent push for new mail", duration = hours(2), defaults = { inbox = 0 } }

local mail = server "mail.example.test" { latency = 0.8 }
mail:route("GET /messages/latest", { status = 200, body = { subject = "Lunch?" } })

-- What the test measures (the world's, outside the app): what became of the download of each push
-- that woke or launched the app: "downloading", then "inbox" or "failed", or "cut" when a force
-- quit ended the app first.
local woken = {}
notifications.observe(UIApplicationWillTerminateNotification, function()
  for _, w in ipairs(woken) do if w.download == "downloading" then w.download = "cut" end end
end)

local function push(id, silent)
  system.remoteNotification({ aps = { ["content-available"] = silent and 1 or nil }, messageID = id },
                            { contentAvailable = silent })
end

app {
  backgroundModes = { "remote-notification" },
  delegate = function(app)
    return {
      didReceiveRemoteNotification = function(app, userInfo, completionHandler)
        local delivery = { download = "downloading" }
        if app.state == "background" then woken[#woken + 1] = delivery end
        http.get("https://mail.example.test/messages/latest", function(response, err)
          if err then
            delivery.download = "failed"
            return completionHandler(UIBackgroundFetchResultFailed)
          end
          defaults.set("inbox", defaults.get("inbox") + 1)
          delivery.download = "inbox"
          print(string.format("message %s: %q (%s)", tostring(userInfo.messageID), response.body.subject, app.state))
          completionHandler(UIBackgroundFetchResultNewData)
        end)
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), function() push(1, true) end)          -- foreground: delivered at once
at(minutes(2), user.home)
at(minutes(10), function() push(2, true) end)         -- wakes the suspended app
at(minutes(20), function() push(3, false) end)        -- an alert push: the app is not called
at(minutes(30), system.memoryPressure)
at(minutes(40), function() push(4, true) end)         -- launches the app into the background
at(minutes(50), function() system.setLowPowerMode(true) end)
at(minutes(55), function() push(5, true) end)         -- dropped: Low Power Mode

expect.noViolations()
expect.that("every push that woke the app put its message in the inbox, unless the download failed or a force quit cut it short",
  function()
    local stored = 0
    for _, w in ipairs(woken) do
      if w.download == "downloading" then return false end
      if w.download == "inbox" then stored = stored + 1 end
    end
    return defaults.get("inbox") >= stored
  end)
