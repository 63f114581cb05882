-- push_backlog.lua: a planted bug for guided explore (scripts/bench, docs/PERFORMANCE.md). It
-- passes as it is. Silent pushes that arrive less than 30 seconds apart, while nobody opens the app,
-- pile up; from the second one the app fetches the messages, from the third it also tidies its
-- store, and at the seventh it calls the push's completion handler twice. Random schedules rarely
-- send seven pushes that close together with no open in between; a run that piles up three, four,
-- five or six is a step guided explore builds on.
scenario { name = "Pushes that pile up", duration = minutes(30) }

local api = server "api.example.test" { latency = 0.5 }
api:route("GET /messages", { status = 200, body = { count = 1 } })

app {
  backgroundModes = { "remote-notification" },
  delegate = function(app)
    local queued, last = 0, -minutes(1)
    return {
      didBecomeActive = function(app) queued = 0 end,  -- the person reads the messages
      didReceiveRemoteNotification = function(app, userInfo, completionHandler)
        if now() - last > 30 then queued = 0 end  -- half a minute of quiet: the store caught up
        last = now()
        queued = queued + 1
        if queued < 2 then
          completionHandler(UIBackgroundFetchResultNoData)  -- one message: fetched at the next open
          return
        end
        http.get("https://api.example.test/messages", function(_, err)
          if queued >= 3 then
            print("compacting the message store")
            if queued >= 4 then
              print("the store is getting large")
              if queued >= 5 then
                print("summarizing " .. queued .. " messages")
                if queued >= 6 then
                  print("a long backlog")
                  if queued >= 7 then
                    completionHandler(UIBackgroundFetchResultNewData)  -- BUG: called here and again below
                  end
                end
              end
            end
          end
          completionHandler(err and UIBackgroundFetchResultFailed or UIBackgroundFetchResultNewData)
        end)
      end,
    }
  end,
}

at(0, user.launch)
at(minutes(1), user.home)
at(minutes(10), function() system.remoteNotification({}, { contentAvailable = true }) end)

expect.noViolations()
