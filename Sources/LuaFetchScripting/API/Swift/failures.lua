-- swift/failures.lua, module 7 of 13 of the runtime of imported scenarios (README.md):
-- Which stub calls fail in a run (18.9.3: one failure per run, `--stub-failures`) and loops over
-- stubs (18.9.5: an opaque condition holds for a drawn number of iterations), and the answers of
-- the SDK's `-> Bool` calls (the files of a fresh install). Holds the call sites' table
-- (`swift.sites`), the stubs' specs (`stubs{}`, checked here) and the per-run call counts that
-- stubs.lua reads.
-- Uses: the host's primitives (prim.draw, prim.stubFailures), process (isOpaque, opaqueName).
-- Shares: stubSites, stubSpecs, stubCounts, failureKind, failsNow, touchStub, boolAnswer, wrote.
local S, prim, shared = ...
local G = _G
local type, ipairs, pairs, error, tostring = type, ipairs, pairs, error, tostring
local sort, mtype = table.sort, math.type
local floor, exp, log = math.floor, math.exp, math.log
local isOpaque, opaqueName = shared.isOpaque, shared.opaqueName

local sites = {}    -- the call sites (swift.sites), by number
local specs = {}    -- stubs{} by name
local counts = {}   -- per site: how many times it ran in this run
shared.stubSites, shared.stubSpecs, shared.stubCounts = sites, specs, counts

-- ===========================================================================================
-- The sites the importer lists (`swift.sites`) and `stubs{}` (18.4): what each stub does.
-- ===========================================================================================
local declaredNames = {}   -- names given to stubs{}, in order, with where
local usedNames = {}
--- The call sites of the scenario's stubs: { name, where, opt = used as an optional,
--- closures = { [argument index] = { label, errs = { positions of error parameters }, ... } },
--- await = true, throws = true }.
function S.sites(list)
  for i, s in ipairs(list) do
    sites[i] = s
    usedNames[s[1]] = true
  end
end

local stubSpecFields = { seconds = true, result = true, calls = true, blocking = true, lock = true, iterations = true }
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
        local hint = prim.didYouMean(tostring(f), { "seconds", "result", "calls", "blocking", "lock", "iterations" })
        error("stubs: unknown field '" .. tostring(f) .. "' of [\"" .. name .. "\"]" .. hint .. " (fields: seconds, result, calls, blocking, lock, iterations)", 2)
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
    local it = spec.iterations
    if it ~= nil and not (mtype(it) == "integer" and it >= 0) and not (type(it) == "table" and mtype(it[1]) == "integer" and mtype(it[2]) == "integer" and 0 <= it[1] and it[1] <= it[2]) then
      error("stubs: [\"" .. name .. "\"].iterations must be a whole number ≥ 0 or { min, max }", 2)
    end
    if spec.lock ~= nil and spec.lock ~= "sharedContainer" and spec.lock ~= "ifSharedContainer" then
      error("stubs: [\"" .. name .. "\"].lock must be \"sharedContainer\" (or \"ifSharedContainer\": only on a database opened in the app-group container)", 2)
    end
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


-- ===========================================================================================
-- Failures as a search dimension (18.9.3). A site can fail when it throws or has a failure path
-- (`throws`, `fails`) or its result can be nil (`opt`, a result left opaque). `--stub-failures
-- every`: each execution of such a site fails with probability 1/4 (nil and the failure path
-- drawn apart: the draws before 18.9). `one` (the default): the run draws once, from its seed,
-- either no failure (half of the runs) or a target: the j-th site that can fail in the order the
-- run first reaches such sites, at its m-th execution. j is uniform over 1..N (N: the sites of
-- the scenario that can fail) when N <= 8, else log-uniform (each doubling of j as likely), so
-- the first sites a run reaches are found as often as the rest; m is 1 with probability 3/4, else
-- 2, 3, ... each half as likely as the one before. A run that never reaches its target fails
-- nothing. The choice is a function of the seed and the run's own order, so a replay with the
-- seed takes the same failure, on any number of jobs. `none`: nothing fails.
-- ===========================================================================================
local target              -- nil: not drawn yet in this run; false: no failure; { j, m }
local reachedOrder = {}   -- site -> its place among the failable sites this run reached
local reachedCount = 0

--- How `info`'s site fails (nil: it cannot): a thrown error, its failure path, or nil.
local function failureKind(info, spec)
  if info.throws then return "throws" end
  if info.fails then return "fails" end
  local r = spec.result
  if info.opt and (r == nil or r == "opaque") then return "nil" end
  return nil
end

local function drawTarget()
  if prim.draw(0, 0, 1) < 0.5 then return false end
  local n = 0
  for _, s in ipairs(sites) do if failureKind(s, specs[s[1]] or {}) then n = n + 1 end end
  if n == 0 then return false end
  local u = prim.draw(0, 0, 2)
  local j
  if n <= 8 then j = floor(u * n) + 1 else j = floor(exp(u * log(n + 1))) end
  if j < 1 then j = 1 elseif j > n then j = n end
  local m = 1
  if prim.draw(0, 0, 3) >= 0.75 then
    m = 2
    local v = prim.draw(0, 0, 4)
    while v < 0.5 and m < 64 do m = m + 1; v = v * 2 end
  end
  return { j, m }
end

--- Whether execution `n` of `site` (which can fail) fails in this run.
local function failsNow(site, n, k)
  local mode = prim.stubFailures()
  if mode == "every" then return prim.draw(site, n, k == "nil" and 3 or 2) < 0.25 end
  if mode ~= "one" then return false end
  if target == nil then target = drawTarget() end
  if not target then return false end
  local place = reachedOrder[site]
  if place == nil then
    reachedCount = reachedCount + 1
    place = reachedCount
    reachedOrder[site] = place
  end
  return place == target[1] and n == target[2]
end

shared.failureKind, shared.failsNow = failureKind, failsNow

-- ===========================================================================================
-- Loops over stubs end (18.9.5). The importer brackets each `while` and `repeat`:
--   local l = swift.loop()                 -- before the loop: this entry's state
--   swift.loopEnter(l)                     -- each time round, before the conditions
--   if swift.loopCondition(l, true) then   -- the conditions held (a repeat passes its value)
-- A condition that consulted a stub since `loopEnter` (a call, a property of an opaque value,
-- a drawn Bool) or is itself an opaque value holds for a drawn number of iterations, then is
-- false: `iterations` of the last stub it consulted (default { 0, 3 }; a number or
-- { min, max }), drawn once per entry of the loop from the run's seed and the entry's number.
-- A condition over the app's own values is the app's. A `for` over a range whose bound a stub
-- gave (`for i in 0 ..< count`, `swift.bound`) goes round a number of times drawn the same way.
-- ===========================================================================================
local touches, lastStub = 0, nil
local loopEntries = 0
local defaultIterations = { 0, 3 }

--- A stub was consulted (its call or value): loops over it end.
local function touchStub(name)
  touches = touches + 1
  lastStub = name
end
shared.touchStub = touchStub

function S.loop() return { n = 0, mark = 0 } end

function S.loopEnter(l)
  l.mark = touches
  return l
end

-- How many times a loop over a stub goes round: `iterations` of the last stub consulted, drawn
-- once per entry of a loop from the run's seed and the entry's number.
local function drawIterations()
  loopEntries = loopEntries + 1
  local spec = (lastStub and specs[lastStub]) or {}
  local it = spec.iterations or defaultIterations
  local lo, hi = it, it
  if type(it) == "table" then lo, hi = it[1], it[2] end
  local n = lo + floor(prim.draw(0, loopEntries, 6) * (hi - lo + 1))
  if n > hi then n = hi end
  return n
end

function S.loopCondition(l, v)
  if not v then return false end
  if touches == l.mark and not isOpaque(v) then return true end
  if l.limit == nil then l.limit = drawIterations() end
  l.n = l.n + 1
  return l.n <= l.limit
end

--- The upper bound of a range a `for` loop walks (`for i in 0 ..< count`): a number is itself; a
--- stub's opaque value makes the loop go round a drawn number of times from `base`.
function S.bound(v, base)
  if not isOpaque(v) then return v end
  return base + drawIterations()
end

-- ===========================================================================================
-- A call the SDK declares `-> Bool` answers true, but false after 100 answers at one site at one
-- virtual instant: a loop or recursion waiting for a change ends (18.9.5). `fileExists(atPath:)`
-- (`exists = true`) answers as the files of a fresh install would: true for a resource of the
-- app's bundle (a value a `Bundle` lookup returned, or read from one: `Bundle.url.path`) or a
-- path the app wrote in this run (`writes = N`: `Data.write(to:)`, `createFile(atPath:)`,
-- `createDirectory`, `copyItem`/`moveItem`'s destination; a path compared as Swift compares it,
-- an opaque one by the name of its value, and its `.path` with it); false otherwise (deltachat migrated a legacy database at every
-- launch because one existed, then crashed on the migration's stubs).
-- ===========================================================================================
local boolPolls = {}   -- site -> { at = virtual ms, n = answers then }
local written = {}     -- paths the app wrote in this run; an opaque one by the name of its value

local function boolAnswer(site, info, path)
  local now, c = G.now(), boolPolls[site]
  if not c or c.at ~= now then c = { at = now, n = 0 }; boolPolls[site] = c end
  c.n = c.n + 1
  if c.n > 100 then return false end
  if not info.exists or path == nil then return not info.exists end
  local name = isOpaque(path) and opaqueName[path]
  if not name then return written[path] == true end
  -- `data.write(to: url)`, then `fileExists(atPath: url.path)`: the path read from the URL.
  return name:sub(1, 7) == "Bundle." or written[name] == true or written[(name:gsub("%.path$", ""))] == true
end

--- A write made `path` exist.
local function wrote(path)
  if path == nil then return end
  written[isOpaque(path) and opaqueName[path] or path] = true
end
shared.boolAnswer, shared.wrote = boolAnswer, wrote

