-- swift/publishers.lua, module 11 of 12 of the runtime of imported scenarios (README.md):
-- NotificationCenter's post and Combine's publishers (`publisher(for:)`, `Timer.publish`):
-- their stages (map, filter, compactMap) and `sink`, on the scenario's notifications and timers.
-- Uses: process (opaque values), the scenario API.
local S, prim, shared = ...
local G = _G
local type, setmetatable = type, setmetatable
local opaque = shared.opaque

-- NotificationCenter and Combine's publisher(for:).
S.notificationCenter = setmetatable({}, { __tostring = function() return "NotificationCenter" end })
function S.post(name, info)
  if type(name) ~= "string" then return end
  G.notifications.post(name, info)
end
local Publisher = {}
Publisher.__index = Publisher
function S.publisher(name) return setmetatable({ name = name, stages = {} }, Publisher) end
--- `Timer.publish(every: s, on: .main, in: .common)`: `.autoconnect().sink` runs every s seconds
--- on the main thread (until the cancellable is cancelled).
function S.timerPublisher(interval) return setmetatable({ timer = interval, stages = {} }, Publisher) end
local function stage(self, f) local p = setmetatable({ name = self.name, timer = self.timer, stages = { table.unpack(self.stages) } }, Publisher); p.stages[#p.stages + 1] = f; return p end
function Publisher.autoconnect(self) return self end
function Publisher.receive(self) return self end
function Publisher.eraseToAnyPublisher(self) return self end
function Publisher.debounce(self) return self end
function Publisher.throttle(self) return self end
function Publisher.removeDuplicates(self) return self end
function Publisher.share(self) return self end
function Publisher.map(self, f) return stage(self, function(v) return true, f(v) end) end
function Publisher.compactMap(self, f) return stage(self, function(v) local x = f(v); return x ~= nil, x end) end
function Publisher.filter(self, f) return stage(self, function(v) return f(v), v end) end
function Publisher.sink(self, a, b)
  local receive = b or a
  if type(receive) ~= "function" then return opaque("AnyCancellable") end
  local cancelled = false
  local function deliver(n)
    if cancelled then return end
    local v = n
    for _, st in ipairs(self.stages) do
      local keep
      keep, v = st(v)
      if not keep then return end
    end
    receive(v)
  end
  if type(self.timer) == "number" and self.timer > 0 then
    local interval = self.timer
    local function tick()
      if cancelled then return end
      deliver(now())
      G.after(interval, tick)
    end
    G.after(interval, tick)
  else
    S.observe(self.name, deliver)
  end
  return setmetatable({ store = function() end, cancel = function() cancelled = true end }, { __index = function() return function() end end })
end
Publisher.sink_receiveValue = Publisher.sink
Publisher.sink_receiveCompletion = Publisher.sink
