-- bench/throughput.lua: 1,000 periodic callbacks (500 app timers, 500 world `every`) firing every
-- second for 1,000 s of virtual time: 1,000,000 callback events. Run with --quiet.
scenario { name = "throughput", duration = 1000 }
local appCalls, worldCalls = 0, 0
app {
  didFinishLaunching = function(app)
    for i = 1, 500 do timer.every(1, function() appCalls = appCalls + 1 end) end
    return true
  end,
}
at(0, user.launch)
for i = 1, 500 do every(1, function() worldCalls = worldCalls + 1 end) end
expect.that("one million callbacks", function() return appCalls + worldCalls == 1000000 end)
