-- multitasking_off.lua: the same app as multitasking.lua on a device WITHOUT multitasking: pressing
-- Home terminates the app (willTerminate, then not running) instead of suspending it.
scenario { name = "Multitasking not supported", device = { multitasking = false } }

local log_ = require("lib.multitasking_app")

at(0, user.launch)
at(seconds(30), user.home)

expect.noViolations()
expect.at(seconds(31), "the app is not running", function() return app.state == "notRunning" end)
expect.that("willTerminate was called", function()
  return log_[#log_] == "willTerminate: last chance to save state"
end)
