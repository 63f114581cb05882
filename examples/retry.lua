-- retry.lua: "fail twice, then succeed". The upload endpoint answers 503 twice, then 201. The
-- fetch retries inside one performFetch, with a background task around the whole exchange so the
-- app keeps running (and its requests keep their connections) until the last attempt is done.
scenario { name = "Retry inside a background fetch", fetchPolicy = "manual", defaults = { drafts = 2 } }

local api = server "sync.example.test" { latency = 1.0 }
api:route("POST /upload", { { status = 503 }, { status = 503 }, { status = 201, body = { saved = true } } })

local attempts = 0   -- what the test measures (the world's, outside the app)

app {
  backgroundModes = { "fetch" },
  delegate = function(app)
    return {
      didFinishLaunching = function(app, launch)
        app:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)
        return true
      end,
      performFetch = function(app, completionHandler)
        local task
        task = app:beginBackgroundTask("upload", function()
          app:endBackgroundTask(task)
        end)
        local function finish(result)
          completionHandler(result)
          app:endBackgroundTask(task)
        end
        local tries = 0
        local function attempt()
          tries = tries + 1
          attempts = attempts + 1
          http.request({ method = "POST", url = "https://sync.example.test/upload", body = { drafts = 2 }, timeout = 10 },
            function(response, err)
              if not err and response.status == 201 then
                defaults.set("drafts", 0)   -- what was uploaded is off the disk
                return finish("newData")
              end
              if tries < 3 then
                print("upload failed (" .. (err or response.status) .. "), retrying in 2 s")
                return after(2, attempt)
              end
              finish("failed")
            end)
        end
        attempt()
      end,
    }
  end,
}

at(0, user.launch)
at(seconds(10), user.home)
at(minutes(1), system.backgroundFetch)

expect.noViolations()
expect.that("the upload succeeded on the third attempt", function() return defaults.get("drafts") == 0 and attempts == 3 end)
