-- background_download.lua: a large download that finishes while the app is not running (SPEC 15).
-- The app hands the download to a background URL session and goes away; the system carries the
-- transfer (here 10 minutes on the wire) while the app is suspended and then purged. When the
-- transfer is done, iOS launches the app into the background (launch.reason
-- "backgroundURLSession") and calls handleEventsForBackgroundURLSession: the app recreates the
-- session with the same identifier, receives didFinishDownloading and didComplete, and calls the
-- completion handler it was given in didFinishEvents, so iOS can suspend it again.
scenario { name = "A background download", duration = hours(1), defaults = { episodes = 0, downloading = false } }

local cdn = server "cdn.example.test" { latency = 0.5 }
cdn:route("GET /episodes/42.mp4", { status = 200, body = "episode 42", transfer = minutes(10) })

app {
  delegate = function(app)
    local session
    local finishEvents   -- handleEvents' completion, called when the session's events are done

    local function getSession()
      session = session or urlSession.background("com.example.podcasts.downloads", {
        didFinishDownloading = function(task, response)
          defaults.set("episodes", defaults.get("episodes") + 1)   -- move the file somewhere safe
          print("saved " .. response.body)
        end,
        didComplete = function(task, err)
          defaults.set("downloading", false)
          if err then print("download #" .. task.id .. " failed: " .. err) end   -- the next return starts it again
        end,
        didFinishEvents = function(s)
          if finishEvents then dispatch.main(finishEvents) end     -- call it on the main queue
        end,
      })
      return session
    end

    return {
      didBecomeActive = function(app)
        -- One download at a time: a return while it is on its way must not start another.
        if defaults.get("episodes") == 0 and not defaults.get("downloading") then
          defaults.set("downloading", true)
          getSession():download("https://cdn.example.test/episodes/42.mp4")
        end
      end,
      handleEventsForBackgroundURLSession = function(app, identifier, completionHandler)
        finishEvents = completionHandler
        getSession()   -- recreate the session: its events follow
      end,
    }
  end,
}

at(0, user.launch)
at(30, user.home)
at(minutes(5), system.memoryPressure)   -- the suspended app is purged; the download goes on

expect.noViolations()
expect.that("the episode was saved once, or is still on its way", function()
  return defaults.get("episodes") == 1 or (defaults.get("episodes") == 0 and defaults.get("downloading"))
end)
