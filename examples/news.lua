-- news.lua: the cookbook's news reader. A fake news server flips a (seeded) coin for each request:
-- heads, a new item; tails, nothing new. The app appends the item on newData; the table view is not
-- reloaded in the background (nobody sees it) but deferred until the app returns to the foreground.
scenario { name = "News reader with background fetch", seed = 3, duration = hours(12), fetchPolicy = "fixed" }

local news = server "news.example.test" { latency = 0.3, jitter = 0.1 }
local published = 0
news:route("GET /latest", function(request)
  if math.random() < 0.5 then
    published = published + 1
    return { status = 200, body = { title = "Breaking story #" .. published, published = os.date("%H:%M") } }
  end
  return { status = 204 }
end)

-- What the test measures (the world's, outside the app): the items fetched in all, the items the
-- running process holds and its table shows, and the reloads since the app last left the foreground.
local fetched, held, shown, reloadsSinceLeft = 0, 0, 0, 0
local away, stale, hiddenReloads = false, 0, 0
notifications.observe(UIApplicationDidEnterBackgroundNotification, function() away, reloadsSinceLeft = true, 0 end)
notifications.observe(UIApplicationDidBecomeActiveNotification, function()
  if shown ~= held then stale = stale + 1 end                  -- the person sees an old table
  if away and reloadsSinceLeft > 1 then hiddenReloads = hiddenReloads + 1 end   -- more than the return's
  away = false
end)

app {
  backgroundModes = { "fetch" },
  delegate = function(app)
    -- This process's memory: a relaunch starts with an empty list.
    local items = {}
    local needsReload = false
    held, shown = 0, 0   -- and an empty table (what the test measures)

    local function reloadTable()
      reloadsSinceLeft = reloadsSinceLeft + 1
      shown = #items
      print(string.format("table view reloaded: %d news items", #items))
    end

    return {
      didFinishLaunching = function(app, launch)
        app:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)
        return true
      end,
      performFetch = function(app, completionHandler)
        http.get("https://news.example.test/latest", function(response, err)
          if err then return completionHandler(UIBackgroundFetchResultFailed) end
          if response.status ~= 200 then return completionHandler(UIBackgroundFetchResultNoData) end
          items[#items + 1] = response.body
          fetched, held = fetched + 1, #items
          print("new item: " .. response.body.title)
          if app.state == "background" then
            needsReload = true            -- reload when the user can see it
          else
            reloadTable()
          end
          completionHandler(UIBackgroundFetchResultNewData)
        end)
      end,
      willEnterForeground = function(app)   -- app.state is still "background" here, as in iOS
        if needsReload then
          needsReload = false
          reloadTable()
        end
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)
at(hours(4), user.open)
at(hours(4) + minutes(2), user.home)
at(hours(11), user.open)

expect.noViolations()
expect.that("background fetches brought news", function() return fetched > 0 end)
expect.that("the table was not reloaded in the background: at most once each time the app came back", function()
  return hiddenReloads == 0
end)
expect.that("each time the app became active, the table showed every item the app had fetched", function() return stale == 0 end)
