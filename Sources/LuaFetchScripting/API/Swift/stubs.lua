-- swift/stubs.lua, module 7 of 12 of the runtime of imported scenarios (README.md):
-- Member access and calls where the importer did not know the receiver's type (`swift.get`,
-- `swift.call`), and the stubs of 18.4 and 18.7: calls into code the imported files do not
-- define, whose time, result and failure are drawn from their own seeded stream (`prim.draw`),
-- `stubs{}` and `unsupported`.
-- Uses: the host's primitives (prim), process (opaque values), types (metatables, copy,
-- caseOf), collections (builtinTables).
local S, prim, shared = ...
local G = _G
local type, rawget, getmetatable, select, error = type, rawget, getmetatable, select, error
local pcall, tostring = pcall, tostring
local pack, unpack, sort = table.pack, table.unpack, table.sort
local mtype, floor = math.type, math.floor
local Opaque, opaque, isOpaque = shared.Opaque, shared.opaque, shared.isOpaque
local ArrayMeta, DictMeta, SetMeta = shared.ArrayMeta, shared.DictMeta, shared.SetMeta
local copy, CaseMeta, caseOf = shared.copy, shared.CaseMeta, shared.caseOf
local builtinTables = shared.builtinTables

-- ===========================================================================================
-- Member access and calls where the importer did not know the receiver's type: an instance of a
-- translated type answers itself, a built-in value by the tables above, anything else (an opaque
-- value, an SDK object) is a stub call named by the site.
-- ===========================================================================================
local sites = {}
local safeIndex

--- `t[k]`, and whether it could be read (the scenario API's objects refuse unknown fields).
safeIndex = function(t, k)
  local mt = getmetatable(t)
  if mt == nil or mt == Opaque or mt == ArrayMeta or mt == DictMeta or mt == SetMeta or mt == CaseMeta then return rawget(t, k), true end
  local ok, v = pcall(function() return t[k] end)
  if ok then return v, true end
  return nil, false
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
    if isOpaque(recv) then return S.stubValue(site, recv) end
    if caseOf(recv) and name == "rawValue" then return recv.rawValue end
    local v, ok = safeIndex(recv, name)
    if ok then return v end
    return S.stubValue(site, recv)   -- an object of the scenario API without that field
  end
  return nil
end

--- `recv.name = v`.
function S.setMember(recv, name, v)
  if recv == nil then error("attempt to set '" .. name .. "' of nil (an Optional used without '?' or '!')", 2) end
  if type(recv) == "table" and not isOpaque(recv) then recv[name] = v end
end

--- `recv.name(args)`; `labelled`: the name with its first argument label (`remove_at`), tried first.
function S.call(site, recv, name, labelled, ...)
  if recv == nil then error("attempt to call '" .. name .. "' on nil (an Optional used without '?' or '!')", 2) end
  -- A Result's `get()`: the success's value, or the failure's error thrown.
  local case = caseOf(recv)
  if name == "get" and (case == "success" or case == "failure") and select("#", ...) == 0 then
    if case == "failure" then S.throw(recv[1]) end
    return recv[1]
  end
  local _, methods = builtinTables(recv)
  if methods then
    local m = (labelled and methods[labelled]) or methods[name]
    if m then return m(recv, ...) end
    local members = builtinTables(recv)
    if members[name] then
      local v = members[name](recv)
      if type(v) == "function" then return v(...) end
    end
    return S.stubCall(site, recv, ...)
  end
  if type(recv) == "table" and not isOpaque(recv) then
    local m = labelled and safeIndex(recv, labelled) or nil
    if m == nil then m = safeIndex(recv, name) end
    if type(m) == "function" then return m(recv, ...) end
    if type(m) == "table" and getmetatable(m) == Opaque then return S.stubCall(site, recv, ...) end
    if m == nil and getmetatable(recv) == nil then return S.stubCall(site, recv, ...) end
    if m == nil then return S.stubCall(site, recv, ...) end
    return m
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
local specs = {}
local declaredNames = {}   -- names given to stubs{}, in order, with where
local usedNames = {}
local counts = {}          -- per site: how many times it ran in this run
local defaultRange = { 0.01, 10 }
local exploreRange = { 0.001, 120 }

--- The call sites of the scenario's stubs: { name, where, opt = used as an optional,
--- closures = { [argument index] = { label, errs = { positions of error parameters }, ... } },
--- await = true, throws = true }.
function S.sites(list)
  for i, s in ipairs(list) do
    sites[i] = s
    usedNames[s[1]] = true
  end
end

local stubSpecFields = { seconds = true, result = true, calls = true, blocking = true, lock = true }
--- `stubs{ ["Type.member"] = spec, ... }`: what each stub does; a later call adds to the earlier
--- ones and overrides the names it repeats.
function S.declareStubs(t)
  if type(t) ~= "table" then error("bad argument #1 to 'stubs' (a table of stub specs expected, like stubs{ [\"Api.fetch\"] = { seconds = 2 } })", 2) end
  local names = {}
  for k in pairs(t) do names[#names + 1] = k end
  for _, name in ipairs(names) do
    local spec = t[name]
    if type(name) ~= "string" then error("stubs: a stub is named by a string, like [\"Api.fetch\"]", 2) end
    if type(spec) ~= "table" then error("stubs: [\"" .. name .. "\"] must be a table, like { seconds = 2 }", 2) end
    for f in pairs(spec) do
      if not stubSpecFields[f] then
        local hint = prim.didYouMean(tostring(f), { "seconds", "result", "calls", "blocking", "lock" })
        error("stubs: unknown field '" .. tostring(f) .. "' of [\"" .. name .. "\"]" .. hint .. " (fields: seconds, result, calls, blocking, lock)", 2)
      end
    end
    local s = spec.seconds
    if s ~= nil and s ~= "never" and type(s) ~= "number" and not (type(s) == "table" and type(s[1]) == "number" and type(s[2]) == "number" and s[1] <= s[2]) then
      error("stubs: [\"" .. name .. "\"].seconds must be a number, { min, max } or \"never\"", 2)
    end
    if type(s) == "number" and (s < 0 or s ~= s) then error("stubs: [\"" .. name .. "\"].seconds must not be negative", 2) end
    if type(s) == "table" and s[1] < 0 then error("stubs: [\"" .. name .. "\"].seconds must not be negative", 2) end
    if spec.calls ~= nil and (mtype(spec.calls) ~= "integer" or spec.calls < 0) then
      error("stubs: [\"" .. name .. "\"].calls must be a whole number ≥ 0", 2)
    end
    if spec.blocking ~= nil and type(spec.blocking) ~= "boolean" then error("stubs: [\"" .. name .. "\"].blocking must be true or false", 2) end
    if spec.lock ~= nil and spec.lock ~= "sharedContainer" then error("stubs: [\"" .. name .. "\"].lock must be \"sharedContainer\"", 2) end
    if not specs[name] then declaredNames[#declaredNames + 1] = { name = name, where = prim.where(2) } end
    specs[name] = spec
  end
end

--- Names given to stubs{} that no call uses (a warning at load, with "did you mean").
function S.unusedStubs()
  local out = {}
  local used = {}
  for n in pairs(usedNames) do used[#used + 1] = n end
  sort(used)
  for _, d in ipairs(declaredNames) do
    if not usedNames[d.name] then
      out[#out + 1] = (d.where or "stubs") .. ": stubs{}: no call uses [\"" .. d.name .. "\"]" .. prim.didYouMean(d.name, used)
    end
  end
  return out
end

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
  local failing = false
  local canFail = info.fails or info.throws
  if explore and canFail then failing = prim.draw(site, n, 2) < 0.25 end
  local result
  local r = spec.result
  if r == nil or r == "opaque" then result = opaque(name)
  elseif r == "nil" then result = nil
  elseif type(r) == "table" then result = copy(r)
  else result = r end
  if explore and info.opt and (r == nil or r == "opaque") and prim.draw(site, n, 3) < 0.25 then
    result = nil
    prim.note(name, info[2], "nil")
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
        fc[1](unpack(args, 1, n))
      end
    end
  end
  return fire, #toCall
end

local function holdLock(o)
  if o.spec.lock == "sharedContainer" then return G.sharedContainer.lock(o.name) end
end

--- A stub's value (a property read: `AccountStore.shared.currentAccount`).
function S.stubValue(site)
  local o = outcome(site)
  return o.result
end

--- A stub call: returns its result now; its closures run `seconds` later on the main queue
--- (or, `blocking`, the call takes that long on the calling thread). Awaited, the task waits.
function S.stubCall(site, recv, ...)
  local argv = pack(...)
  local o = outcome(site, recv)
  local fire, closures = runClosures(o, argv, argv.n)
  local lock = holdLock(o)
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
  if o.spec.blocking or o.info.await then
    if o.seconds == nil then G.work(1e9) end
    if o.seconds and o.seconds > 0 then G.work(o.seconds) end
    if lock then lock:unlock() end
    if closures > 0 then fire() end
  else
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
