-- swift/process.lua, module 1 of 13 of the runtime of imported scenarios (README.md):
-- What a Swift program keeps in memory (statics, globals, singletons): one table per process,
-- made by `swift.launch`, handed to the other modules through `shared.process`; and opaque
-- values, what a stub returns (18.7.1).
-- Uses: Lua's own functions only. Shares: process, Opaque, opaque, isOpaque, inAppGroup, fromAppGroup.
local S, prim, shared = ...
local rawequal, setmetatable, getmetatable, rawget = rawequal, setmetatable, getmetatable, rawget
local tostring, type = tostring, type

-- ===========================================================================================
-- The process: what a Swift program keeps in memory (statics, globals, singletons) lives in one
-- table per process, made by `swift.launch` in `app{ delegate = ... }` (SPEC 12.1).
-- ===========================================================================================
local P = { statics = setmetatable({}, { __mode = "k" }), globals = {} }
-- The modules that read it keep it in a local of their own: `shared.process(set)` calls set(P)
-- now and again whenever `swift.launch` starts a process.
local processReaders = {}
function shared.process(set) processReaders[#processReaders + 1] = set; set(P) end

--- Starts this process's memory; returns the app delegate instance (or nil). `storyboard`: the
--- Info.plist names a main storyboard, so UIKit made the window and set the delegate's `window`
--- before `willFinishLaunching`.
function S.launch(app, delegateClass, storyboard)
  P = { statics = {}, globals = {}, app = app, tasks = {} }
  for i = 1, #processReaders do processReaders[i](P) end
  S.app = app
  if delegateClass then
    P.appDelegate = S.new(delegateClass, "init")
    if storyboard and P.appDelegate.window == nil then P.appDelegate.window = S.storyboardWindow() end
    return P.appDelegate
  end
end

--- A top-level `let`/`var` of a Swift file: made on first use in each process.
function S.global(name, init)
  local g = P.globals
  local v = g[name]
  if v == nil and init then
    v = init()
    g[name] = v == nil and S.null or v
  end
  if rawequal(v, S.null) then return nil end
  return v
end
function S.setGlobal(name, v) P.globals[name] = v == nil and S.null or v end
S.null = setmetatable({}, { __tostring = function() return "nil" end })

-- ===========================================================================================
-- Opaque values: what a stub returns. Every field and call is again opaque; true in conditions,
-- iterates as empty, compares unequal and not-less to anything, prints as `opaque` (18.7.1).
-- What the app assigns on one reads back (stubs.lua's `swift.setMember` and `swift.get`).
-- ===========================================================================================
local Opaque = {}
local opaqueName = setmetatable({}, { __mode = "k" })
local function opaque(name)
  local o = setmetatable({}, Opaque)
  opaqueName[o] = name
  return o
end
--- `swift.opaque(name)` in imported code (an unknown type or global, `Foo.shared`): one value per
--- name and process, so what the app writes on it reads back (issue 38.3).
function S.opaque(name)
  local known = P.opaques
  if known == nil then known = {}; P.opaques = known end
  local o = known[name]
  if o == nil then o = opaque(name); known[name] = o end
  return o
end
local function isOpaque(v) return getmetatable(v) == Opaque end
S.isOpaque = isOpaque
Opaque.__index = function(o, k) return opaque((opaqueName[o] or "opaque") .. "." .. tostring(k)) end
Opaque.__newindex = function() end
Opaque.__call = function(o) return opaque(opaqueName[o]) end
Opaque.__eq = function() return false end
Opaque.__lt = function() return false end
Opaque.__le = function() return false end
Opaque.__len = function() return 0 end
Opaque.__tostring = function() return "opaque" end
Opaque.__concat = function(a, b) return S.s(a) .. S.s(b) end
Opaque.__pairs = function() return function() return nil end, nil, nil end
for _, op in ipairs({ "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv", "__band", "__bor", "__bxor", "__shl", "__shr", "__bnot" }) do
  Opaque[op] = function() return opaque("opaque") end
end

-- Where an opaque value's file lives: one made from a path in the app-group container (a string
-- `swift.appGroupURL` began, or a value already there), or assigned one, is there too, and so is
-- what is read from it (`container.viewContext`). A database stub the importer marked `lock =
-- "ifSharedContainer"` holds the container's lock only then (pocket-casts's FMDB queue lives in
-- Application Support while its widget uses the app group: no 0xdead10cc there).
local groupRoot = "/AppGroup/"
--- `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`: the container's path.
function S.appGroupURL(id) return groupRoot .. tostring(id) end
local function inGroupRoot(path) return path:sub(1, #groupRoot) == groupRoot end
local inAppGroup = setmetatable({}, { __mode = "k" })
local function fromAppGroup(v)
  local t = type(v)
  if t == "string" then return inGroupRoot(v) end
  if t ~= "table" then return false end
  if inAppGroup[v] then return true end
  -- `persistentStoreDescriptions = [description]`: an array's first element.
  local first = getmetatable(v) ~= Opaque and rawget(v, 1)
  if type(first) == "string" then return inGroupRoot(first) end
  return first ~= nil and first ~= false and inAppGroup[first] == true
end

shared.Opaque, shared.opaque, shared.isOpaque, shared.opaqueName = Opaque, opaque, isOpaque, opaqueName
shared.inAppGroup, shared.fromAppGroup = inAppGroup, fromAppGroup
