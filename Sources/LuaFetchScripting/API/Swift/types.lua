-- swift/types.lua, module 2 of 13 of the runtime of imported scenarios (README.md):
-- Classes, structs, protocols and enums as tables: instances find methods through their type,
-- computed and observed properties through getters and setters, statics per process; value
-- semantics (`swift.copy`); enum cases and their comparison.
-- Uses: process (the process's statics, opaque values).
-- Shares: typeInfo, metaType, instanceMeta, copy, the metatables of arrays, dictionaries, sets and task
-- groups, CaseMeta, caseOf.
local S, prim, shared = ...
local type, rawget, rawset, rawequal, setmetatable = type, rawget, rawset, rawequal, setmetatable
local getmetatable, select, error, tostring, next = getmetatable, select, error, tostring, next
local insert, remove, sort = table.insert, table.remove, table.sort
local opaque, isOpaque = shared.opaque, shared.isOpaque
local P
shared.process(function(p) P = p end)

-- ===========================================================================================
-- Types: classes, structs and enums as tables; instances find methods through their type, and
-- computed or observed properties through getters and setters.
-- ===========================================================================================
local TypeMeta = {}   -- the metatable of a type table (statics live per process)
local typeInfo = setmetatable({}, { __mode = "k" })
-- An instance's metatable -> its type (a copy or a type test does not walk every type: an app
-- of 2,000 types copied an array of structs at launch for more than the watchdog's budget).
local metaType = setmetatable({}, { __mode = "k" })

local function findInType(C, k)
  while C do
    local v = rawget(C, k)
    if v ~= nil then return v end
    local info = typeInfo[C]
    C = info and info.super
  end
end

local function lookup(info, field, k)
  local C = info.type
  while C do
    local i = typeInfo[C]
    local f = i[field][k]
    if f then return f end
    C = i.super
  end
end

local function instanceMeta(C)
  local info = typeInfo[C]
  local mt = info.meta
  if mt then return mt end
  mt = {
    __index = function(o, k)
      local g = lookup(info, "getters", k)
      if g then return g(o) end
      local store = rawget(o, "__stored")
      if store then
        local v = store[k]
        if v ~= nil then return v end
      end
      local m = findInType(C, k)
      if m ~= nil then return m end
      if info.opaqueBase and not info.own[k] then return opaque(info.name .. "." .. tostring(k)) end
      return nil
    end,
    __newindex = function(o, k, v)
      local setter = lookup(info, "setters", k)
      if setter then return setter(o, v) end
      local obs = lookup(info, "observers", k)
      if obs then
        local store = rawget(o, "__stored")
        if not store then store = {}; rawset(o, "__stored", store) end
        local old = store[k]
        if obs.willSet then obs.willSet(o, v) end
        store[k] = v
        if obs.didSet then obs.didSet(o, old) end
        return
      end
      -- A protocol extension's default (`var isMainApp: Bool { false }`) gives way to the type's
      -- own stored property of that name (18.9.6): its value is stored on the instance.
      if lookup(info, "getters", k) and not (info.protocolGetters and info.protocolGetters[k]) then
        error("cannot assign to property: '" .. tostring(k) .. "' is a get-only property", 2)
      end
      rawset(o, k, v)
    end,
    __tostring = function(o)
      local d = findInType(C, "description")
      if type(d) == "function" then return S.s(d(o)) end
      return info.name
    end,
    __name = info.name,
  }
  if info.kind == "enum" then
    mt.__eq = function(a, b) return S.sameCase(a, b) end
  end
  info.meta = mt
  metaType[mt] = C
  return mt
end

TypeMeta.__index = function(C, k)
  -- Statics are per process: made on first use in each process, as Swift's are.
  local info = typeInfo[C]
  local st = P.statics[C]
  if st then
    local v = st[k]
    if v ~= nil then
      if rawequal(v, S.null) then return nil end
      return v
    end
  end
  local init = lookup(info, "statics", k)
  if init then
    if not st then st = {}; P.statics[C] = st end
    st[k] = S.null   -- a static whose initializer reads itself sees nil, not a loop
    local v = init()
    st[k] = v == nil and S.null or v
    return v
  end
  local sg = lookup(info, "staticGetters", k)
  if sg then return sg(C) end   -- C: `Self` of a protocol extension's static
  if info.super then return info.super[k] end
  if info.opaqueBase then return opaque(info.name .. "." .. tostring(k)) end
  return nil
end
TypeMeta.__newindex = function(C, k, v)
  local info = typeInfo[C]
  local ss = type(v) ~= "function" and lookup(info, "staticSetters", k)
  if ss then return ss(v) end
  if type(v) == "function" or not lookup(info, "statics", k) then
    -- methods and nested types are the type's own; anything else set on it is a static
    if type(v) == "function" or (type(v) == "table" and typeInfo[v]) then return rawset(C, k, v) end
  end
  local st = P.statics[C]
  if not st then st = {}; P.statics[C] = st end
  st[k] = v == nil and S.null or v
end
TypeMeta.__tostring = function(C) return typeInfo[C].name end

--- A type: `kind` is "class", "struct", "enum" or "protocol"; `super` a class it inherits from
--- (a type of the imported files, or a built-in base such as S.Operation).
function S.type(name, kind, super)
  local C = {}
  typeInfo[C] = { name = name, kind = kind, super = super, getters = {}, setters = {}, observers = {},
                  statics = {}, staticGetters = {}, staticSetters = {}, fields = false, type = C, conforms = {} }
  typeInfo[C].type = C
  return setmetatable(C, TypeMeta)
end
function S.class(name, super) return S.type(name, "class", super) end
function S.struct(name) return S.type(name, "struct") end
function S.protocol(name) return S.type(name, "protocol") end

--- A base type the imported files do not define (`UIViewController`, `NSObject`): members it
--- does not have are opaque.
function S.opaqueBase(C, own)
  local info = typeInfo[C]
  info.opaqueBase = true
  info.own = {}
  for _, n in ipairs(own or {}) do info.own[n] = true end
end

--- `var name: T { get set }`, `lazy var`, observers, statics.
function S.computed(C, name, getter, setter)
  typeInfo[C].getters[name] = getter
  if setter then typeInfo[C].setters[name] = setter end
end
function S.lazy(C, name, init)
  typeInfo[C].getters[name] = function(o)
    local store = rawget(o, "__lazy")
    if not store then store = {}; rawset(o, "__lazy", store) end
    local v = store[name]
    if v == nil then v = init(o); store[name] = v == nil and S.null or v end
    if rawequal(v, S.null) then return nil end
    return v
  end
  typeInfo[C].setters[name] = function(o, v)
    local store = rawget(o, "__lazy")
    if not store then store = {}; rawset(o, "__lazy", store) end
    store[name] = v == nil and S.null or v
  end
end
function S.observed(C, name, willSet, didSet)
  typeInfo[C].observers[name] = { willSet = willSet, didSet = didSet }
end
function S.static(C, name, init) typeInfo[C].statics[name] = init or function() return nil end end
function S.staticComputed(C, name, getter, setter)
  typeInfo[C].staticGetters[name] = getter
  if setter then typeInfo[C].staticSetters[name] = setter end
end
function S.fields(C, fn) typeInfo[C].fields = fn end
--- A struct's memberwise initializer takes its stored properties in this order.
function S.memberwise(C, names) rawset(C, "__memberwise", names) end
function S.conform(C, ...)
  for i = 1, select("#", ...) do
    local p = select(i, ...)
    if p then insert(typeInfo[C].conforms, p) end
  end
end

--- `value.name` of a computed property an extension of the files adds to a type they do not
--- define (the value is `self` of its getter).
function S.extGet(E, name, recv)
  local g = typeInfo[E].getters[name]
  if g then return g(recv) end
  return nil
end

--- `value.name = v` of a computed property an extension of the files adds to a type they do
--- not define: its setter, with the value as `self`.
function S.extSet(E, name, recv, v)
  if recv == nil then error("attempt to set '" .. name .. "' of nil (an Optional used without '?' or '!')", 2) end
  local s = typeInfo[E].setters[name]
  if s then return s(recv, v) end
  return S.setMember(recv, name, v)
end

--- Called once every file's types are defined: protocol extensions' methods reach the types
--- that conform (a type's own method wins).
function S.finish(...)
  for i = 1, select("#", ...) do
    local C = select(i, ...)
    local info = typeInfo[C]
    -- The protocols it adopts and the ones they inherit, nearest first; a method the type or a
    -- superclass has wins over a protocol extension's.
    local seen, order, queue = {}, {}, {}
    for _, p in ipairs(info.conforms) do queue[#queue + 1] = p end
    while #queue > 0 do
      local p = remove(queue, 1)
      if not seen[p] and typeInfo[p] then
        seen[p] = true
        order[#order + 1] = p
        for _, q in ipairs(typeInfo[p].conforms) do queue[#queue + 1] = q end
      end
    end
    for _, p in ipairs(order) do
      local names = {}
      for k, v in pairs(p) do if type(v) == "function" then names[#names + 1] = k end end
      sort(names)
      for _, k in ipairs(names) do
        if findInType(C, k) == nil then rawset(C, k, rawget(p, k)) end
      end
      local pi = typeInfo[p]
      for k, g in pairs(pi.getters) do
        if not lookup(info, "getters", k) then
          info.getters[k] = g
          info.protocolGetters = info.protocolGetters or {}
          info.protocolGetters[k] = true
        end
      end
      -- A static computed property of the extension is the adopting type's (`Pubkey.empty`).
      for k, g in pairs(pi.staticGetters) do
        if not lookup(info, "staticGetters", k) and not lookup(info, "statics", k) then
          info.staticGetters[k] = g
          if pi.staticSetters[k] then info.staticSetters[k] = pi.staticSetters[k] end
        end
      end
    end
  end
end

local function initFields(C, o)
  local info = typeInfo[C]
  if info.super and typeInfo[info.super] then initFields(info.super, o) end
  if info.fields then info.fields(o) end
end

--- A new instance: stored properties take their initial values, then `init` runs (a failable
--- init that returns false gives nil).
function S.new(C, initName, ...)
  local o = setmetatable({}, instanceMeta(C))
  initFields(C, o)
  local init = initName and initName ~= "memberwise" and findInType(C, initName)
  if init then
    local r = init(o, ...)
    if r == false then return nil elseif type(r) == "table" and r ~= o then return r end   -- an enum's `self = .case`
  elseif typeInfo[C].kind == "struct" and (initName == "init" or initName == "memberwise") then
    S.memberwiseInit(o, C, ...)   -- app.lua: the stored properties, in their declared order
  end
  return o
end

--- Whether a value is an instance of a translated type (not an iOS object of the scenario API).
function S.isTranslated(v)
  local mt = getmetatable(v)
  if type(mt) ~= "table" then return false end
  return metaType[mt] ~= nil
end

--- The type of a value, if it is an instance of a translated type.
function S.typeOf(v)
  local mt = getmetatable(v)
  if type(mt) ~= "table" then return nil end
  return metaType[mt]
end

--- `swift.adoptedOutside(P, ...)`: protocols a type the files do not define adopts through the
--- app's extension; a stub's value (of a type luafetch cannot see) may be one, so it `is` P.
function S.adoptedOutside(...)
  for i = 1, select("#", ...) do typeInfo[select(i, ...)].outside = true end
end

--- `x is T`, `x as? T` for translated types (other types: the value passes, opaque or not).
function S.isA(v, C)
  if v == nil then return false end
  local mt = getmetatable(v)
  local info = typeInfo[C]
  if not info then return true end
  if info.kind == "protocol" then
    if info.outside and isOpaque(v) then return true end
    -- The protocols the type and its superclasses adopt, and those they inherit (NetNewsWire's
    -- `SmartFeed: PseudoFeed`, `PseudoFeed: SidebarItem`: a SmartFeed is a SidebarItem).
    local T, queue, seen = S.typeOf(v), {}, {}
    while T do
      for _, p in ipairs(typeInfo[T].conforms) do queue[#queue + 1] = p end
      T = typeInfo[T].super
    end
    local i = 1
    while queue[i] do
      local p = queue[i]
      if p == C then return true end
      if not seen[p] and typeInfo[p] then
        seen[p] = true
        for _, q in ipairs(typeInfo[p].conforms) do queue[#queue + 1] = q end
      end
      i = i + 1
    end
    return false
  end
  local T = S.typeOf(v)
  while T do
    if T == C then return true end
    T = typeInfo[T].super
  end
  return isOpaque(v) and false or false
end
--- `v as? C` (nil when v is not a C); a value a stub returned is taken to be one when C is a
--- class (a storyboard's view controller is the app's class: the SDK made it; NetNewsWire's
--- `viewController(for: .primary) as? MainFeedCollectionViewController` went into an implicitly
--- unwrapped property), and with `as!` (`forced`) whatever C is; never nil then.
function S.as(v, C, forced)
  local info = typeInfo[C]
  if info == nil then return v end
  if S.isA(v, C) then return v end
  if (forced or info.kind == "class") and isOpaque(v) then return v end
  return nil
end

-- Value semantics: structs, arrays, dictionaries and sets are copied on assignment and when
-- passed (18.7.8); classes, closures and everything else are shared.
local ArrayMeta, DictMeta, SetMeta = {}, {}, {}
local GroupMeta = {}   -- task groups (Swift concurrency, below)
local function copy(v)
  if type(v) ~= "table" then return v end
  local mt = getmetatable(v)
  if mt == ArrayMeta or mt == DictMeta or mt == SetMeta then
    local c = {}
    for k, x in next, v do c[k] = copy(x) end
    return setmetatable(c, mt)
  end
  local C = mt and metaType[mt]
  if C and typeInfo[C].kind == "struct" then
    local c = {}
    for k, x in next, v do c[k] = copy(x) end
    return setmetatable(c, mt)
  end
  return v
end
S.copy = copy
--- `self = value` in a struct's initializer or mutating method: self takes value's fields.
function S.become(self, v)
  if type(self) ~= "table" or type(v) ~= "table" then return end
  for k in next, self do rawset(self, k, nil) end
  for k, x in next, v do rawset(self, k, copy(x)) end
end

-- ===========================================================================================
-- Enums: each case is a value with its case name (and raw value, associated values); implicit
-- members (`.idle`) compare equal to the case of that name of any enum.
-- ===========================================================================================
local CaseMeta = {}
local tokens = {}
CaseMeta.__eq = function(a, b) return S.sameCase(a, b) end
CaseMeta.__tostring = function(c) return "." .. rawget(c, "__case") end
CaseMeta.__index = function(c, k)
  if k == "rawValue" then return rawget(c, "__case") end
  return nil
end
-- A case of no enum the scenario declares is an implicit member of a type it does not know
-- (`.hours(5)`, `.minutes(30)` of a library's TimeInterval extension): arithmetic on it gives an
-- opaque value, as a stub's value would (Loop's `-absorptionTimes.slow * 2`), never an error.
for _, op in ipairs({ "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv" }) do
  CaseMeta[op] = function(a, b)
    local c = (type(a) == "table" and rawget(a, "__case")) and a or b
    return opaque("." .. tostring(rawget(c, "__case")))
  end
end

--- The case name of a value (nil: not an enum case).
local function caseOf(v)
  if type(v) == "table" then return rawget(v, "__case") end
  return nil
end
S.caseOf = caseOf
function S.sameCase(a, b)
  local ca, cb = caseOf(a), caseOf(b)
  if ca == nil or cb == nil or ca ~= cb then return false end
  for i = 1, math.max(#a, #b) do
    if not S.eq(a[i], b[i]) then return false end
  end
  return true
end

--- `.name` or `.name(values...)` where the enum is not known: a token.
function S.case(name, ...)
  if select("#", ...) == 0 then
    local t = tokens[name]
    if not t then t = setmetatable({ __case = name }, CaseMeta); tokens[name] = t end
    return t
  end
  return setmetatable({ __case = name, ... }, CaseMeta)
end

--- Declares an enum's cases: `{ name, rawValue }` or `{ name, nil, arity }` for associated values.
function S.enum(C, cases)
  local info = typeInfo[C]
  local mt = instanceMeta(C)
  info.cases = {}
  local all = {}
  for i, c in ipairs(cases) do
    local name, raw, arity, key = c[1], c[2], c[3], c[4] or c[1]   -- key: the Lua field (`ros_`)
    info.cases[i] = name
    if arity and arity > 0 then
      rawset(C, key, function(...) return setmetatable({ __case = name, rawValue = raw, ... }, mt) end)
    else
      local v = setmetatable({ __case = name, rawValue = raw == nil and name or raw }, mt)
      rawset(C, key, v)
      all[#all + 1] = v
    end
  end
  rawset(C, "allCases", setmetatable(all, ArrayMeta))
  rawset(C, "init_rawValue", function(raw)
    for _, v in ipairs(all) do if S.eq(rawget(v, "rawValue"), raw) then return v end end
    return nil
  end)
end
--- `Status(rawValue: x)`; a stub's opaque value where an enum is expected: its first case.
function S.fromRaw(C, raw) return rawget(C, "init_rawValue")(raw) end
function S.enumDefault(v, C) if isOpaque(v) then return rawget(C, "allCases")[1] end return v end

shared.typeInfo, shared.instanceMeta, shared.ArrayMeta, shared.DictMeta = typeInfo, instanceMeta, ArrayMeta, DictMeta
shared.metaType = metaType
shared.SetMeta, shared.GroupMeta, shared.copy, shared.CaseMeta, shared.caseOf = SetMeta, GroupMeta, copy, CaseMeta, caseOf
