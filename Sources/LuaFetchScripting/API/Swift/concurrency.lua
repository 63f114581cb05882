-- swift/concurrency.lua, module 9 of 13 of the runtime of imported scenarios (README.md):
-- Swift concurrency (18.3, 18.7.2): `Task {}` runs its body as a coroutine on the main queue
-- or a background queue; `await` suspends the task (not its thread) and resumes it on the same
-- executor; cancellation, continuations, task groups, actors' main-actor hops.
-- Uses: types (GroupMeta, caseOf), errors (isSwiftError), the scenario API (`after`,
-- `dispatch`, `work`). Shares: step, currentTask.
local S, prim, shared = ...
local G = _G
local type, setmetatable, getmetatable, error = type, setmetatable, getmetatable, error
local pcall = pcall
local pack, unpack, remove = table.pack, table.unpack, table.remove
local co_create, co_resume, co_yield = coroutine.create, coroutine.resume, coroutine.yield
local co_status, co_running = coroutine.status, coroutine.running
local GroupMeta, caseOf, isSwiftError = shared.GroupMeta, shared.caseOf, shared.isSwiftError

-- ===========================================================================================
-- Swift concurrency (18.3, 18.7.2): `Task {}` runs its body as a coroutine on the main queue or
-- a background queue; `await` suspends the task (not its thread) and resumes it on the same
-- executor after the awaited time.
-- ===========================================================================================
local TaskMeta = {}
TaskMeta.__index = TaskMeta
local current = nil   -- the task running now

local function step(task, ...)
  local prev = current
  current = task
  local r = pack(co_resume(task.co, ...))
  current = prev
  if not r[1] then
    local e = r[2]
    if isSwiftError(e) then
      task.error = e
      task.done = true
    else
      error(e, 0)   -- a crash inside the task is the app's crash
    end
  elseif co_status(task.co) == "dead" then
    task.done = true
    task.value = r[2]
  else
    local req = r[2]
    if type(req) == "table" then
      if req.sleep then
        task.waiting = true
        task.cancellable = req.cancellable
        local gen = (task.wakeGen or 0) + 1
        task.wakeGen = gen
        task:later(req.sleep, function()
          if task.wakeGen ~= gen then return end   -- woken earlier by its cancellation
          task.waiting = false; task.cancellable = false
          step(task)
        end)
      elseif req.hop then
        task.main = req.hop == "main"
        task:later(0, function() step(task) end)
      end
      -- req.wait: a continuation resumes it
    end
  end
  if task.done then
    local waiters = task.waiters
    task.waiters = {}
    for _, w in ipairs(waiters) do w() end
  end
end

function TaskMeta:later(seconds, fn)
  if self.main then
    G.after(seconds or 0, fn)
  elseif seconds and seconds > 0 then
    G.dispatch.asyncAfter(seconds, fn)
  else
    G.dispatch.global(fn)
  end
end

--- `Task { body }` (main: on the main actor); `Task.detached` passes main = false.
function S.task(body, main)
  local t = setmetatable({ co = co_create(body), main = main and true or false, waiters = {}, cancelled = false }, TaskMeta)
  t:later(0, function() step(t) end)
  return t
end
--- Runs `body` as a task now, on the calling thread (an async delegate method), calling `done`
--- with its result when it finishes.
function S.runAsync(body, done)
  local t = setmetatable({ co = co_create(body), main = true, waiters = {}, cancelled = false }, TaskMeta)
  if done then t.waiters[1] = function() done(t.value, t.error) end end
  step(t)
  return t
end
function S.inTask() return current ~= nil and co_running() == current.co end
function S.currentTask() return current end

--- Suspends the running task for `seconds` (`Task.sleep`, an awaited stub); outside a task the
--- calling thread waits instead.
function S.sleep(seconds)
  if S.inTask() then co_yield({ sleep = seconds or 0 }) return end
  if seconds and seconds > 0 then G.work(seconds) end
end
function S.suspendForever()
  if S.inTask() then
    current.waitingForever = true
    co_yield({ wait = true })
  end
  G.work(1e9)
end

--- `await t.value` / `try await t.value`.
function S.taskValue(t)
  if type(t) ~= "table" or getmetatable(t) ~= TaskMeta then return t end
  if not t.done then
    if S.inTask() then
      local me = current
      t.waiters[#t.waiters + 1] = function() me:later(0, function() step(me) end) end
      co_yield({ wait = true })
    else
      return nil
    end
  end
  if t.error then error(t.error, 0) end
  return t.value
end
--- `t.cancel()`: the flag the code checks (`Task.isCancelled`, `checkCancellation`); a task
--- suspended in `Task.sleep` or in an awaited throwing call (URLSession's and SDKs' async APIs
--- end at cancellation) resumes at once with a CancellationError, as in Swift.
function TaskMeta:cancel()
  if self.cancelled then return end
  self.cancelled = true
  for _, h in ipairs(self.cancelHandlers or {}) do h() end
  if self.waiting and self.cancellable and not self.done then
    self.wakeGen = (self.wakeGen or 0) + 1
    self.waiting = false; self.cancellable = false
    self.wokenByCancel = true
    self:later(0, function() step(self) end)
  end
end
S.CancellationError = S.case("CancellationError")
--- Suspends the running task for `seconds`, throwing a CancellationError when the task is (or
--- gets) cancelled meanwhile: `Task.sleep`, and awaited throwing stubs.
function S.taskSleep(seconds)
  if not S.inTask() then
    if seconds and seconds > 0 then G.work(seconds) end
    return
  end
  if current.cancelled then S.throw(S.CancellationError) end
  co_yield({ sleep = seconds or 0, cancellable = true })
  if current.wokenByCancel then
    current.wokenByCancel = false
    S.throw(S.CancellationError)
  end
end
TaskMeta.value = nil
function S.isCancelled() return current ~= nil and current.cancelled or false end
--- `t.isCancelled` of a handle.
function S.taskCancelled(t)
  if type(t) == "table" and getmetatable(t) == TaskMeta then return t.cancelled end
  return false
end
--- `await t.result`: `.success(value)` or `.failure(error)`.
function S.taskResult(t)
  local ok, v = pcall(S.taskValue, t)
  if ok then return S.case("success", v) end
  if isSwiftError(v) then return S.case("failure", v.value) end
  error(v, 0)
end

--- `withCheckedContinuation { c in ... }`: the task waits until `c.resume(...)` is called.
function S.continuation(body)
  if not S.inTask() then
    local result, got
    local c = { resume = function(_, v) result, got = v, true end }
    c.resume_returning = c.resume
    c.resume_throwing = function(_, e) result, got = S.throwValue(e), true end
    body(c)
    return result
  end
  local me = current
  local resumed, waiting, value, err = false, false, nil, nil
  -- Resumed inside its body (a completion called synchronously), the task has not suspended:
  -- it goes on when the body returns, and nothing wakes it later (NetNewsWire's database
  -- fetch called its completion at once, and the wake-up resumed a finished task).
  local function resume(v, e)
    if resumed then error("Fatal error: SWIFT TASK CONTINUATION MISUSE: tried to resume its continuation more than once", 3) end
    resumed, value, err = true, v, e
    if waiting then me:later(0, function() step(me) end) end
  end
  local c = {}
  c.resume = function(_, v) resume(v) end
  c.resume_returning = c.resume
  c.resume_throwing = function(_, e) resume(nil, e) end
  c.resume_with = function(_, r)
    if caseOf(r) == "failure" then resume(nil, r[1]) else resume(type(r) == "table" and r[1] or r) end
  end
  body(c)
  if not resumed then
    waiting = true
    co_yield({ wait = true })
  end
  if err ~= nil then S.throw(err) end
  return value
end
function S.throwValue(e) return e end

--- A closure that awaits, called where no task runs (by a stub, after its time; by a
--- notification observer): its body runs as a new task, as the SDK's own `Task` would run it.
function S.asyncClosure(fn, main)
  return function(...)
    if S.inTask() then return fn(...) end
    local args = pack(...)
    return S.task(function() return fn(unpack(args, 1, args.n)) end, main)
  end
end

--- `withTaskCancellationHandler(operation:onCancel:)`: onCancel runs when the task is cancelled
--- (at once when it already is) while the operation runs.
function S.withCancellationHandler(operation, onCancel)
  if not S.inTask() then return operation() end
  local me = current
  if me.cancelled then onCancel() end
  me.cancelHandlers = me.cancelHandlers or {}
  local handlers = me.cancelHandlers
  handlers[#handlers + 1] = onCancel
  local r = pack(pcall(operation))
  for i = #handlers, 1, -1 do if handlers[i] == onCancel then remove(handlers, i) break end end
  if not r[1] then error(r[2], 0) end
  return unpack(r, 2, r.n)
end

-- Task groups (`withTaskGroup`, `withThrowingTaskGroup`, `withDiscardingTaskGroup`): each
-- `addTask` is a child task on a background queue; `for await x in group`, `next()` and
-- `waitForAll()` wait for the children in the order they finish; the group waits for the rest
-- when its body returns; a child's thrown error is rethrown where its result is taken.
GroupMeta.__index = GroupMeta
GroupMeta.__name = "TaskGroup"
local function groupWait(g)
  local me = current
  g.waiter = function() g.waiter = nil; me:later(0, function() step(me) end) end
  co_yield({ wait = true })
end
function GroupMeta.addTask(g, a, b)
  local op = type(b) == "function" and b or a
  if type(op) ~= "function" then return end
  g.running = g.running + 1
  local child
  child = S.task(op, false)
  g.children[#g.children + 1] = child
  if g.cancelled then child:cancel() end
  child.waiters[#child.waiters + 1] = function()
    g.running = g.running - 1
    g.results[#g.results + 1] = child
    if g.waiter then g.waiter() end
  end
  return true
end
GroupMeta.addTaskUnlessCancelled = function(g, a, b)
  if g.cancelled or S.isCancelled() then return false end
  return GroupMeta.addTask(g, a, b)
end
function GroupMeta.next(g)
  while #g.results == 0 do
    if g.running == 0 or not S.inTask() then return nil end
    groupWait(g)
  end
  local child = remove(g.results, 1)
  if child.error then error(child.error, 0) end
  return child.value
end
function GroupMeta.nextResult(g)
  local ok, v = pcall(GroupMeta.next, g)
  if ok then return v ~= nil and S.case("success", v) or nil end
  if isSwiftError(v) then return S.case("failure", v.value) end
  error(v, 0)
end
function GroupMeta.waitForAll(g)
  while g.running > 0 and S.inTask() do groupWait(g) end
  local first
  for _, child in ipairs(g.results) do if child.error and not first then first = child.error end end
  g.results = {}
  if first and g.throwing then error(first, 0) end
end
function GroupMeta.cancelAll(g)
  g.cancelled = true
  for _, child in ipairs(g.children) do child:cancel() end
end
function GroupMeta.isEmpty(g) return g.running == 0 and #g.results == 0 end
function GroupMeta.isCancelled(g) return g.cancelled or S.isCancelled() end
function S.taskGroup(body, throwing)
  local g = setmetatable({ running = 0, results = {}, children = {}, throwing = throwing, cancelled = false }, GroupMeta)
  local r = pack(pcall(body, g))
  -- The group's children finish before it returns (Swift awaits them), also after a throw.
  while g.running > 0 and S.inTask() do groupWait(g) end
  if not r[1] then error(r[2], 0) end
  return unpack(r, 2, r.n)
end
--- `for await x in group`.
local function groupIter(g)
  local i = 0
  return function()
    local v = GroupMeta.next(g)
    if v == nil and g.running == 0 and #g.results == 0 then return nil end
    i = i + 1
    return i, v
  end
end
S.groupIter = groupIter

--- `MainActor.run { body }`: the task hops to the main thread for the body.
function S.onMain(body)
  if S.inTask() and not current.main then co_yield({ hop = "main" }) end
  return body()
end

shared.step = step
shared.currentTask = S.currentTask
