-- swift/app.lua, module 11 of 13 of the runtime of imported scenarios (README.md):
-- App wiring and SwiftUI (18.3, 18.7.13): scene phases, the app and scene delegates, connected
-- scenes, launch options, `.backgroundTask`; Swift's initializers and conversions of numbers and
-- collections, precondition and fatalError, UUID, String(format:), UserDefaults through
-- `defaults`, Dispatch through the scenario's `dispatch`, Bundle.main's Info.plist.
-- Uses: process, types (metatables, copy, caseOf), operators (trap), strings (describe),
-- concurrency (`swift.runAsync`), the scenario API.
local S, prim, shared = ...
local G = _G
local type, rawget, rawset, setmetatable = type, rawget, rawset, setmetatable
local getmetatable, error, pcall, tostring, next = getmetatable, error, pcall, tostring, next
local pack, unpack, insert = table.pack, table.unpack, table.insert
local mtype, floor, huge = math.type, math.floor, math.huge
local opaque, isOpaque, ArrayMeta = shared.opaque, shared.isOpaque, shared.ArrayMeta
local DictMeta, SetMeta, copy, caseOf = shared.DictMeta, shared.SetMeta, shared.copy, shared.caseOf
local trap, describe = shared.trap, shared.describe
local P
shared.process(function(p) P = p end)

-- ===========================================================================================
-- SwiftUI (18.3, 18.7.13): `scenePhase` changes are the scene callbacks.
-- ===========================================================================================
function S.scenePhase(phase)
  local old = P.scenePhase or S.case("background")
  P.scenePhase = S.case(phase)
  if S.sameCase(old, P.scenePhase) then return end
  for _, fn in ipairs(P.phaseHandlers or {}) do fn(old, P.scenePhase) end
end
function S.currentScenePhase() return P.scenePhase or S.case("background") end


-- ===========================================================================================
-- The rest of what the translation calls (18.3): app wiring, Dispatch through the scenario's
-- `dispatch`, UserDefaults through `defaults`, URLSession through `http` and `urlSession`.
-- ===========================================================================================
--- `launchOptions`: the launch's reason as UIKit keys it (nil for a user launch).
function S.launchOptions(launch)
  if launch == nil or launch.reason == "user" then return nil end
  return S.dict({ [launch.reason] = true })
end

--- `@UIApplicationDelegateAdaptor(AppDelegate.self)`: this process's app delegate.
function S.adaptor(C)
  if P.appDelegate == nil then P.appDelegate = S.new(C, "init") end
  return P.appDelegate
end
function S.adaptorInstance() return P.appDelegate end
--- `UIApplication.shared.delegate`: this process's app delegate.
function S.appDelegate() return P.appDelegate end

--- `window.makeKeyAndVisible()`: UIKit shows the window's root view controller, loading its view
--- first. For a view controller of the app's own types, once per process: `loadView` and
--- `viewDidLoad` now, `viewWillAppear(true)`, then `viewDidAppear(true)` on the main queue's next
--- turn. (duckduckgo made its `chromeManager` in `viewDidLoad`; without the load every later use
--- of it crashed.) An iOS view controller (an opaque value) has nothing of the app's to run.
local function appMethod(C, k)
  while C do
    local v = rawget(C, k)
    if type(v) == "function" then return v end
    local info = shared.typeInfo[C]
    C = info and info.super
  end
end
function S.loadView(vc)
  local C = S.typeOf(vc)
  if C == nil then return end
  P.loadedViews = P.loadedViews or setmetatable({}, { __mode = "k" })
  if P.loadedViews[vc] then return end
  P.loadedViews[vc] = true
  for _, k in ipairs({ "loadView", "viewDidLoad" }) do
    local m = appMethod(C, k)
    if m then m(vc) end
  end
  local appear = appMethod(C, "viewWillAppear")
  if appear then appear(vc, true) end
  local appeared = appMethod(C, "viewDidAppear")
  if appeared then G.dispatch.main(function() appeared(vc, true) end) end
end
function S.isViewLoaded(vc) return P.loadedViews ~= nil and P.loadedViews[vc] == true end
function S.makeKeyAndVisible(w)
  if type(w) ~= "table" then return end
  -- What the app set (an iOS window keeps it as an opaque value's written member).
  if isOpaque(w) then S.loadView(rawget(w, "rootViewController"))
  elseif S.typeOf(w) then S.loadView(w.rootViewController) end
end

--- A SwiftUI view made for its background handlers, without its parent's arguments (by `initName`
--- with opaque values for its parameters, when it has initializers of its own): each of
--- `names` (its non-optional stored properties) it left nil is an opaque value.
function S.liftedView(C, names, initName, ...)
  local v = S.new(C, initName or "init", ...)
  for i = 1, #names do
    if v[names[i]] == nil then v[names[i]] = opaque(names[i]) end
  end
  return v
end

--- UIApplication's properties luafetch does not model (SPEC 18.9.7: `applicationIconBadgeNumber`,
--- `shortcutItems`, ...): a write is kept in this process and changes nothing else; a read gives
--- the last value written, else `start` (the value iOS starts with).
function S.appSet(name, v)
  P.appProperties = P.appProperties or {}
  P.appProperties[name] = v
end
function S.appGet(name, start)
  local written = P.appProperties and P.appProperties[name]
  if written ~= nil then return written end
  return start
end

--- A struct's memberwise initializer (`swift.new(T, "memberwise", ...)`, and `self.init(a:b:)`
--- from an initializer an extension adds): the stored properties in their declared order (nil:
--- left as they are).
function S.memberwiseInit(o, C, ...)
  local order = rawget(C, "__memberwise")
  if order then
    for i = 1, #order do
      local v = select(i, ...)
      if v ~= nil then o[order[i]] = v end
    end
  end
end

--- The window UIKit makes from a storyboard: its `rootViewController` is the storyboard's initial
--- view controller, never nil (NetNewsWire's `window!.rootViewController as! RootSplitViewController`
--- was drawn nil: a false crash).
function S.storyboardWindow()
  local w = opaque("UIWindow")
  S.setMember(w, "rootViewController", opaque("UIViewController"))
  return w
end

--- The scene delegate: made when the scene connects, kept for the process. `storyboard`: the
--- scene manifest names one, so UIKit made the window and set the delegate's `window` (18.9.7).
function S.connectScene(C, storyboard)
  if P.sceneDelegate == nil then
    P.sceneDelegate = S.new(C, "init")
    if storyboard and P.sceneDelegate.window == nil then P.sceneDelegate.window = S.storyboardWindow() end
  end
  return P.sceneDelegate
end
function S.sceneDelegate() return P.sceneDelegate or opaque("UISceneDelegate") end

--- `UIApplication.shared.connectedScenes`: the app's one window scene (SPEC 17), whose `delegate`
--- is the scene delegate once the scene has connected (nil before, and in an app without
--- scenes), and whose `activationState` follows the app's state.
local sceneStates = { active = "foregroundActive", inactive = "foregroundInactive", background = "background", suspended = "background" }
function S.connectedScenes()
  local scene = S.opaque("UIWindowScene")
  S.setMember(scene, "delegate", P.sceneDelegate)
  S.setMember(scene, "activationState", S.case(sceneStates[S.app and S.app.state] or "background"))
  return S.set({ scene })
end

--- `v?.api(...)`: `f(v)` when `v` is not nil.
function S.optApply(v, f)
  if v == nil then return nil end
  return f(v)
end

--- `f?(args)`: calls `f` when it is not nil; a value of the app's types runs its
--- `callAsFunction` (home-assistant's `Current.backgroundTask(withName:...)` called an instance).
function S.callOpt(f, ...)
  if f == nil then return nil end
  if type(f) == "table" and S.typeOf(f) then
    local m = f.callAsFunction
    if type(m) ~= "function" then
      local C, names = S.typeOf(f), {}
      while C do
        for k, v in pairs(C) do if type(k) == "string" and k:find("^callAsFunction") and type(v) == "function" then names[#names + 1] = k end end
        local info = shared.typeInfo[C]
        C = info and info.super
      end
      table.sort(names)
      m = names[1] and f[names[1]]
    end
    if type(m) == "function" then return m(f, ...) end
  end
  return f(...)
end

--- An observed property's initial value (its observers do not run for it, as Swift's).
function S.initStored(o, k, v)
  local store = rawget(o, "__stored")
  if not store then store = {}; rawset(o, "__stored", store) end
  store[k] = v
end

function S.precondition(ok, message)
  if not ok then error("Fatal error: " .. (message and describe(message) or "precondition failed"), 2) end
end
function S.fatal(message) error("Fatal error: " .. (message and describe(message) or ""), 2) end
function S.checkCancellation() if S.isCancelled() then S.throw(S.CancellationError) end end
function S.isMainThread() return true end

-- Numbers and collections from Swift's initializers.
function S.int(v)
  if type(v) == "string" then
    local n = tonumber(v)
    if n == nil or mtype(n) ~= "integer" then return nil end
    return n
  end
  if type(v) == "number" then
    if v ~= v or v == huge or v == -huge then trap("Double value cannot be converted to Int because it is either infinite or NaN") end
    return mtype(v) == "integer" and v or (v >= 0 and floor(v) or -floor(-v))
  end
  if type(v) == "boolean" then return v and 1 or 0 end
  -- A stub's number (`Int(dc_accounts_add_account(p))`) stays unknown: 0 is an edge value (a C
  -- library's failure), and deltachat's `add() == 0` then crashed each launch on purpose.
  if isOpaque(v) then return v end
  return 0
end
function S.double(v)
  if type(v) == "string" then return tonumber(v) end
  if type(v) == "number" then return v + 0.0 end
  if isOpaque(v) then return v end
  return 0.0
end
function S.bool(v) if type(v) == "string" then if v == "true" then return true elseif v == "false" then return false end return nil end return v and true or false end
function S.toArray(v) local r = {}; for _, x in S.iter(v) do r[#r + 1] = x end; return S.array(r) end
--- `Array(repeating: v, count: n)`: each element a copy of v (value semantics).
function S.repeating(v, n)
  local r = {}
  if type(n) ~= "number" then return S.array(r) end   -- an opaque count: empty
  if n < 0 then trap("Can't construct Array with count < 0") end
  for i = 1, floor(n) do r[i] = copy(v) end
  return S.array(r)
end
function S.dictFromPairs(v) local r = S.dict(); for _, p in S.iter(v) do r[p[1]] = p[2] end; return r end
function S.zip(a, b)
  local r = {}
  local xa, xb = S.toArray(a), S.toArray(b)
  for i = 1, math.min(#xa, #xb) do r[i] = S.array({ xa[i], xb[i] }) end
  return S.array(r)
end
function S.stride(from, to, by, through)
  local r = {}
  if by == 0 then trap("Stride size must not be zero") end
  local v = from
  while (by > 0 and (through and v <= to or v < to)) or (by < 0 and (through and v >= to or v > to)) do
    r[#r + 1] = v
    v = v + by
    if #r > 1000000 then break end
  end
  return S.array(r)
end
local uuids = 0
local UUIDMeta = { __tostring = function(u) return rawget(u, "uuidString") end,
                   __eq = function(a, b) return rawget(a, "uuidString") == rawget(b, "uuidString") end }
--- `UUID()`: a new one (numbered, so every run makes the same); `UUID(uuidString: s)`: the UUID
--- that string spells (compared by it: a UUID stored as its string and read back is the same
--- one), nil unless s is 8-4-4-4-12 hexadecimal digits.
function S.uuid(s)
  if s == nil then
    uuids = uuids + 1
    return setmetatable({ uuidString = string.format("00000000-0000-4000-8000-%012d", uuids) }, UUIDMeta)
  end
  if type(s) ~= "string" or not s:match("^%x%x%x%x%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%x%x%x%x%x%x%x%x$") then return nil end
  return setmetatable({ uuidString = s:upper() }, UUIDMeta)
end
--- `String(format:)` with Swift's %@ and %ld.
function S.format(fmt, ...)
  if type(fmt) ~= "string" then return describe(fmt) end
  local args = pack(...)
  for i = 1, args.n do if type(args[i]) ~= "number" then args[i] = describe(args[i]) end end
  local f = fmt:gsub("%%@", "%%s"):gsub("%%l+([di])", "%%%1"):gsub("%%lu", "%%d"):gsub("%%zd", "%%d")
  local ok, r = pcall(string.format, f, unpack(args, 1, args.n))
  if ok then return r end
  return fmt
end
function S.logger()
  local l = {}
  for _, level in ipairs({ "info", "debug", "error", "notice", "warning", "fault", "log", "trace", "critical" }) do
    l[level] = function(_, ...) S.print(...) end
  end
  return l
end

-- UserDefaults: the scenario's `defaults` (SPEC 12.1), which keeps property lists.
local function plist(v, depth)
  depth = depth or 0
  if depth > 32 then return nil end
  local t = type(v)
  if t == "nil" or t == "boolean" or t == "number" or t == "string" then return v end
  if t ~= "table" or isOpaque(v) then return nil end
  local mt = getmetatable(v)
  if mt == SetMeta then local r = {}; for k in pairs(v) do r[#r + 1] = plist(k, depth + 1) end; return r end
  if caseOf(v) then return rawget(v, "rawValue") or caseOf(v) end
  local r = {}
  for k, x in next, v do
    if type(k) == "string" or mtype(k) == "integer" then r[k] = plist(x, depth + 1) end
  end
  return r
end
local function fromPlist(v)
  if type(v) ~= "table" then return v end
  local n = #v
  local isSeq = n > 0 or next(v) == nil
  if isSeq then for k in next, v do if mtype(k) ~= "integer" or k < 1 or k > n then isSeq = false; break end end end
  local r = {}
  for k, x in next, v do r[k] = fromPlist(x) end
  return setmetatable(r, isSeq and ArrayMeta or DictMeta)
end
local registered = {}
S.userDefaults = setmetatable({}, { __tostring = function() return "UserDefaults" end })
function S.defaultsSet(key, value)
  if type(key) ~= "string" then return end
  G.defaults.set(key, plist(value))
end
function S.defaultsGet(key, kind)
  if type(key) ~= "string" then return nil end
  local v = G.defaults.get(key)
  if v == nil then v = registered[key] end
  if kind == "bool" then return v == true or (type(v) == "number" and v ~= 0) end
  if kind == "integer" then return type(v) == "number" and S.int(v) or 0 end
  if kind == "double" or kind == "float" then return type(v) == "number" and v + 0.0 or 0.0 end
  if kind == "string" then return type(v) == "string" and v or (type(v) == "number" and describe(v) or nil) end
  if kind == "stringArray" or kind == "array" then if type(v) == "table" then return fromPlist(v) end return nil end
  return fromPlist(v)
end
function S.defaultsRegister(d) for k, v in pairs(d or {}) do registered[k] = plist(v) end end

-- Bundle.main (SPEC 18.8.3): the app's Info.plist as the importer resolved it, written into the
-- scenario as `swift.infoPlist({...}, bundleIdentifier)`; each read hands out a fresh copy, typed
-- (strings, numbers, booleans, arrays, dictionaries), nil for a key it lacks.
local infoPlist, bundleId = nil, nil
function S.infoPlist(t, id)
  infoPlist = type(t) == "table" and t or nil
  bundleId = type(id) == "string" and id or (infoPlist and type(infoPlist.CFBundleIdentifier) == "string" and infoPlist.CFBundleIdentifier) or nil
end
function S.bundleIdentifier() return bundleId end
function S.infoDictionary() if infoPlist == nil then return nil end return setmetatable(fromPlist(infoPlist), DictMeta) end
function S.infoValue(key)
  if infoPlist == nil or type(key) ~= "string" then return nil end
  return fromPlist(infoPlist[key])
end

-- Dispatch, on the scenario's queues: "main", "global" or a queue object.
function S.qAsync(q, block, barrier, group)
  block = S.block(block)
  if group ~= nil then
    group:enter()
    local inner = block
    block = function() local ok, e = pcall(inner); group:leave(); if not ok then error(e, 0) end end
  end
  if q == "main" or q == nil then return G.dispatch.main(block) end
  if q == "global" then return G.dispatch.global(block) end
  if type(q) == "table" and isOpaque(q) then return G.dispatch.global(block) end
  if barrier then return q:async(block, { barrier = true }) end
  return q:async(block)
end
function S.qAsyncAfter(q, delay, block)
  block = S.block(block)
  if delay == huge then return end
  delay = math.max(0, delay or 0)
  if q == "main" or q == nil then return G.after(delay, block) end
  if q == "global" or isOpaque(q) then return G.dispatch.asyncAfter(delay, block) end
  return q:asyncAfter(delay, block)
end
function S.qSync(q, block)
  block = S.block(block)
  if q == "main" or q == "global" or q == nil or isOpaque(q) then return block() end
  return q:sync(block)
end
function S.concurrentPerform(n, f) for i = 0, n - 1 do f(i) end end
--- `group.wait()` / `semaphore.wait(timeout:)`: `.success` or `.timedOut`.
function S.groupWait(g, seconds)
  if g:wait(seconds) then return S.case("success") end
  return S.case("timedOut")
end
function S.semaphoreWait(s, seconds)
  if s:wait(seconds) then return S.case("success") end
  return S.case("timedOut")
end
--- swift-dependencies' `DependencyValues`, one per process: `@Dependency(\.name)` reads the app's
--- `extension DependencyValues { var name }`, whose `self[Key.self]` is the key's `liveValue`,
--- made once (home-assistant's whole `Current` environment came through it), or what the app
--- set (`self[Key.self] = value`).
function S.dependencyValues()
  if P.dependencyValues == nil then
    local values = {}
    P.dependencyValues = {
      subscript = function(_, K) local v = values[K]; if v == nil then v = K.liveValue; values[K] = v end return v end,
      setSubscript = function(_, K, v) values[K] = v end,
    }
  end
  return P.dependencyValues
end
--- `NSRecursiveLock()`: a `dispatch.lock()` the thread holding it may take again (each `lock`
--- matched by an `unlock`). A thread is the coroutine running the code that asks.
function S.recursiveLock()
  local m, owner, depth = G.dispatch.lock(), nil, 0
  local l = {}
  function l.lock()
    local me = coroutine.running()
    if owner ~= me then m:lock(); owner = me end
    depth = depth + 1
  end
  function l.tryLock()
    local me = coroutine.running()
    if owner ~= me then
      if not m:tryLock() then return false end
      owner = me
    end
    depth = depth + 1
    return true
  end
  function l.unlock()
    if depth == 0 then return end
    depth = depth - 1
    if depth == 0 then owner = nil; m:unlock() end
  end
  return l
end
function S.withLock(l, body)
  l:lock()
  local r = pack(pcall(body))
  l:unlock()
  if not r[1] then error(r[2], 0) end
  return unpack(r, 2, r.n)
end
function S.invalidate(t) if type(t) == "table" and t.invalidate then t:invalidate() end end

--- SwiftUI's `.backgroundTask(.appRefresh("ID")) { ... }`: the task completes when the closure
--- returns; its expiration cancels the closure's task.
function S.swiftUIBackgroundTask(id, body)
  G.BGTaskScheduler.register(id, function(task)
    local t
    task.expirationHandler = function() if t then t:cancel() end end
    t = S.runAsync(body, function() task:setTaskCompleted(true) end)
  end)
end

--- `.onChange(of: scenePhase) { ... }` with one (new) or two (old, new) parameters.
function S.onScenePhase(fn, arity)
  P.phaseHandlers = P.phaseHandlers or {}
  insert(P.phaseHandlers, function(old, new) if arity == 2 then fn(old, new) elseif arity == 0 then fn() else fn(new) end end)
end
