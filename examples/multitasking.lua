-- multitasking.lua: the cookbook's first recipe on a device WITH multitasking. The app branches on
-- device.isMultitaskingSupported; Home suspends it (no willTerminate). multitasking_off.lua runs the
-- same app on a device without multitasking.
scenario { name = "Multitasking supported", device = { multitasking = true } }

local log_ = require("lib.multitasking_app")

at(0, user.launch)
at(seconds(30), user.home)

expect.noViolations()
expect.at(seconds(31), "the app is suspended, not terminated", function()
  return app.state == "suspended"
end)
expect.that("willTerminate was never called", function()
  for _, line in ipairs(log_) do if line:find("willTerminate") then return false end end
  return true
end)
