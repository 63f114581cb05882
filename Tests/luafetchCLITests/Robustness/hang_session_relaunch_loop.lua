-- hang: an app that starts a background download failing at once and crashes at every launch was relaunched for the session forever at one virtual millisecond (fuzz seed 99, case 114)
scenario { duration = days(1), seed = 73 }
at(0, user.launch)
at(0.001, function() user.interrupt(hours(3)) end)
app {
  
  didFinishLaunching = function(app, launch)
    urlSession.background("dl", {}):download("https://api.test/x")
    app:setMinimumBackgroundFetchInterval(function() error({}) end)
    local q = dispatch.queue(setmetatable({}, { __tostring = function() return 42 end })) q:async(function() user.home() end) q:async(function() work(0) end) print(q:sync(user.launch))
    return true
  end,
  performFetch = function(app, completionHandler)
    
    completionHandler(nil)
  end,
  willResignActive = function(app, launch)
    app:setMinimumBackgroundFetchInterval(1)
  end,
  didEnterBackground = function(app, launch)
    print(BGTaskScheduler.submit(1))
    local q = dispatch.queue(coroutine.create(function() end)) q:async(user.launch) q:async(function() work(0.001) end) print(q:sync(function() print("cb", now()) end))
  end,
}
