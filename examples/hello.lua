-- hello.lua: the smallest scenario. Top-level code runs at virtual time 0; print() goes to the
-- timeline stamped with virtual time. pairs() and math.random() are deterministic: the same seed
-- gives the same output on every run.
scenario { name = "Hello, luafetch", seed = 42 }

print("hello from virtual time", now())

local fruit = { banana = 3, apple = 1, cherry = 2 }
for name, count in pairs(fruit) do print(name, count) end   -- always apple, banana, cherry

print("dice:", math.random(6), math.random(6), math.random(6))
print("the date is", os.date("%Y-%m-%d %H:%M:%S"))

app {
  didFinishLaunching = function(app, launch)
    print("launched by the " .. launch.reason .. ", state " .. app.state)
    return true
  end,
  didEnterBackground = function(app)
    print("in the background; the app will be suspended when this returns")
  end,
}

at(seconds(1), user.launch)
at(minutes(1), user.home)
at(minutes(2), function() print("two minutes in, the app is " .. app.state) end)

expect.noViolations()
