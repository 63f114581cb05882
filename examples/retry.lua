-- retry.lua: "fail twice, then succeed". The upload endpoint answers 503 twice, then 201. The
-- fetch retries inside one performFetch, with a background task around the whole exchange so the
-- app keeps running (and its requests keep their connections) until the last attempt is done.
scenario { name = "Retry inside a background fetch", fetchPolicy = "manual", defaults = { drafts = 2 } }

local api = server "sync.example.test" { latency = 1.0 }
local served, saved = 0, 0   -- the server's: requests it answered, drafts it saved
api:route("POST /upload", function(request)
  served = served + 1
  if served <= 2 then return { status = 503 } end   -- fails twice, then succeeds
  saved = saved + request.body.drafts
  return { status = 201, body = { saved = true } }
end)

local fetches = {}   -- what the test measures (the world's, outside the app): how each fetch ended

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
        local tries = 0
        local function finish(result)
          fetches[#fetches + 1] = { result = result, tries = tries }
          completionHandler(result)
          app:endBackgroundTask(task)
        end
        local function attempt()
          tries = tries + 1
          local body = { drafts = defaults.get("drafts") }   -- what is on the disk
          http.request({ method = "POST", url = "https://sync.example.test/upload", body = body, timeout = 10 },
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
expect.that("each fetch retried until the drafts were saved, giving up only after three failed attempts", function()
  for _, f in ipairs(fetches) do
    if not (f.result == "newData" or f.result == "failed" and f.tries == 3) then return false end
  end
  return true
end)
expect.that("no draft was lost: each is still on the disk or saved on the server", function()
  return defaults.get("drafts") + saved >= 2
end)
