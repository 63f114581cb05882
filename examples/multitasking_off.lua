-- multitasking_off.lua: the same app as multitasking.lua on a device WITHOUT multitasking: pressing
-- Home terminates the app (willTerminate, then not running) instead of suspending it.
scenario { name = "Multitasking not supported", device = { multitasking = false } }

local log_ = require("lib.multitasking_app")

at(0, user.launch)
at(seconds(30), user.home)

expect.noViolations()
expect.that("each time the person left, the app was terminated: willTerminate, never didEnterBackground", function()
  local launches, terminations = 0, 0
  for _, line in ipairs(log_) do
    if line:find("^didEnterBackground") then return false end
    if line:find("^no multitasking") or line:find("^multitasking is supported") then launches = launches + 1 end
    if line:find("^willTerminate") then terminations = terminations + 1 end
  end
  -- Every launch ended in willTerminate, but the last when the person is still in the app.
  local running = app.state ~= "notRunning" and 1 or 0
  return terminations > 0 and terminations == launches - running
end)
