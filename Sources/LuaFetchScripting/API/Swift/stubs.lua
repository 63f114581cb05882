-- swift/stubs.lua, module 8 of 13 of the runtime of imported scenarios (README.md):
-- Member access and calls where the importer did not know the receiver's type (`swift.get`,
-- `swift.call`), and the stubs of 18.4 and 18.7: calls into code the imported files do not
-- define, whose time, result and failure are drawn from their own seeded stream (`prim.draw`),
-- and `unsupported`.
-- Uses: the host's primitives (prim), process (opaque values and where their files live), types (metatables, copy,
-- caseOf), collections (builtinTables, emptyOpaques), failures (the sites, specs and counts;
-- which calls fail; the answers of `-> Bool` calls).
local S, prim, shared = ...
local G = _G
local type, rawget, rawset, getmetatable, setmetatable, select, error = type, rawget, rawset, getmetatable, setmetatable, select, error
local pcall, tostring = pcall, tostring
local pack, unpack, sort = table.pack, table.unpack, table.sort
local mtype, floor = math.type, math.floor
local Opaque, opaque, isOpaque, opaqueName = shared.Opaque, shared.opaque, shared.isOpaque, shared.opaqueName
local ArrayMeta, DictMeta, SetMeta = shared.ArrayMeta, shared.DictMeta, shared.SetMeta
local copy, CaseMeta, caseOf, typeInfo = shared.copy, shared.CaseMeta, shared.caseOf, shared.typeInfo
local builtinTables, emptyOpaques, shadowedBuiltin = shared.builtinTables, shared.emptyOpaques, shared.shadowedBuiltin
local failureKind, failsNow, touchStub = shared.failureKind, shared.failsNow, shared.touchStub
local boolAnswer, wrote = shared.boolAnswer, shared.wrote
local inAppGroup, fromAppGroup = shared.inAppGroup, shared.fromAppGroup
-- The call sites (swift.sites), stubs{} by name, and per site how many times it ran in this run.
local sites, specs, counts = shared.stubSites, shared.stubSpecs, shared.stubCounts

-- ===========================================================================================
-- Member access and calls where the importer did not know the receiver's type: an instance of a
-- translated type answers itself, a built-in value by the tables above, anything else (an opaque
-- value, an SDK object) is a stub call named by the site.
-- ===========================================================================================
local safeIndex

--- `t[k]`, and whether it could be read (the scenario API's objects refuse unknown fields).
safeIndex = function(t, k)
  local mt = getmetatable(t)
  -- A case token's member other than its values is one of a type the scenario does not know
  -- (`device: UIDevice = .current`, then `device.model`): not found, so a stub's value.
  if mt == CaseMeta then
    local v = rawget(t, k)
    return v, v ~= nil
  end
  if mt == nil or mt == Opaque or mt == ArrayMeta or mt == DictMeta or mt == SetMeta then return rawget(t, k), true end
  local ok, v = pcall(function() return t[k] end)
  if ok then return v, true end
  return nil, false
end

-- ===========================================================================================
-- Opaque values keep what the app writes (issue 38.3): a property the app assigns on an opaque
-- object reads back what it assigned (a semaphore, a flag, a handler; nil too), so the app's own
-- objects survive a trip through a stub. A property never written is a stub's value; one whose
-- site the importer marked `bool` (read as a condition), or named as Swift's API guidelines
-- name Booleans (isX, hasX, canX, shouldX, ...), reads as a Bool drawn once per object and
-- property from the run's seed (false and true both searched), never an opaque "true forever".
-- ===========================================================================================
local NIL = {}   -- a property assigned nil
local drawnBools = setmetatable({}, { __mode = "k" })   -- opaque value -> { property -> its drawn Bool }
local boolPrefixes = { "is", "has", "can", "should", "did", "was", "were", "will", "needs", "allows", "supports", "contains" }
local boolNames = {}
local function looksBoolean(name)
  local known = boolNames[name]
  if known ~= nil then return known end
  local yes = false
  for _, p in ipairs(boolPrefixes) do
    local c = name:sub(#p + 1, #p + 1)
    if name:sub(1, #p) == p and c ~= "" and c:match("%u") then yes = true break end
  end
  boolNames[name] = yes
  return yes
end

--- A property of an opaque value: what the app wrote, a drawn Bool, or a stub's value.
local function opaqueMember(site, recv, name)
  local v = rawget(recv, name)
  if v ~= nil then
    if v == NIL then return nil end
    return v
  end
  local info = sites[site]
  local drawn = drawnBools[recv] and drawnBools[recv][name]
  if drawn ~= nil then
    touchStub(info and info[1])
    return drawn
  end
  -- A stub's error carries no underlying error: its `userInfo` is empty (duckduckgo's pixel
  -- code walked `userInfo[NSUnderlyingErrorKey]` of a failed call's error forever: an app-hang).
  if opaqueName[recv] == "Error" and (name == "userInfo" or name == "underlyingErrors") then
    return name == "userInfo" and S.dict() or S.array()
  end
  if info and (info.bool or looksBoolean(name)) then
    local n = (counts[site] or 0) + 1
    counts[site] = n
    local b = prim.draw(site, n, 5) < 0.5
    drawnBools[recv] = drawnBools[recv] or {}
    drawnBools[recv][name] = b
    touchStub(info[1])
    return b
  end
  v = S.stubValue(site, recv)
  if inAppGroup[recv] and isOpaque(v) then inAppGroup[v] = true end
  return v
end

--- `recv.name`.
function S.get(site, recv, name)
  if recv == nil then error("attempt to read '" .. name .. "' of nil (an Optional used without '?' or '!')", 2) end
  local members = builtinTables(recv)
  if members then
    local m = members[name]
    if m then return m(recv) end
    if type(recv) == "table" and getmetatable(recv) ~= Opaque then return rawget(recv, name) end
    return nil
  end
  if type(recv) == "table" then
    if isOpaque(recv) then return opaqueMember(site, recv, name) end
    if caseOf(recv) and name == "rawValue" then return recv.rawValue end
    local v, ok = safeIndex(recv, name)
    -- One of the app's errors bridged to NSError (`error as NSError`) has an empty `userInfo`
    -- (duckduckgo's pixel parameters read `nsError.userInfo[NSUnderlyingErrorKey]`: a false crash).
    if v == nil and name == "userInfo" and S.typeOf(recv) ~= nil then return S.dict() end
    if ok then return v end
    return S.stubValue(site, recv)   -- an object of the scenario API without that field
  end
  return nil
end

--- A member of one of the app's own types that the import does not declare (a macro's
--- expansion, an extension in a module the app's target does not compile; Swift compiled it, so
--- it exists): what the app stored in it, else what an opaque value's member would be (a drawn
--- Bool, the stub's value at this site), never a nil field.
function S.undeclared(site, recv, name)
  if recv == nil then error("attempt to read '" .. name .. "' of nil (an Optional used without '?' or '!')", 2) end
  if type(recv) ~= "table" then return S.get(site, recv, name) end
  local v = rawget(recv, name)
  if v ~= nil then return v end
  return opaqueMember(site, recv, name)
end

--- `recv.name = v`.
function S.setMember(recv, name, v)
  if recv == nil then error("attempt to set '" .. name .. "' of nil (an Optional used without '?' or '!')", 2) end
  if type(recv) ~= "table" then return end
  if isOpaque(recv) then
    if v == nil then v = NIL end
    if fromAppGroup(v) then inAppGroup[recv] = true end
    rawset(recv, name, v)
    return
  end
  recv[name] = v
end

--- `recv.name(args)`; `labelled`: the name with its first argument label (`remove_at`), tried first.
-- Optional's own `map`/`flatMap` (18.9.6): on nil they give nil; on a value that has no method
-- of that name, the closure gets the value itself.
local function optionalMap(name, recv, f)
  if (name == "map" or name == "flatMap") and type(f) == "function" then return true, f(recv) end
  return false
end

function S.call(site, recv, name, labelled, ...)
  if recv == nil then
    if name == "map" or name == "flatMap" then return nil end
    error("attempt to call '" .. name .. "' on nil (an Optional used without '?' or '!')", 2)
  end
  -- A Result's `get()`: the success's value, or the failure's error thrown.
  local case = caseOf(recv)
  if name == "get" and (case == "success" or case == "failure") and select("#", ...) == 0 then
    if case == "failure" then S.throw(recv[1]) end
    return recv[1]
  end
  local _, methods = builtinTables(recv)
  if methods then
    local m = (labelled and (methods[labelled] or shadowedBuiltin(methods, name))) or methods[name]
    if m then return m(recv, ...) end
    local members = builtinTables(recv)
    if members[name] then
      local v = members[name](recv)
      if type(v) == "function" then return v(...) end
    end
    local mapped, r = optionalMap(name, recv, ...)
    if mapped then return r end
    return S.stubCall(site, recv, ...)
  end
  -- `wait(timeout: .now() + 20)` on a semaphore or group whose type the importer could not see
  -- (stored on an opaque value, issue 38.3): the deadline is absolute, the scenario API's `wait`
  -- takes seconds; `.success` or `.timedOut`, as APIs' DispatchSemaphore.wait row gives.
  if (labelled == "wait_timeout" or labelled == "wait_wallTimeout") and type(recv) == "table" and not isOpaque(recv) then
    local wait = safeIndex(recv, "wait")
    if type(wait) == "function" then
      local deadline = ...
      local seconds = mtype(deadline) and (deadline > G.now() and deadline - G.now() or 0) or nil
      if wait(recv, seconds) then return S.case("success") end
      return S.case("timedOut")
    end
  end
  if type(recv) == "table" and not isOpaque(recv) then
    local m = labelled and safeIndex(recv, labelled) or nil
    if m == nil then m = safeIndex(recv, name) end
    -- On a type (`pixelFiring.fire(...)`, `pixelFiring: PixelFiring.Type`) a method is static: no self.
    if type(m) == "function" then if typeInfo[recv] then return m(...) end return m(recv, ...) end
    if type(m) == "table" and getmetatable(m) == Opaque then return S.stubCall(site, recv, ...) end
    if m == nil then
      local mapped, r = optionalMap(name, recv, ...)
      if mapped then return r end
      return S.stubCall(site, recv, ...)
    end
    return m
  end
  -- A closure the app stored on an opaque value (`client.onDone = { ... }`, then `client.onDone()`).
  if type(recv) == "table" then
    local stored = rawget(recv, name)
    if type(stored) == "function" then return stored(...) end
  end
  return S.stubCall(site, recv, ...)
end

--- `recv?.name(args)`.
function S.optCall(site, recv, name, labelled, ...)
  if recv == nil then return nil end
  return S.call(site, recv, name, labelled, ...)
end
function S.optGet(site, recv, name)
  if recv == nil then return nil end
  return S.get(site, recv, name)
end

-- ===========================================================================================
-- Stubs (18.4, 18.7): calls into code the imported files do not define.
-- ===========================================================================================
local defaultRange = { 0.01, 10 }
local exploreRange = { 0.001, 120 }

local function drawSeconds(spec, site, n, explore)
  local s = spec.seconds
  if s == "never" then return nil end
  if type(s) == "number" then return s end
  local range = s or (explore and exploreRange or defaultRange)
  local u = prim.draw(site, n, 1)
  local v = range[1] + u * (range[2] - range[1])
  return floor(v * 1000 + 0.5) / 1000
end

--- What one stub call does this time: seconds, result, whether it takes its failure path.
local function outcome(site, recv)
  local info = sites[site] or { "stub" }
  local name = info[1]
  local spec = specs[name] or {}
  local n = (counts[site] or 0) + 1
  counts[site] = n
  local explore = prim.exploreDraws()
  local seconds = drawSeconds(spec, site, n, explore)
  local result
  local r = spec.result
  if r == nil or r == "opaque" then result = opaque(name)
  elseif r == "nil" then result = nil
  elseif type(r) == "table" then result = copy(r)
  else result = r end
  local failing = false
  touchStub(name)
  local kind = explore and failureKind(info, spec)
  if kind and prim.stubFailures() == "every" then
    -- The draws before 18.9: the failure path and a nil result, each with probability 1/4.
    if info.fails or info.throws then failing = failsNow(site, n, "fails") end
    if info.opt and (r == nil or r == "opaque") and failsNow(site, n, "nil") then
      result = nil
      prim.note(name, info[2], "nil")
    end
  elseif kind and failsNow(site, n, kind) then
    if kind == "nil" then
      result = nil
      prim.note(name, info[2], "nil")
    else
      failing = true
    end
  end
  if failing then prim.note(name, info[2], "its failure path") end
  return { name = name, spec = spec, seconds = seconds, failing = failing, result = result, info = info, n = n }
end

-- The arguments a closure given to a stub is called with: nil for error parameters (a non-nil
-- opaque error on the failure path), false for a success flag on the failure path, a Result's
-- case, opaque values for the rest.
local function closureArgs(o, c)
  local args = {}
  local n = c.params or 0
  for i = 1, n do
    local kind = c.kinds and c.kinds[i]
    if kind == "error" then args[i] = o.failing and opaque("Error") or nil
    elseif kind == "flag" then args[i] = not o.failing
    elseif kind == "result" then args[i] = o.failing and S.case("failure", opaque("Error")) or S.case("success", opaque(o.name))
    elseif kind == "fetchResult" then args[i] = S.case(o.failing and "failed" or "newData")
    else args[i] = opaque(o.name) end
  end
  return args, n
end

local function runClosures(o, argv, argn)
  local closures = o.info.closures or {}
  local calls = o.spec.calls or 1
  local toCall = {}
  for idx, c in pairs(closures) do
    local f = argv[idx]
    if type(f) == "function" then
      local isFailure = c.failure
      if o.failing then
        if isFailure or not (o.info.fails and o.info.hasFailureClosure) then toCall[#toCall + 1] = { f, c } end
      elseif not isFailure then
        toCall[#toCall + 1] = { f, c }
      end
    end
  end
  sort(toCall, function(a, b) return a[2].index < b[2].index end)
  local function fire()
    for _ = 1, calls do
      for _, fc in ipairs(toCall) do
        local args, n = closureArgs(o, fc[2])
        if o.info.throws then
          fc[1](unpack(args, 1, n))   -- a call under `try` rethrows what its closure throws
        else
          -- Otherwise the library handles it (Combine's `tryMap`: the publisher's failure).
          local ok, e = pcall(fc[1], unpack(args, 1, n))
          if not ok and not S.isSwiftError(e) then error(e, 0) end
        end
      end
    end
  end
  return fire, #toCall
end

-- `lock = "ifSharedContainer"` (the importer's guess for a database write): only when the
-- receiver was opened on a path in the app-group container (process.lua's fromAppGroup).
local function holdLock(o, recv)
  local l = o.spec.lock
  if l == "sharedContainer" or (l == "ifSharedContainer" and inAppGroup[recv]) then return G.sharedContainer.lock(o.name) end
end

--- A stub's value (a property read: `AccountStore.shared.currentAccount`).
function S.stubValue(site)
  local o = outcome(site)
  return o.result
end

-- A blocking call's time, spent on the calling thread (`"never"`: it never returns).
local function spendOnThread(o)
  if o.seconds == nil then G.work(1e9) elseif o.seconds > 0 then G.work(o.seconds) end
end

--- A stub call: returns its result now; its closures run `seconds` later on the main queue
--- (or, `blocking`, the call takes that long on the calling thread). Awaited, the task waits.
function S.stubCall(site, recv, ...)
  local argv = pack(...)
  local o = outcome(site, recv)
  if o.info.writes then wrote(argv[o.info.writes]) end
  if o.info.bool and isOpaque(o.result) then o.result = boolAnswer(site, o.info, argv[1]) end
  -- `T()`: an object the app makes empty (its subscript holds only what the app writes).
  if argv.n == 0 and recv == nil and isOpaque(o.result) and o.name:sub(-5) == ".init" then emptyOpaques[o.result] = true end
  if isOpaque(o.result) and not inAppGroup[o.result] then
    local there = fromAppGroup(recv)
    for i = 1, argv.n do there = there or fromAppGroup(argv[i]) end
    if there then inAppGroup[o.result] = true end
  end
  local fire, closures = runClosures(o, argv, argv.n)
  local lock = holdLock(o, recv)
  if o.info.await and S.inTask() then
    if o.info.throws then
      -- A throwing async call ends when its task is cancelled (its lock released first).
      local ok, e = pcall(S.taskSleep, o.seconds == nil and 1e9 or o.seconds)
      if not ok then
        if lock then lock:unlock() end
        error(e, 0)
      end
    else
      if o.seconds == nil then S.suspendForever() end
      S.sleep(o.seconds)
    end
    if lock then lock:unlock() end
    if closures > 0 then fire() end
    if o.failing and o.info.throws then S.throw(opaque("Error")) end
    return o.result
  end
  if o.info.sync then
    -- A critical section's closure (`sync = true`: `mutate`, `withLock`, `inDatabase`, `write`,
    -- ...) runs before the call returns, on the calling thread, holding the call's lock
    -- meanwhile (so a closure that waits while holding it is the finding; the same thread calling
    -- a completion after it is none); `blocking`: its `seconds` are spent first.
    if o.spec.blocking then spendOnThread(o) end
    -- What the closure throws leaves the call after its lock is released (a rolled-back write).
    local ok, e = true, nil
    if closures > 0 then ok, e = pcall(fire) end
    if lock then lock:unlock() end
    if not ok then error(e, 0) end
  elseif o.spec.blocking or o.info.await then
    spendOnThread(o)
    if lock then lock:unlock() end
    if closures > 0 then fire() end
  else
    -- A call that returns at once with nothing to run later (`context.save()`) holds a guessed
    -- lock no longer than the call.
    if lock and closures == 0 and o.spec.lock == "ifSharedContainer" then lock:unlock(); lock = nil end
    if o.seconds ~= nil and (closures > 0 or lock) then
      G.after(o.seconds, function()
        if lock then lock:unlock() end
        fire()
      end)
    end
  end
  if o.failing and o.info.throws then S.throw(opaque("Error")) end
  return o.result
end

--- `unsupported("what", "File.swift:LINE")`: code the importer could not translate; a timeline
--- line when it runs, nothing else.
function S.unsupported(what, where)
  prim.info("unsupported: " .. tostring(what) .. (where and (" (" .. where .. ")") or ""))
end
