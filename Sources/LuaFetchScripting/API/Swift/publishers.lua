-- swift/publishers.lua, module 12 of 13 of the runtime of imported scenarios (README.md):
-- NotificationCenter's post and Combine's publishers (`publisher(for:)`, `Timer.publish`, an
-- `@Published` property's `$name`): their stages (map, filter, compactMap) and `sink`, on the
-- scenario's notifications and timers and on each assignment of the property.
-- Uses: process (opaque values), the scenario API.
local S, prim, shared = ...
local G = _G
local type, setmetatable, error, tostring = type, setmetatable, error, tostring
local opaque = shared.opaque

-- NotificationCenter and Combine's publisher(for:).
-- `NotificationCenter.default`: what the mapping table does not model of it is a stub's, as of any
-- opaque value (zotero's `NotificationCenter.default.rx.notification(...)` read `rx` as nil).
S.notificationCenter = opaque("NotificationCenter")
function S.post(name, info)
  if type(name) ~= "string" then return end
  G.notifications.post(name, info)
end
local Publisher = {}
Publisher.__index = Publisher

-- @Published (SPEC 18.9.6): each object's subscribers, by property, in the order they subscribed.
local published = setmetatable({}, { __mode = "k" })
--- `@Published var name` of type C (with its own willSet/didSet, if any): an assignment tells
--- the property's subscribers first.
function S.published(C, name, willSet, didSet)
  S.observed(C, name, function(o, v)
    local byName = published[o]
    local all = byName and byName["*"]
    if all then for i = 1, #all do all[i](nil) end end
    local list = byName and byName[name]
    if list then for i = 1, #list do list[i](v) end end
    if willSet then willSet(o, v) end
  end, didSet)
end
--- `object.objectWillChange` of an ObservableObject: before any @Published property changes.
function S.objectWillChange(o)
  if o == nil then error("attempt to read 'objectWillChange' of nil (an Optional used without '?' or '!')", 2) end
  return setmetatable({ object = o, property = "*", stages = {} }, Publisher)
end
--- `object.$name`: the property's publisher.
function S.publishedSubject(o, name)
  if o == nil then error("attempt to read '$" .. tostring(name) .. "' of nil (an Optional used without '?' or '!')", 2) end
  return setmetatable({ object = o, property = name, stages = {} }, Publisher)
end
function S.publisher(name) return setmetatable({ name = name, stages = {} }, Publisher) end
--- `Timer.publish(every: s, on: .main, in: .common)`: `.autoconnect().sink` runs every s seconds
--- on the main thread (until the cancellable is cancelled).
function S.timerPublisher(interval) return setmetatable({ timer = interval, stages = {} }, Publisher) end
local function stage(self, f)
  local p = setmetatable({ name = self.name, timer = self.timer, object = self.object, property = self.property,
                          stages = { table.unpack(self.stages) } }, Publisher)
  p.stages[#p.stages + 1] = f
  return p
end
function Publisher.dropFirst(self, n)
  local left = n or 1
  return stage(self, function(v) if left > 0 then left = left - 1; return false, v end return true, v end)
end
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
  if self.object ~= nil then
    -- `$name` of an @Published property: the current value now, then each new value as it is
    -- assigned (willSet: before the property changes, as Combine's Published does).
    local o, name = self.object, self.property
    local byName = published[o]
    if not byName then byName = {}; published[o] = byName end
    local list = byName[name]
    if not list then list = {}; byName[name] = list end
    list[#list + 1] = deliver
    if name ~= "*" then deliver(o[name]) end
  elseif type(self.timer) == "number" and self.timer > 0 then
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
