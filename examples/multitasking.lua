-- multitasking.lua: the cookbook's first recipe on a device WITH multitasking. The app branches on
-- device.isMultitaskingSupported; Home suspends it (no willTerminate). multitasking_off.lua runs the
-- same app on a device without multitasking.
scenario { name = "Multitasking supported", device = { multitasking = true } }

local log_ = require("lib.multitasking_app")

-- What the test measures (the world's, outside the app): how each move to the background ended.
-- A force quit in the foreground also goes through the background first, then ends the app.
local left, suspended, terminated = 0, 0, 0
notifications.observe(UIApplicationDidEnterBackgroundNotification, function()
  left = left + 1
  at(now(), function()   -- once the move is over
    if app.state == "suspended" then suspended = suspended + 1 end
  end)
end)
notifications.observe(UIApplicationWillTerminateNotification, function() terminated = terminated + 1 end)

at(0, user.launch)
at(seconds(30), user.home)

expect.noViolations()
expect.that("each time the app went to the background it was suspended, not terminated (only a force quit ends it)", function()
  local willTerminate = 0
  for _, line in ipairs(log_) do if line:find("willTerminate") then willTerminate = willTerminate + 1 end end
  return left > 0 and suspended + terminated == left and willTerminate == terminated
end)
