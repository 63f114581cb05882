-- deadline_upload.lua: a planted bug for guided explore (scripts/bench, docs/PERFORMANCE.md). It
-- passes as it is. Each visit leaves a photo to upload; at Home the app uploads what is pending in
-- one request, which takes longer the more photos it carries. The expiration handler forgets to
-- end the task only when the deadline comes while the upload is still in flight, after a second
-- Home of the same process. Random schedules rarely pile up enough visits before a Home; runs that
-- visit more often, or reach the expiration handler, are steps guided explore builds on.
scenario { name = "Deadline during an upload", duration = minutes(30) }

local api = server "api.example.test" { latency = 1 }
api:route("POST /upload", function(request) return { status = 200, body = {}, transfer = 6 * request.body.count } end)

app {
  delegate = function(app)
    local homes, pending, uploading, task = 0, 0, false, UIBackgroundTaskInvalid
    local function finish()
      if task ~= UIBackgroundTaskInvalid then app:endBackgroundTask(task); task = UIBackgroundTaskInvalid end
    end
    return {
      didBecomeActive = function(app) pending = pending + 1 end,  -- a photo taken on each visit
      didEnterBackground = function(app)
        homes = homes + 1
        if pending == 0 or task ~= UIBackgroundTaskInvalid then return end
        local batch = pending
        if batch >= 2 then
          print("uploading " .. batch .. " photos at once")
          if batch >= 3 then
            print("a large upload: it takes a while")
          end
        end
        task = app:beginBackgroundTask("upload", function()
          if uploading then
            print("the deadline came while uploading " .. batch .. " photos")
            if homes >= 2 then
              return  -- BUG: from the second Home on, the task is left open
            end
          end
          finish()
        end)
        uploading = true
        http.request({ method = "POST", url = "https://api.example.test/upload", body = { count = batch }, timeout = 120 },
          function(_, err)
            uploading = false
            if not err then pending = pending - batch end
            finish()
          end)
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)

expect.noViolations()
