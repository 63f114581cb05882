-- The app of the cookbook's first recipe, shared by multitasking.lua and multitasking_off.lua:
-- check whether the device supports multitasking and plan for the background accordingly.
local log_ = {}
local function note(s) log_[#log_ + 1] = s; print(s) end

app {
  didFinishLaunching = function(app, launch)
    if device.isMultitaskingSupported then
      note("multitasking is supported: the app will be suspended in the background")
    else
      note("no multitasking: the app will be terminated when the user leaves it")
    end
    return true
  end,
  didEnterBackground = function(app)
    note("didEnterBackground: saving state")
  end,
  willTerminate = function(app)
    note("willTerminate: last chance to save state")
  end,
}

return log_
