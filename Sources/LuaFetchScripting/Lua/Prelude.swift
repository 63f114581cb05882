// The Lua prelude run before every scenario (chunk "=luafetch"): it builds the sandbox of SPEC 11
// and the determinism of SPEC 2 from the stock libraries: deterministic `pairs` and `next`,
// address-free `tostring`, seeded `math.random`, the virtual `os` (time, clock, date), text-only
// and counted `load`, `require` for `.lua` files beside the scenario, strict globals (installed by
// the host through `strict`), and removes io, debug, dofile, string.dump. It receives the host's
// functions and the C host's primitives (`charge`), and returns what the host calls later (`show`,
// `strict`). Errors it raises name the scenario's line and the function the scenario called.
// Runs load it as recorded bytecode (CLuaHost/prelude_bytecode.c) while this source is unchanged;
// after changing it, re-record: LUAFETCH_RECORD=1 swift test --filter PreludeBytecodeTests.

enum Prelude {
    static let source = #"""
local host, prim = ...
local G = _G
local charge = prim.charge
local type, rawget, rawset, select, error, setmetatable, getmetatable =
      type, rawget, rawset, select, error, setmetatable, getmetatable
local sort, unpack, pack = table.sort, table.unpack, table.pack
local rawtostring, rawformat, rawdate, rawload = tostring, string.format, os.date, load
local rawrandomseed = math.randomseed

-- Stable identities instead of addresses: the n-th object first shown is #n.
local ids, lastid = setmetatable({}, { __mode = "k" }), 0
local function objid(v)
  local id = ids[v]
  if not id then lastid = lastid + 1; id = lastid; ids[v] = id end
  return id
end

local function tostring(v)
  local t = type(v)
  local s = rawtostring(v)
  if t == "table" or t == "function" or t == "userdata" or t == "thread" then
    local prefix = s:match("^(.*): 0x%x+$") or s:match("^(.*): %x+$")
    if prefix then return prefix .. ": #" .. objid(v) end
  end
  return s
end
G.tostring = tostring

-- pairs in a deterministic order: numbers ascending, then strings, booleans, other objects.
local rank = { number = 1, string = 2, boolean = 3, table = 4, ["function"] = 5, userdata = 6, thread = 7 }
local function before(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return rank[ta] < rank[tb] end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return (not a) and b end
  return objid(a) < objid(b)
end
local rawnext = next
local function sortedkeys(t)
  local keys, n = {}, 0
  for k in rawnext, t do n = n + 1; keys[n] = k end
  sort(keys, before)
  return keys, n
end
function G.pairs(t)
  local mt = getmetatable(t)
  if type(mt) == "table" and rawget(mt, "__pairs") then return rawget(mt, "__pairs")(t) end
  if type(t) ~= "table" then
    error("bad argument #1 to 'pairs' (table expected, got " .. (t == nil and "nil" or type(t)) .. ")", 2)
  end
  local keys = sortedkeys(t)
  local i = 0
  return function()
    while true do
      i = i + 1
      local k = keys[i]
      if k == nil then return nil end
      local v = rawget(t, k)
      if v ~= nil then return k, v end
    end
  end, t, nil
end

-- next in the order of pairs: a traversal (next(t) or next(t, nil)) snapshots the keys in order;
-- next(t, k) continues from k. Keys assigned during a traversal are not visited (as Lua allows).
local snapshots = setmetatable({}, { __mode = "k" })
function G.next(t, k)
  if type(t) ~= "table" then
    error("bad argument #1 to 'next' (table expected, got " .. (t == nil and "no value" or type(t)) .. ")", 2)
  end
  local snap = snapshots[t]
  if k == nil or snap == nil or snap.at[k] == nil then
    if k ~= nil and rawget(t, k) == nil then error("invalid key to 'next'", 2) end
    if rawnext(t) == nil then return nil end
    local keys, n = sortedkeys(t)
    local at = {}
    for i = 1, n do at[keys[i]] = i end
    snap = { keys = keys, at = at }
    snapshots[t] = snap
  end
  local keys = snap.keys
  local i = k == nil and 0 or snap.at[k]
  while true do
    i = i + 1
    local nk = keys[i]
    if nk == nil then return nil end
    local v = rawget(t, nk)
    if v ~= nil then return nk, v end
  end
end

function G.print(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = tostring((select(i, ...))) end
  host.print(table.concat(parts, "\t"))
end
G.log = G.print

string.format = function(fmt, ...)
  if type(fmt) == "string" and fmt:find("%%[-+ #0]*%d*%.?%d*p") then
    error("string.format: '%p' prints addresses, which change from run to run; luafetch does not allow it", 2)
  end
  local n = select("#", ...)
  local args = { ... }
  for i = 1, n do
    local t = type(args[i])
    if t == "table" or t == "function" or t == "userdata" or t == "thread" then args[i] = tostring(args[i]) end
  end
  return rawformat(fmt, unpack(args, 1, n))
end
string.dump = nil

-- coroutine.wrap on top of luafetch's coroutine.resume, so the instruction budget reaches every
-- coroutine a handler runs.
do
  local create, resume, pack = coroutine.create, coroutine.resume, table.pack
  function coroutine.wrap(f)
    local co = create(f)
    return function(...)
      local r = pack(resume(co, ...))
      if r[1] then return unpack(r, 2, r.n) end
      local err = r[2]
      if type(err) == "string" then error(err, 2) end
      error(err, 0)
    end
  end
end

-- Calls a library function for a wrapper: an error names the scenario's line (level 3: the
-- wrapper's caller) and the function as the scenario knows it, not the wrapper's local name.
local function relay(name, raw, ...)
  local r = pack(pcall(raw, ...))
  if r[1] then return unpack(r, 2, r.n) end
  local msg = r[2]
  if type(msg) == "string" then
    msg = msg:gsub("^luafetch:%d+: ", ""):gsub("'raw%w+'", "'" .. name .. "'"):gsub("'%?'", "'" .. name .. "'")
  end
  error(msg, 3)
end

-- math.random is Lua's own generator, seeded from the run's seed (scenario stream).
function math.randomseed(...)
  if select("#", ...) == 0 then return rawrandomseed(host.seed()) end
  return relay("randomseed", rawrandomseed, ...)
end
rawrandomseed(host.seed())
host.setReseed(rawrandomseed)

-- The virtual clock: os.time/os.clock/os.date read virtual time; the epoch is 2013-09-18T00:00:00Z.
local function civil_days(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end
local function field(t, k, default)
  local v = rawget(t, k)
  if v == nil then
    if default == nil then error("field '" .. k .. "' missing in date table", 3) end
    return default
  end
  if math.type(v) ~= "integer" then error("field '" .. k .. "' is not an integer", 3) end
  return v
end
local os_time = function(t)
  if t == nil then return host.epoch() end
  if type(t) ~= "table" then error("bad argument #1 to 'time' (table expected, got " .. type(t) .. ")", 2) end
  return civil_days(field(t, "year"), field(t, "month"), field(t, "day")) * 86400
    + field(t, "hour", 12) * 3600 + field(t, "min", 0) * 60 + field(t, "sec", 0)
end
local os_date = function(fmt, t)
  fmt = fmt or "%c"
  if type(fmt) ~= "string" then error("bad argument #1 to 'date' (string expected, got " .. type(fmt) .. ")", 2) end
  if fmt:sub(1, 1) ~= "!" then fmt = "!" .. fmt end
  return relay("date", rawdate, fmt, t or host.epoch())
end
local function difftime(a, b)
  if math.type(a) == nil then
    error("bad argument #1 to 'difftime' (number expected, got " .. (a == nil and "no value" or type(a)) .. ")", 2)
  end
  if b ~= nil and math.type(b) == nil then
    error("bad argument #2 to 'difftime' (number expected, got " .. type(b) .. ")", 2)
  end
  return a - (b or 0)
end
G.os = { time = os_time, date = os_date, clock = function() return host.clock() end, difftime = difftime }

-- Text chunks only; scenario chunks see the sandboxed globals. A reader function is called here,
-- in Lua (so an endless reader meets the budget), and compiling is charged by the chunk's length.
function G.load(chunk, name, mode, env)
  if mode ~= nil and mode ~= "t" then
    return nil, "luafetch loads text chunks only (mode \"t\"); binary chunks are not allowed"
  end
  if type(chunk) == "function" then
    local parts, n = {}, 0
    while true do
      local piece = chunk()
      if piece == nil or piece == "" then break end
      if type(piece) ~= "string" then return nil, "reader function must return a string" end
      n = n + 1
      parts[n] = piece
    end
    chunk = table.concat(parts)
  end
  if type(chunk) == "string" then charge(#chunk) end
  if env == nil then return relay("load", rawload, chunk, name, "t") end
  return relay("load", rawload, chunk, name, "t", env)
end

-- require: only `.lua` files beside the scenario. A module that requires, directly or not, one
-- whose loading has begun on this thread (or the scenario while its top level runs) is a cycle:
-- an error at the require that closes it, naming the chain (Lua's package.loaded sentinel).
-- `loading` is the innermost module being loaded: { path, name, parent, thread }; the `<close>`
-- guard takes it off even when the module raises.
local loaded, loading = {}, nil
local running, tinsert, tconcat = coroutine.running, table.insert, table.concat
local unloading = { __close = function(entry) loading = entry.parent end }
function G.require(name)
  if type(name) ~= "string" or not name:match("^[%w_]+[%w_%.]*$") or name:find("%.%.") then
    error("bad argument #1 to 'require' (a module name like 'helpers' or 'lib.util' expected)", 2)
  end
  if loaded[name] ~= nil then return loaded[name] end
  local source, path, isScenario = host.readModule(name)
  if not source then error(path, 2) end
  local co, e = running(), loading
  while e ~= nil and e.thread == co and e.path ~= path do e = e.parent end
  if isScenario or (e ~= nil and e.thread == co) then
    local names, x = { name }, loading
    while x ~= nil and x.thread == co and x ~= e do tinsert(names, 1, x.name); x = x.parent end
    tinsert(names, 1, name)
    error("require cycle: " .. tconcat(names, " -> ") .. " (a module may not require, directly or not, one whose loading has begun)", 2)
  end
  local fn, err = rawload(source, "@" .. path, "t")
  if not fn then error(err, 0) end
  local entry <close> = setmetatable({ path = path, name = name, parent = loading, thread = co }, unloading)
  loading = entry
  local result = fn(name)
  if result == nil then result = true end
  loaded[name] = result
  return result
end

local collect = collectgarbage
function G.collectgarbage(opt, ...)
  opt = opt or "collect"
  if opt ~= "collect" and opt ~= "count" and opt ~= "step" and opt ~= "isrunning" then
    error("collectgarbage('" .. rawtostring(opt) .. "') is not available in a scenario", 2)
  end
  if opt == "collect" or opt == "step" then charge(collect("count") * 64) end
  return collect(opt, ...)
end

G.dofile, G.loadfile, G.io, G.debug, G.package = nil, nil, nil, nil, nil

-- What the host calls later.
local exports = {}

-- show(f, ...): f's results as text (the REPL prints them), converted inside the handler.
function exports.show(f, ...)
  local r = pack(f(...))
  for i = 1, r.n do r[i] = tostring(r[i]) end
  return unpack(r, 1, r.n)
end

-- q:sync(fn) of a queue: `begin` makes a serial queue the caller's, or lets the caller in beside a
-- concurrent queue's blocks (the calling thread may wait there, parked, until it is), fn runs on
-- the calling thread, and `finish` hands the queue on even when fn raised; the error then goes on
-- as fn's.
function exports.makeSync(begin, finish)
  local pcall, error = pcall, error
  return function(q, fn)
    begin(q, fn)
    local r = pack(pcall(fn))
    finish(q)
    if not r[1] then error(r[2], 0) end
    return unpack(r, 2, r.n)
  end
end

-- g:wait(seconds) of a group, s:wait(seconds) of a semaphore: `begin` returns true or false when
-- the wait is decided without parking (or on the main thread, which blocks inside it), and nothing
-- once a background thread parked and was woken: `finish` then says whether it was granted.
function exports.makeWait(begin, finish)
  return function(o, seconds)
    local r = begin(o, seconds)
    if r == nil then r = finish(o) end
    return r
  end
end

-- The runtime of imported scenarios (SPEC 18), made the first time a scenario reads `swift`,
-- `stubs` or `unsupported`: the host hands its modules (chunk name and source, in load order) and
-- its primitives; each module adds to the one table S, sharing its locals with the later ones
-- through `shared`. It binds the three.
local function loadSwiftRuntime()
  local modules, prims = host.swiftRuntime()
  local size = 0
  for i = 2, #modules, 2 do size = size + #modules[i] end
  charge(size)
  local S, shared = {}, {}
  for i = 1, #modules, 2 do assert(rawload(modules[i + 1], modules[i], "t"))(S, prims, shared) end
  rawset(G, "swift", S)
  rawset(G, "stubs", S.declareStubs)
  rawset(G, "unsupported", S.unsupported)
  return S
end
local lazy = { swift = true, stubs = true, unsupported = true }

-- strict(miss): a global never assigned is an error (miss raises it); assigning a global, even
-- nil, declares it; the metatable of _G is locked so strictness cannot be taken away.
function exports.strict(miss)
  local declared = {}
  setmetatable(G, {
    __index = function(t, k)
      if declared[k] then return nil end
      if lazy[k] and rawget(t, "swift") == nil then
        loadSwiftRuntime()
        return rawget(t, k)
      end
      return miss(t, k)
    end,
    __newindex = function(t, k, v)
      declared[k] = true
      rawset(t, k, v)
    end,
    __metatable = false,
  })
end
return exports
"""#
}
