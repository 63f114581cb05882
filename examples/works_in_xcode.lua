-- works_in_xcode.lua: "it works when I run it from Xcode" (SPEC 12.5). With the debugger attached
-- iOS never suspends the app and its watchdog never terminates it, so a background task that is
-- never ended goes unnoticed: the upload below finishes after 45 s, well past the 30 s of
-- background time. Run it both ways:
--   luafetch run examples/works_in_xcode.lua --debugger   the upload finishes; masked-by-debugger
--                                                         says which termination was hidden
--   luafetch run examples/works_in_xcode.lua              task-expired (0x8badf00d): what a device does
-- The fix: split the upload (or use a background URL session) and end the task in its expiration
-- handler.
scenario { name = "Works in Xcode", duration = minutes(2) }

local api = server "upload.example.test" { latency = 45 }
api:route("POST /photos", { status = 201 })

app {
  delegate = function(app)
    return {
      didEnterBackground = function(app)
        local task
        task = app:beginBackgroundTask("upload", function()
          print("expiration handler: the upload is still running")   -- BUG: does not end the task
        end)
        http.request({ method = "POST", url = "https://upload.example.test/photos", timeout = 60 }, function(response, err)
          print("upload finished:", err or response.status)
          app:endBackgroundTask(task)
        end)
      end,
    }
  end,
}

at(0, user.launch)
at(seconds(10), user.home)

expect.violation("task-not-ended-in-handler", 1)
if device.debuggerAttached then
  expect.violation("masked-by-debugger", 1)   -- it "works" under Xcode...
else
  expect.violation("task-expired", 1)         -- ...and is killed on a device
end
