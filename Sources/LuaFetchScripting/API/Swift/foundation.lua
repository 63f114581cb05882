-- swift/foundation.lua, module 10 of 13 of the runtime of imported scenarios (README.md):
-- Foundation and UIKit bits the translation maps onto the scenario API: Date and Calendar on
-- virtual time, Progress, BGTaskScheduler requests, Timer, Operation and OperationQueue,
-- DispatchWorkItem, notification sequences, DispatchSource timers, NotificationCenter observers;
-- URLs as their strings. Uses: the host's primitives (prim), process, types (caseOf), strings
-- (describe), collections (the string members), concurrency (step, currentTask), the scenario API.
local S, prim, shared = ...
local G = _G
local type, rawget, rawset, rawequal, setmetatable = type, rawget, rawset, rawequal, setmetatable
local pcall = pcall
local remove = table.remove
local floor, huge = math.floor, math.huge
local co_yield = coroutine.yield
local opaque, isOpaque, caseOf = shared.opaque, shared.isOpaque, shared.caseOf
local describe, step, currentTask = shared.describe, shared.step, shared.currentTask
local P

shared.process(function(p) P = p end)

local stringMembers, stringMethods = shared.stringMembers, shared.stringMethods
-- URLs are their strings: the members Foundation's URL has.
-- `hashValue` (Hashable): the same for equal values, never nil (mlem keyed its guest-account
-- cache by the `hashValue` of a struct that synthesizes Hashable, a nil key at launch). A string
-- is FNV-1a of its bytes; a value of the app's types runs its `hash(into:)`, else combines its
-- stored properties by name, in order; a case its name and values; anything else its text.
local function fnv(s, h)
  h = h or 2166136261
  for i = 1, #s do h = ((h ~ s:byte(i)) * 16777619) & 0xffffffff end
  return h
end
stringMembers.hashValue = function(s) return fnv(s) end
function S.hashValue(v)
  local t = type(v)
  if t == "string" then return fnv(v) end
  if t == "number" then return math.type(v) == "integer" and v or fnv(tostring(v)) end
  if t ~= "table" or shared.isOpaque(v) then return fnv(tostring(v)) end
  local hasher = { h = 2166136261 }
  function hasher.combine(_, x) hasher.h = fnv(tostring(S.hashValue(x)), hasher.h) end
  hasher.v = hasher   -- `hash(into hasher: inout Hasher)` takes it as its inout box
  local C = S.typeOf(v)
  local own = C and (rawget(C, "hash_into") or rawget(C, "hash"))
  if type(own) == "function" then own(v, hasher); return hasher.h end
  local keys = {}
  for k in pairs(v) do if type(k) == "string" and k:sub(1, 2) ~= "__" then keys[#keys + 1] = k end end
  table.sort(keys)
  if rawget(v, "__case") then hasher:combine(rawget(v, "__case")) end
  for i = 1, #v do hasher:combine(rawget(v, i)) end
  for _, k in ipairs(keys) do hasher:combine(k); hasher:combine(rawget(v, k)) end
  return hasher.h
end
stringMembers.absoluteString = function(s) return s end
stringMembers.relativePath = function(s) return (s:gsub("^%a[%w+.-]*://[^/]*", "")) end
stringMembers.path = stringMembers.relativePath
stringMembers.lastPathComponent = function(s) return s:match("([^/]*)/*$") or s end
stringMembers.pathExtension = function(s) return s:match("%.([^./]*)$") or "" end
stringMembers.host = function(s) return s:match("^%a[%w+.-]*://([^/:?]+)") end
stringMembers.scheme = function(s) return s:match("^(%a[%w+.-]*)://") end
stringMembers.isFileURL = function(s) return s:sub(1, 1) == "/" or s:sub(1, 7) == "file://" end
stringMembers.deletingLastPathComponent = function(s) return (s:gsub("/*[^/]*/*$", "")) end
stringMembers.deletingPathExtension = function(s) return (s:gsub("%.[^./]*$", "")) end
stringMethods.appendingPathComponent = function(s, c) return (s:gsub("/*$", "")) .. "/" .. describe(c) end
stringMethods["appending_path"] = stringMethods.appendingPathComponent
stringMethods["appending_component"] = stringMethods.appendingPathComponent
stringMethods.appendingPathExtension = function(s, e) return s .. "." .. describe(e) end
stringMethods.deletingLastPathComponent = stringMembers.deletingLastPathComponent
stringMethods.deletingPathExtension = stringMembers.deletingPathExtension

-- ===========================================================================================
-- Foundation and UIKit bits the translation maps onto the scenario API.
-- ===========================================================================================
--- `Date()`: the virtual time as a Double, as Swift's TimeInterval is.
function S.now() return G.now() + 0.0 end

-- Calendar arithmetic on virtual time (seconds; 0 is midnight of the first day, SPEC 13).
S.calendar = setmetatable({}, { __tostring = function() return "Calendar" end })
local calendarUnits = { nanosecond = 1e-9, second = 1, minute = 60, hour = 3600, day = 86400, weekday = 86400,
                        weekOfYear = 604800, weekOfMonth = 604800, month = 30 * 86400, year = 365 * 86400 }
--- `Calendar.current.date(byAdding: .unit, value: n, to: d)`.
function S.dateAdding(unit, n, d)
  local u = calendarUnits[unit]
  if u == nil or type(n) ~= "number" or type(d) ~= "number" then return nil end
  return d + n * u
end
function S.startOfDay(d)
  if type(d) ~= "number" then return d end
  return d - d % 86400
end
--- `Calendar.current.date(bySettingHour: h, minute: m, second: s, of: d)`.
function S.dateSetting(d, h, m, sec)
  if type(d) ~= "number" or type(h) ~= "number" then return nil end
  return S.startOfDay(d) + h * 3600 + (type(m) == "number" and m or 0) * 60 + (type(sec) == "number" and sec or 0)
end
function S.sameDay(a, b)
  if type(a) ~= "number" or type(b) ~= "number" then return false end
  return a // 86400 == b // 86400
end
--- `Calendar.current.component(.hour, from: d)`.
function S.dateComponent(unit, d)
  if type(d) ~= "number" then return 0 end
  local t = floor(d)
  if unit == "hour" then return t % 86400 // 3600 end
  if unit == "minute" then return t % 3600 // 60 end
  if unit == "second" then return t % 60 end
  if unit == "day" then return t // 86400 + 1 end
  if unit == "weekday" then return t // 86400 % 7 + 1 end
  return 0
end

--- A `Progress` (`completedUnitCount`, `totalUnitCount`, `fractionCompleted`); a continued
--- processing task's `task.progress` reports each change to the task (`updateProgress`, SPEC 13).
local ProgressMeta = {}
ProgressMeta.__index = function(p, k)
  local v = rawget(p, "__v")
  if k == "fractionCompleted" then
    local total = v.totalUnitCount
    if type(total) ~= "number" or total <= 0 then return 0.0 end
    return (v.completedUnitCount or 0) / total
  end
  if k == "isFinished" then return (v.totalUnitCount or 0) > 0 and (v.completedUnitCount or 0) >= v.totalUnitCount end
  return v[k]
end
ProgressMeta.__newindex = function(p, k, x)
  local v = rawget(p, "__v")
  v[k] = x
  local task = rawget(p, "__task")
  if task and (k == "completedUnitCount" or k == "totalUnitCount") and type(v.completedUnitCount) == "number" then
    task:updateProgress(floor(v.completedUnitCount), floor(type(v.totalUnitCount) == "number" and v.totalUnitCount or 0))
  end
end
function S.progress(task, total)
  return setmetatable({ __v = { completedUnitCount = 0, totalUnitCount = total or 0, isCancelled = false }, __task = task }, ProgressMeta)
end
local progresses = setmetatable({}, { __mode = "k" })
function S.taskProgress(task)
  if type(task) ~= "table" then return S.progress(nil, 0) end
  local p = progresses[task]
  if not p then p = S.progress(task, 0); progresses[task] = p end
  return p
end

--- `try BGTaskScheduler.shared.submit(request)`: a refusal is a thrown error. An
--- earliestBeginDate the translation could not compute (a stub's value) is left out (as soon as
--- possible), said on the timeline.
function S.bgSubmit(request)
  if type(request) == "table" and not isOpaque(request) then
    -- `request.strategy = .fail`: the scenario API names the strategy by its string.
    local ok, strategy = pcall(function() return request.strategy end)
    if ok and caseOf(strategy) then request.strategy = caseOf(strategy) end
    local d = rawget(request, "earliestBeginDate")
    if d == nil then local ok, v = pcall(function() return request.earliestBeginDate end); if ok then d = v end end
    if d ~= nil and type(d) ~= "number" then
      prim.info("BGTaskScheduler.submit: earliestBeginDate is not a time the translation could compute (" .. describe(d) .. "); the request is submitted without it")
      request.earliestBeginDate = nil
    end
  end
  local ok, code = G.BGTaskScheduler.submit(request)
  if not ok then S.throw(S.case(code or "unavailable")) end
end

--- A fetch / push completion as Swift calls it (`.newData`, `UIBackgroundFetchResult.noData`).
function S.fetchResult(r)
  local c = caseOf(r)
  if c then return c end
  return r
end
function S.completion(handler)
  return function(r) return handler(S.fetchResult(r)) end
end

--- `UIApplication.shared.applicationState`.
function S.appState()
  return S.case(S.app and S.app.state or "background")
end

--- `Timer.scheduledTimer(withTimeInterval:repeats:block:)`: the block gets the timer.
function S.timer(interval, repeats, block)
  local t
  -- An interval the import could not see (an opaque value: home-assistant's settings read through
  -- a `@Dependency` it does not model) takes the typed default of a timer's interval, 60 s.
  if type(interval) ~= "number" then interval = 60 end
  if repeats then t = G.timer.every(interval, function() block(t) end)
  else t = G.timer.after(interval, function() block(t) end) end
  return t
end

-- OperationQueue and Operation: a queue whose maxConcurrentOperationCount is 1 runs its
-- operations one after another on a serial queue; any other count runs each on a background
-- thread of its own (dependencies and priorities are not modelled, docs/IMPORT.md).
S.Operation = S.class("Operation")
S.fields(S.Operation, function(o) o.isCancelled = false; o.isFinished = false; o.isExecuting = false; o.isReady = true end)
function S.Operation.init(o) end
function S.Operation.cancel(o) rawset(o, "isCancelled", true) end
function S.Operation.main(o)
  local b = rawget(o, "__block")
  if b then b() end
  local more = rawget(o, "__more")
  if more then for _, f in ipairs(more) do f() end end
end
function S.Operation.start(o)
  if rawget(o, "isFinished") then return end
  if not o.isCancelled then
    rawset(o, "isExecuting", true)
    o:main()
    rawset(o, "isExecuting", false)
  end
  rawset(o, "isFinished", true)
  local done = o.completionBlock
  if type(done) == "function" then done() end
end
function S.Operation.addDependency() end
function S.Operation.removeDependency() end
function S.Operation.waitUntilFinished() end
S.BlockOperation = S.class("BlockOperation", S.Operation)
function S.BlockOperation.init(o, block) rawset(o, "__block", block) end
function S.BlockOperation.addExecutionBlock(o, block)
  local more = rawget(o, "__more") or {}
  more[#more + 1] = block
  rawset(o, "__more", more)
end
function S.blockOperation(block) return S.new(S.BlockOperation, "init", block) end

S.OperationQueue = S.class("OperationQueue")
S.fields(S.OperationQueue, function(o) o.maxConcurrentOperationCount = -1; o.operations = S.array(); o.isSuspended = false end)
S.computed(S.OperationQueue, "operationCount", function(o) return #o.operations end)
function S.OperationQueue.init(o, main)
  rawset(o, "__main", main)
end
function S.OperationQueue.addOperation(o, op)
  if type(op) == "function" then op = S.blockOperation(op) end
  if type(op) ~= "table" or isOpaque(op) then return end
  local ops = o.operations
  ops[#ops + 1] = op
  local run = function()
    op:start()
    for i = #ops, 1, -1 do if rawequal(ops[i], op) then remove(ops, i) end end
  end
  if rawget(o, "__main") then return G.dispatch.main(run) end
  if o.maxConcurrentOperationCount == 1 then
    local q = rawget(o, "__q")
    if not q then q = G.dispatch.queue("NSOperationQueue"); rawset(o, "__q", q) end
    return q:async(run)
  end
  return G.dispatch.global(run)
end
function S.OperationQueue.addOperations(o, list) for _, op in S.iter(list) do o:addOperation(op) end end
function S.OperationQueue.addBarrierBlock(o, block) o:addOperation(block) end
function S.OperationQueue.cancelAllOperations(o) for _, op in S.iter(o.operations) do op:cancel() end end
function S.OperationQueue.waitUntilAllOperationsAreFinished() end
S.mainOperationQueue = nil
function S.operationQueue(main)
  if main then
    local q = P.mainOperationQueue
    if not q then q = S.new(S.OperationQueue, "init", true); P.mainOperationQueue = q end
    return q
  end
  return S.new(S.OperationQueue, "init", false)
end

--- `DispatchWorkItem { }`: `perform()`, `cancel()`, `isCancelled`.
function S.workItem(block)
  local item = { isCancelled = false }
  item.perform = function() if not item.isCancelled then block() end end
  item.cancel = function() item.isCancelled = true end
  return setmetatable(item, { __call = function() item.perform() end })
end
--- Runs a work item or a block (`q.async(execute: item)`).
function S.block(b)
  if type(b) == "table" and b.perform then return function() b.perform() end end
  return b
end

-- The names iOS posts, by their Swift spelling.
S.notificationNames = {
  didFinishLaunchingNotification = "UIApplicationDidFinishLaunchingNotification",
  didBecomeActiveNotification = "UIApplicationDidBecomeActiveNotification",
  willResignActiveNotification = "UIApplicationWillResignActiveNotification",
  didEnterBackgroundNotification = "UIApplicationDidEnterBackgroundNotification",
  willEnterForegroundNotification = "UIApplicationWillEnterForegroundNotification",
  willTerminateNotification = "UIApplicationWillTerminateNotification",
}

--- `NotificationCenter.default.notifications(named:)`: `for await n in ...` waits for each one
--- posted after the loop began (a loop outside a task sees none).
local NotificationSequence = {}
NotificationSequence.__index = NotificationSequence
S.NotificationSequenceMeta = NotificationSequence
function S.notificationSequence(name) return setmetatable({ name = name }, NotificationSequence) end
function S.notificationIter(seq)
  if not S.inTask() or type(seq.name) ~= "string" then return function() return nil end end
  local me = currentTask()
  local buffer, waiting = {}, false
  S.observe(seq.name, function(n)
    buffer[#buffer + 1] = n
    if waiting then waiting = false; me:later(0, function() step(me) end) end
  end)
  local i = 0
  return function()
    while #buffer == 0 do
      waiting = true
      co_yield({ wait = true })
    end
    i = i + 1
    return i, remove(buffer, 1)
  end
end

--- `DispatchSource.makeTimerSource(queue:)`: `schedule(deadline:repeating:)`, `setEventHandler`,
--- `resume()`/`activate()`, `suspend()`, `cancel()`; the handler runs on the source's queue.
local DispatchTimer = {}
DispatchTimer.__index = DispatchTimer
function S.dispatchTimer(queue) return setmetatable({ queue = queue or "global", delay = 0, gen = 0 }, DispatchTimer) end
function DispatchTimer.schedule(t, delay, repeating) t.delay = delay or 0; t.repeating = repeating end
function DispatchTimer.setEventHandler(t, fn) t.handler = fn end
function DispatchTimer.setCancelHandler(t, fn) t.cancelHandler = fn end
function DispatchTimer.resume(t)
  if t.cancelled or t.running then return end
  t.running = true
  t.gen = t.gen + 1
  local gen = t.gen
  local function fire()
    if t.cancelled or not t.running or t.gen ~= gen then return end
    if type(t.handler) == "function" then t.handler() end
    if type(t.repeating) == "number" and t.repeating > 0 and t.repeating ~= huge then S.qAsyncAfter(t.queue, t.repeating, fire) end
  end
  S.qAsyncAfter(t.queue, t.delay or 0, fire)
end
DispatchTimer.activate = DispatchTimer.resume
function DispatchTimer.suspend(t) t.running = false end
function DispatchTimer.cancel(t)
  if t.cancelled then return end
  t.cancelled = true
  if type(t.cancelHandler) == "function" then S.qAsync(t.queue, t.cancelHandler) end
end

--- `NotificationCenter.default.addObserver(...)` and `publisher(for:).sink`: `fn(notification)`.
function S.observe(name, fn)
  if type(name) ~= "string" then return end
  G.notifications.observe(name, function(n, info) fn({ name = n, userInfo = info, object = nil }) end)
  return opaque("NSObjectProtocol")
end
