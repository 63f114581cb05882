-- swift: the runtime of scenarios written by `luafetch import` (SPEC 18). Loaded the first time
-- a scenario reads the global `swift` (or `stubs`, `unsupported`); other scenarios never pay for
-- it. It gives translated Swift what Lua lacks: classes, structs and enums with Swift's value
-- semantics, optionals, Swift's operators (Int division truncates, overflow traps), strings and
-- collections with their common methods (0-based subscripts), errors (throw, try, catch, defer),
-- `Task {}` / `await` on coroutines, OperationQueue, and the stubs of 18.4: calls into code the
-- imported files do not define, whose time, result and failure are drawn from their own seeded
-- stream. It uses only the documented scenario API (`after`, `dispatch`, `work`, `now`,
-- `sharedContainer`, `notifications`, ...) and the host primitives handed to it (`prim`).
-- Errors it raises name the scenario line that called it (level 2 or more), never this chunk.
local prim = ...
local G = _G
local type, rawget, rawset, rawequal, setmetatable, getmetatable, select, error, pcall, tostring, next =
      type, rawget, rawset, rawequal, setmetatable, getmetatable, select, error, pcall, tostring, next
local pack, unpack, concat, insert, remove, sort = table.pack, table.unpack, table.concat, table.insert, table.remove, table.sort
local mtype, floor, huge = math.type, math.floor, math.huge
local co_create, co_resume, co_yield, co_status, co_running = coroutine.create, coroutine.resume, coroutine.yield, coroutine.status, coroutine.running

local S = {}

-- ===========================================================================================
-- The process: what a Swift program keeps in memory (statics, globals, singletons) lives in one
-- table per process, made by `swift.launch` in `app{ delegate = ... }` (SPEC 12.1).
-- ===========================================================================================
local P = { statics = setmetatable({}, { __mode = "k" }), globals = {} }

--- Starts this process's memory; returns the app delegate instance (or nil).
function S.launch(app, delegateClass)
  P = { statics = {}, globals = {}, app = app, tasks = {} }
  S.app = app
  if delegateClass then
    P.appDelegate = S.new(delegateClass, "init")
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
-- ===========================================================================================
local Opaque = {}
local opaqueName = setmetatable({}, { __mode = "k" })
local function opaque(name)
  local o = setmetatable({}, Opaque)
  opaqueName[o] = name
  return o
end
S.opaque = opaque
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

-- ===========================================================================================
-- Types: classes, structs and enums as tables; instances find methods through their type, and
-- computed or observed properties through getters and setters.
-- ===========================================================================================
local TypeMeta = {}   -- the metatable of a type table (statics live per process)
local typeInfo = setmetatable({}, { __mode = "k" })

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
      if lookup(info, "getters", k) then
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
  if sg then return sg() end
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

--- Swift's own value types learn the methods and computed properties the app's extensions add
--- to them, for receivers whose type the translation could not tell (`swift.get`, `swift.call`).
local builtinKinds
function S.extendBuiltins(E, typeName)
  local kinds = builtinKinds[typeName]
  if not kinds then return end
  local info = typeInfo[E]
  local names = {}
  for k, v in pairs(E) do if type(v) == "function" then names[#names + 1] = k end end
  sort(names)
  for _, kind in ipairs(kinds) do
    local members, methods = kind[1], kind[2]
    for _, k in ipairs(names) do methods[k] = rawget(E, k) end
    for k, g in pairs(info.getters) do members[k] = g end
  end
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
      for k, g in pairs(pi.getters) do if not lookup(info, "getters", k) then info.getters[k] = g end end
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
  local init = initName and findInType(C, initName)
  if init then
    local r = init(o, ...)
    if r == false then return nil end
  elseif typeInfo[C].kind == "struct" and initName == "init" then
    -- memberwise initializer: arguments in the order the stored properties are declared
    local order = rawget(C, "__memberwise")
    if order then
      for i = 1, #order do
        local v = select(i, ...)
        if v ~= nil then o[order[i]] = v end
      end
    end
  end
  return o
end

--- Whether a value is an instance of a translated type (not an iOS object of the scenario API).
function S.isTranslated(v)
  local mt = getmetatable(v)
  if type(mt) ~= "table" then return false end
  for _, info in pairs(typeInfo) do if info.meta == mt then return true end end
  return false
end

--- The type of a value, if it is an instance of a translated type.
function S.typeOf(v)
  local mt = getmetatable(v)
  if type(mt) ~= "table" then return nil end
  for C, info in pairs(typeInfo) do if info.meta == mt then return C end end
end

--- `x is T`, `x as? T` for translated types (other types: the value passes, opaque or not).
function S.isA(v, C)
  if v == nil then return false end
  local mt = getmetatable(v)
  local info = typeInfo[C]
  if not info then return true end
  if info.kind == "protocol" then
    local T = S.typeOf(v)
    while T do
      for _, p in ipairs(typeInfo[T].conforms) do if p == C then return true end end
      T = typeInfo[T].super
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
function S.as(v, C)
  local info = typeInfo[C]
  if info == nil then return v end
  if S.isA(v, C) then return v end
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
  if mt then
    for C, info in pairs(typeInfo) do
      if info.meta == mt then
        if info.kind ~= "struct" then return v end
        local c = {}
        for k, x in next, v do c[k] = copy(x) end
        return setmetatable(c, mt)
      end
    end
  end
  return v
end
S.copy = copy

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
    local name, raw, arity = c[1], c[2], c[3]
    info.cases[i] = name
    if arity and arity > 0 then
      rawset(C, name, function(...) return setmetatable({ __case = name, rawValue = raw, ... }, mt) end)
    else
      local v = setmetatable({ __case = name, rawValue = raw == nil and name or raw }, mt)
      rawset(C, name, v)
      all[#all + 1] = v
    end
  end
  rawset(C, "allCases", setmetatable(all, ArrayMeta))
  rawset(C, "init_rawValue", function(raw)
    for _, v in ipairs(all) do if S.eq(rawget(v, "rawValue"), raw) then return v end end
    return nil
  end)
end
--- `Status(rawValue: x)`.
function S.fromRaw(C, raw) return rawget(C, "init_rawValue")(raw) end

-- ===========================================================================================
-- Optionals and errors
-- ===========================================================================================
function S.unwrap(v, what)
  if v == nil then
    error("Fatal error: Unexpectedly found nil while unwrapping an Optional value" .. (what and (" (" .. what .. ")") or ""), 2)
  end
  return v
end

--- An `inout` parameter's box: `f(&x)` passes `{ v = x }` and writes `v` back to `x` after the
--- call; a function called with a plain value (through a stub's dynamic call) boxes it itself.
local InoutBox = {}
function S.inoutBox(v)
  if type(v) == "table" and getmetatable(v) == InoutBox then return v end
  return setmetatable({ v = v }, InoutBox)
end

--- A closure of several parameters given one tuple (a pair of `zip`, a dictionary's key and
--- value): the tuple's parts are its arguments.
function S.spread(f)
  return function(...)
    if select("#", ...) == 1 then
      local t = ...
      if type(t) == "table" and getmetatable(t) == ArrayMeta then return f(unpack(t, 1, #t)) end
    end
    return f(...)
  end
end

--- `a ?? b` with `b` given as a function (evaluated only when needed).
function S.coalesce(a, bf)
  if a == nil then return bf() end
  return a
end

--- `a?.b`.
function S.opt(a, k)
  if a == nil then return nil end
  return a[k]
end

local SwiftError = {}
SwiftError.__tostring = function(e) return "Swift error: " .. S.s(e.value) end
--- `throw e`: a Swift error, which `catch`, `try?` and `defer` see (a crash they do not).
function S.throw(e)
  error(setmetatable({ value = e }, SwiftError), 2)
end
local function isSwiftError(e) return getmetatable(e) == SwiftError end
S.isSwiftError = isSwiftError

--- `Result { try f() }`: `.success(value)` or `.failure(error)`.
function S.resultOf(f)
  local r = pack(pcall(f))
  if r[1] then return S.case("success", r[2]) end
  if isSwiftError(r[2]) then return S.case("failure", r[2].value) end
  error(r[2], 0)
end

--- `try? f()`: nil when it throws.
function S.tryOpt(f)
  local r = pack(pcall(f))
  if r[1] then return unpack(r, 2, r.n) end
  if isSwiftError(r[2]) then return nil end
  error(r[2], 0)
end
--- `try! f()`: a throw is a crash.
function S.tryForce(f)
  local r = pack(pcall(f))
  if r[1] then return unpack(r, 2, r.n) end
  if isSwiftError(r[2]) then error("Fatal error: 'try!' expression unexpectedly raised an error: " .. S.s(r[2].value), 2) end
  error(r[2], 0)
end

--- `do { body } catch { handlers }`: body and handler are functions returning a control code
--- (nil: fell through; "return", values...; "break"; "continue"). A handler receives the error
--- value and returns false when it does not match (the error goes on).
local BREAK, CONTINUE, RETURN = "break", "continue", "return"
S.BREAK, S.CONTINUE, S.RETURN = BREAK, CONTINUE, RETURN
function S.doCatch(body, handler)
  local r = pack(pcall(body))
  if r[1] then return unpack(r, 2, r.n) end
  local e = r[2]
  if not isSwiftError(e) or not handler then error(e, 0) end
  local h = pack(handler(e.value))
  if h[1] == false then error(e, 0) end
  return unpack(h, 1, h.n)
end

--- A scope with `defer`: `body(defer)` registers deferred functions with `defer(fn)`; they run
--- last-in first-out at every exit (return, break, continue, throw), after a return value is
--- computed, and not on a crash (18.7.10). Returns the body's control code and values.
function S.scope(body)
  local defers = {}
  local function defer(fn) defers[#defers + 1] = fn end
  local r = pack(pcall(body, defer))
  if not r[1] and not isSwiftError(r[2]) then error(r[2], 0) end
  for i = #defers, 1, -1 do defers[i]() end
  if not r[1] then error(r[2], 0) end
  return unpack(r, 2, r.n)
end

-- ===========================================================================================
-- Operators: Swift's semantics on Lua values. Int arithmetic traps on overflow and `/` of two
-- Ints truncates toward zero (18.7.8); `+` joins strings and arrays.
-- ===========================================================================================
local function trap(what) error("Fatal error: " .. what, 3) end
local maxint, minint = math.maxinteger, math.mininteger

function S.add(a, b)
  local ta, tb = mtype(a), mtype(b)
  if ta == "integer" and tb == "integer" then
    local r = a + b
    if (b > 0 and r < a) or (b < 0 and r > a) then trap("arithmetic overflow") end
    return r
  end
  if ta and tb then return a + b end
  if type(a) == "string" or type(b) == "string" then
    if type(a) == "string" and type(b) == "string" then return a .. b end
  end
  local ma = getmetatable(a)
  if ma == ArrayMeta then
    local r = setmetatable({}, ArrayMeta)
    for i = 1, #a do r[i] = a[i] end
    if type(b) == "table" then for i = 1, #b do r[#r + 1] = b[i] end end
    return r
  end
  if a == nil or b == nil then error("attempt to perform arithmetic on a nil value", 2) end
  return a + b   -- opaque values and the like answer for themselves
end
function S.sub(a, b)
  if mtype(a) == "integer" and mtype(b) == "integer" then
    local r = a - b
    if (b < 0 and r < a) or (b > 0 and r > a) then trap("arithmetic overflow") end
    return r
  end
  if a == nil or b == nil then error("attempt to perform arithmetic on a nil value", 2) end
  return a - b
end
function S.mul(a, b)
  if mtype(a) == "integer" and mtype(b) == "integer" then
    if a ~= 0 and b ~= 0 then
      local r = a * b
      if r // b ~= a or (a == -1 and b == minint) or (b == -1 and a == minint) then trap("arithmetic overflow") end
      return r
    end
    return 0
  end
  if a == nil or b == nil then error("attempt to perform arithmetic on a nil value", 2) end
  return a * b
end
function S.div(a, b)
  if mtype(a) == "integer" and mtype(b) == "integer" then
    if b == 0 then trap("Division by zero") end
    if a == minint and b == -1 then trap("arithmetic overflow") end
    local q = a // b
    if q < 0 and q * b ~= a then q = q + 1 end   -- toward zero
    return q
  end
  if a == nil or b == nil then error("attempt to perform arithmetic on a nil value", 2) end
  return a / b
end
function S.mod(a, b)
  if mtype(a) == "integer" and mtype(b) == "integer" then
    if b == 0 then trap("Division by zero in remainder operation") end
    return a - S.div(a, b) * b
  end
  if a == nil or b == nil then error("attempt to perform arithmetic on a nil value", 2) end
  return math.fmod(a, b)
end
function S.neg(a)
  if a == minint then trap("arithmetic overflow") end
  return -a
end

--- `==` as Swift compares: numbers by value (Int and Double alike), strings, enum cases by case,
--- arrays and dictionaries by contents, instances by identity (Equatable structs field by field).
function S.eq(a, b)
  if rawequal(a, b) then return true end
  local ta, tb = type(a), type(b)
  if ta ~= tb then return false end
  if ta ~= "table" then return a == b end
  if isOpaque(a) or isOpaque(b) then return false end
  local ca, cb = caseOf(a), caseOf(b)
  if ca or cb then return S.sameCase(a, b) end
  local ma, mb = getmetatable(a), getmetatable(b)
  if ma ~= mb then return false end
  if ma == ArrayMeta then
    if #a ~= #b then return false end
    for i = 1, #a do if not S.eq(a[i], b[i]) then return false end end
    return true
  end
  if ma == DictMeta or ma == SetMeta then
    for k, v in next, a do if not S.eq(v, rawget(b, k)) then return false end end
    for k in next, b do if rawget(a, k) == nil then return false end end
    return true
  end
  for _, info in pairs(typeInfo) do
    if info.meta == ma and info.kind == "struct" then
      for k, v in next, a do if not S.eq(v, rawget(b, k)) then return false end end
      for k in next, b do if rawget(a, k) == nil then return false end end
      return true
    end
  end
  return false
end
function S.ne(a, b) return not S.eq(a, b) end
local function comparable(a, b)
  local ta, tb = type(a), type(b)
  return (ta == "number" and tb == "number") or (ta == "string" and tb == "string")
end
function S.lt(a, b) if comparable(a, b) then return a < b end return false end
function S.le(a, b) if comparable(a, b) then return a <= b end return false end
function S.gt(a, b) if comparable(a, b) then return a > b end return false end
function S.ge(a, b) if comparable(a, b) then return a >= b end return false end
--- `===`: the same instance.
function S.same(a, b) return rawequal(a, b) end

--- Ranges: `a..<b` and `a...b` as { lower, upper (exclusive) }.
local RangeMeta = {}
function S.range(lo, hi, closed)
  return setmetatable({ lower = lo, upper = closed and hi + 1 or hi, closed = closed }, RangeMeta)
end
function S.inRange(v, r)
  if type(v) ~= "number" then return false end
  return v >= r.lower and v < r.upper
end

-- ===========================================================================================
-- Strings: `String(describing:)`, interpolation, print.
-- ===========================================================================================
local function describe(v, depth)
  depth = depth or 0
  local t = type(v)
  if v == nil then return "nil" end
  if t == "string" then return v end
  if t == "number" then
    if mtype(v) == "float" then
      if v == floor(v) and v > -1e15 and v < 1e15 then return string.format("%.1f", v) end
      return string.format("%.15g", v)
    end
    return tostring(v)
  end
  if t == "boolean" then return tostring(v) end
  if t == "function" then return "(Function)" end
  local mt = getmetatable(v)
  if mt == Opaque then return "opaque" end
  if depth > 3 then return "..." end
  if mt == ArrayMeta or mt == SetMeta then
    local parts = {}
    if mt == SetMeta then for k in pairs(v) do parts[#parts + 1] = describe(k, depth + 1) end
    else for i = 1, #v do parts[i] = type(v[i]) == "string" and ('"' .. v[i] .. '"') or describe(v[i], depth + 1) end end
    return "[" .. concat(parts, ", ") .. "]"
  end
  if mt == DictMeta then
    local parts = {}
    for k, x in pairs(v) do parts[#parts + 1] = describe(k, depth + 1) .. ": " .. describe(x, depth + 1) end
    if #parts == 0 then return "[:]" end
    return "[" .. concat(parts, ", ") .. "]"
  end
  local c = caseOf(v)
  if c then
    if #v > 0 then
      local parts = {}
      for i = 1, #v do parts[i] = describe(v[i], depth + 1) end
      return c .. "(" .. concat(parts, ", ") .. ")"
    end
    return c
  end
  return tostring(v)
end
S.s = describe

--- `"a \(b) c"`: the pieces, described and joined.
function S.interp(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = describe((select(i, ...))) end
  return concat(parts)
end

--- `print(a, b)`: joined with spaces, as Swift prints.
function S.print(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = describe((select(i, ...))) end
  G.print(concat(parts, " "))
end

-- ===========================================================================================
-- Collections
-- ===========================================================================================
function S.array(t) return setmetatable(t or {}, ArrayMeta) end
function S.dict(t) return setmetatable(t or {}, DictMeta) end
function S.set(t)
  local s = setmetatable({}, SetMeta)
  if t then for _, v in ipairs(t) do s[v] = true end end
  return s
end
local function isArray(v) return getmetatable(v) == ArrayMeta end
local function isDict(v) return getmetatable(v) == DictMeta end
local function isSet(v) return getmetatable(v) == SetMeta end
ArrayMeta.__name, DictMeta.__name, SetMeta.__name = "Array", "Dictionary", "Set"

--- `xs[i]` (0-based, as Swift; out of range traps) and `dict[k]`.
function S.index(c, i)
  if c == nil then error("attempt to index a nil value", 2) end
  local mt = getmetatable(c)
  if mt == ArrayMeta then
    if mtype(i) ~= "integer" or i < 0 or i >= #c then trap("Index out of range") end
    return c[i + 1]
  end
  if mt == DictMeta or mt == SetMeta then return rawget(c, i) end
  if type(c) == "string" then return c:sub(i + 1, i + 1) end
  if mt == Opaque then return opaque("opaque") end
  if type(c) == "table" then
    local sub = c.subscript
    if type(sub) == "function" then return sub(c, i) end
    return c[i]
  end
  return nil
end
function S.setIndex(c, i, v)
  local mt = getmetatable(c)
  if mt == ArrayMeta then
    if mtype(i) ~= "integer" or i < 0 or i >= #c then trap("Index out of range") end
    c[i + 1] = v
    return
  end
  if mt == DictMeta then rawset(c, i, v); return end
  if mt == Opaque then return end
  if type(c) == "table" then
    local sub = c.setSubscript
    if type(sub) == "function" then return sub(c, i, v) end
    c[i] = v
  end
end
--- `dict[k, default: d]`.
function S.indexDefault(c, k, d)
  local v = rawget(c, k)
  if v == nil then return d end
  return v
end

--- `for x in c`: arrays in order, dictionaries as (key, value) pairs, sets, ranges, strings.
function S.iter(c)
  local mt = getmetatable(c)
  if mt == GroupMeta then return S.groupIter(c) end
  if mt ~= nil and mt == S.NotificationSequenceMeta then return S.notificationIter(c) end
  if mt == ArrayMeta then
    local i = 0
    return function() i = i + 1; local v = c[i]; if v ~= nil then return i, v end end
  end
  if mt == DictMeta then
    local keys = {}
    for k in pairs(c) do keys[#keys + 1] = k end
    local i = 0
    return function()
      i = i + 1
      local k = keys[i]
      if k ~= nil then return i, setmetatable({ k, c[k], key = k, value = c[k] }, ArrayMeta) end
    end
  end
  if mt == SetMeta then
    local keys = {}
    for k in pairs(c) do keys[#keys + 1] = k end
    local i = 0
    return function() i = i + 1; local k = keys[i]; if k ~= nil then return i, k end end
  end
  if mt == RangeMeta then
    local v = c.lower - 1
    return function() v = v + 1; if v < c.upper then return v, v end end
  end
  if type(c) == "string" then
    local i = 0
    return function() i = i + 1; if i <= #c then return i, c:sub(i, i) end end
  end
  if type(c) == "table" and not isOpaque(c) then
    local i = 0
    return function() i = i + 1; local v = c[i]; if v ~= nil then return i, v end end
  end
  return function() return nil end
end

local function count(c)
  local mt = getmetatable(c)
  if mt == ArrayMeta then return #c end
  if mt == DictMeta or mt == SetMeta then local n = 0; for _ in next, c do n = n + 1 end; return n end
  if type(c) == "string" then return utf8.len(c) or #c end
  if mt == RangeMeta then return math.max(0, c.upper - c.lower) end
  return 0
end

local function callFn(f, ...) return f(...) end

-- Members of built-in values by name, found at run time when the importer did not know the
-- receiver's type (`swift.get`, `swift.call`).
local arrayMembers, dictMembers, setMembers, stringMembers, numberMembers, rangeMembers = {}, {}, {}, {}, {}, {}

arrayMembers.count = function(a) return #a end
arrayMembers.isEmpty = function(a) return #a == 0 end
arrayMembers.first = function(a) return a[1] end
arrayMembers.last = function(a) return a[#a] end
arrayMembers.indices = function(a) return S.range(0, #a, false) end
arrayMembers.startIndex = function() return 0 end
arrayMembers.endIndex = function(a) return #a end
local arrayMethods = {}
function arrayMethods.append(a, v) a[#a + 1] = v end
arrayMethods["append_contentsOf"] = function(a, b) for _, v in S.iter(b) do a[#a + 1] = v end end
arrayMethods.insert = function(a, v, at) insert(a, (at or 0) + 1, v) end
arrayMethods["remove_at"] = function(a, i)
  if i < 0 or i >= #a then trap("Index out of range") end
  return remove(a, i + 1)
end
arrayMethods.removeAll = function(a, pred)
  if pred then
    local j = 0
    local n = #a
    for i = 1, n do local v = a[i]; a[i] = nil; if not pred(v) then j = j + 1; a[j] = v end end
  else
    for i = #a, 1, -1 do a[i] = nil end
  end
end
arrayMethods["removeAll_where"] = arrayMethods.removeAll
arrayMethods.removeFirst = function(a, n)
  if n then for _ = 1, n do remove(a, 1) end return end
  if #a == 0 then trap("Can't remove first element from an empty collection") end
  return remove(a, 1)
end
arrayMethods.removeLast = function(a)
  if #a == 0 then trap("Can't remove last element from an empty collection") end
  return remove(a)
end
arrayMethods.popLast = function(a) return remove(a) end
arrayMethods.contains = function(a, v)
  if type(v) == "function" then for i = 1, #a do if v(a[i]) then return true end end return false end
  for i = 1, #a do if S.eq(a[i], v) then return true end end
  return false
end
arrayMethods["contains_where"] = arrayMethods.contains
arrayMethods["firstIndex_of"] = function(a, v) for i = 1, #a do if S.eq(a[i], v) then return i - 1 end end end
arrayMethods["firstIndex_where"] = function(a, f) for i = 1, #a do if f(a[i]) then return i - 1 end end end
arrayMethods.firstIndex = function(a, v) if type(v) == "function" then return arrayMethods["firstIndex_where"](a, v) end return arrayMethods["firstIndex_of"](a, v) end
arrayMethods["first_where"] = function(a, f) for i = 1, #a do if f(a[i]) then return a[i] end end end
arrayMethods.first = arrayMethods["first_where"]
arrayMethods["last_where"] = function(a, f) for i = #a, 1, -1 do if f(a[i]) then return a[i] end end end
arrayMethods.map = function(a, f) local r = {}; for i, v in S.iter(a) do r[i] = f(v) end; return S.array(r) end
arrayMethods.compactMap = function(a, f) local r = {}; for _, v in S.iter(a) do local x = f(v); if x ~= nil then r[#r + 1] = x end end; return S.array(r) end
arrayMethods.flatMap = function(a, f)
  local r = {}
  for _, v in S.iter(a) do local x = f(v); if type(x) == "table" then for _, y in S.iter(x) do r[#r + 1] = y end elseif x ~= nil then r[#r + 1] = x end end
  return S.array(r)
end
arrayMethods.filter = function(a, f) local r = {}; for _, v in S.iter(a) do if f(v) then r[#r + 1] = v end end; return S.array(r) end
arrayMethods.forEach = function(a, f) for _, v in S.iter(a) do f(v) end end
arrayMethods.reduce = function(a, init, f) local acc = init; for _, v in S.iter(a) do acc = f(acc, v) end; return acc end
--- `reduce(into: initial) { acc, x in ... }`: the closure's accumulator is an inout box.
local function reduceInto(c, init, f)
  local box = S.inoutBox(copy(init))
  for _, v in S.iter(c) do f(box, v) end
  return box.v
end
arrayMethods["reduce_into"] = reduceInto
arrayMethods.sorted = function(a, f)
  local r = {}
  for i = 1, #a do r[i] = a[i] end
  sort(r, f or function(x, y) return S.lt(x, y) end)
  return S.array(r)
end
arrayMethods["sorted_by"] = arrayMethods.sorted
arrayMethods.sort = function(a, f) sort(a, f or function(x, y) return S.lt(x, y) end) end
arrayMethods.reversed = function(a) local r = {}; for i = #a, 1, -1 do r[#r + 1] = a[i] end; return S.array(r) end
arrayMethods.joined = function(a, sep)
  local parts = {}
  for i = 1, #a do parts[i] = describe(a[i]) end
  return concat(parts, sep or "")
end
arrayMethods["joined_separator"] = arrayMethods.joined
arrayMethods.min = function(a) local m; for i = 1, #a do if m == nil or S.lt(a[i], m) then m = a[i] end end; return m end
arrayMethods["min_by"] = function(a, f) local m; for i = 1, #a do if m == nil or f(a[i], m) then m = a[i] end end; return m end
arrayMethods["max_by"] = function(a, f) local m; for i = 1, #a do if m == nil or f(m, a[i]) then m = a[i] end end; return m end
arrayMethods.max = function(a) local m; for i = 1, #a do if m == nil or S.gt(a[i], m) then m = a[i] end end; return m end
arrayMethods.prefix = function(a, n) local r = {}; for i = 1, math.min(n, #a) do r[i] = a[i] end; return S.array(r) end
arrayMethods.suffix = function(a, n) local r = {}; for i = math.max(1, #a - n + 1), #a do r[#r + 1] = a[i] end; return S.array(r) end
arrayMethods.dropFirst = function(a, n) n = n or 1; local r = {}; for i = n + 1, #a do r[#r + 1] = a[i] end; return S.array(r) end
arrayMethods.dropLast = function(a, n) n = n or 1; local r = {}; for i = 1, #a - n do r[#r + 1] = a[i] end; return S.array(r) end
arrayMethods.enumerated = function(a)
  local r = {}
  for i = 1, #a do r[i] = setmetatable({ i - 1, a[i], offset = i - 1, element = a[i] }, ArrayMeta) end
  return S.array(r)
end
arrayMethods.shuffled = function(a) return copy(a) end
arrayMethods.randomElement = function(a) if #a == 0 then return nil end return a[math.random(#a)] end
arrayMethods.allSatisfy = function(a, f) for i = 1, #a do if not f(a[i]) then return false end end return true end

dictMembers.count = count
dictMembers.isEmpty = function(d) return next(d) == nil end
dictMembers.keys = function(d) local r = {}; for k in pairs(d) do r[#r + 1] = k end; return S.array(r) end
dictMembers.values = function(d) local r = {}; for _, v in pairs(d) do r[#r + 1] = v end; return S.array(r) end
dictMembers.first = function(d) for k, v in pairs(d) do return setmetatable({ k, v, key = k, value = v }, ArrayMeta) end end
local dictMethods = {}
dictMethods["removeValue_forKey"] = function(d, k) local v = rawget(d, k); rawset(d, k, nil); return v end
dictMethods.removeValue = dictMethods["removeValue_forKey"]
dictMethods.removeAll = function(d) for k in pairs(d) do rawset(d, k, nil) end end
dictMethods["updateValue_forKey"] = function(d, v, k) local old = rawget(d, k); rawset(d, k, v); return old end
dictMethods.updateValue = dictMethods["updateValue_forKey"]
dictMethods.mapValues = function(d, f) local r = S.dict(); for k, v in pairs(d) do r[k] = f(v) end; return r end
dictMethods.filter = function(d, f)
  local r = S.dict()
  for k, v in pairs(d) do if f(setmetatable({ k, v, key = k, value = v }, ArrayMeta)) then r[k] = v end end
  return r
end
dictMethods.forEach = function(d, f) for k, v in pairs(d) do f(setmetatable({ k, v, key = k, value = v }, ArrayMeta)) end end
dictMethods.contains = function(d, f) for k, v in pairs(d) do if f(setmetatable({ k, v, key = k, value = v }, ArrayMeta)) then return true end end return false end
dictMethods.merge = function(d, other) for k, v in pairs(other) do rawset(d, k, v) end end
dictMethods["reduce_into"] = reduceInto
dictMethods.reduce = arrayMethods.reduce
dictMethods.compactMapValues = function(d, f) local r = S.dict(); for k, v in pairs(d) do local x = f(v); if x ~= nil then r[k] = x end end; return r end
dictMethods.map = function(d, f) local r = {}; for k, v in pairs(d) do r[#r + 1] = f(setmetatable({ k, v, key = k, value = v }, ArrayMeta)) end; return S.array(r) end

setMembers.count = count
setMembers.isEmpty = function(s) return next(s) == nil end
setMembers.first = function(s) for k in pairs(s) do return k end end
local setMethods = {}
setMethods.insert = function(s, v) local had = rawget(s, v) ~= nil; rawset(s, v, true); return not had end
setMethods.remove = function(s, v) local had = rawget(s, v) ~= nil; rawset(s, v, nil); if had then return v end end
setMethods.contains = function(s, v) if type(v) == "function" then for k in pairs(s) do if v(k) then return true end end return false end return rawget(s, v) ~= nil end
setMethods.removeAll = function(s) for k in pairs(s) do rawset(s, k, nil) end end
setMethods.union = function(s, o) local r = copy(s); for _, v in S.iter(o) do rawset(r, v, true) end; return r end
setMethods.formUnion = function(s, o) for _, v in S.iter(o) do rawset(s, v, true) end end
setMethods.subtracting = function(s, o) local r = copy(s); for _, v in S.iter(o) do rawset(r, v, nil) end; return r end
setMethods.subtract = function(s, o) for _, v in S.iter(o) do rawset(s, v, nil) end end
setMethods.intersection = function(s, o) local r = S.set(); for _, v in S.iter(o) do if rawget(s, v) then rawset(r, v, true) end end; return r end
setMethods.forEach = function(s, f) for k in pairs(s) do f(k) end end
setMethods.map = function(s, f) local r = {}; for k in pairs(s) do r[#r + 1] = f(k) end; return S.array(r) end
setMethods.filter = function(s, f) local r = S.set(); for k in pairs(s) do if f(k) then rawset(r, k, true) end end; return r end
setMethods["reduce_into"] = reduceInto
setMethods.reduce = arrayMethods.reduce
setMethods.sorted = function(s, f) local r = {}; for k in pairs(s) do r[#r + 1] = k end; sort(r, f or function(x, y) return S.lt(x, y) end); return S.array(r) end

stringMembers.count = count
stringMembers.isEmpty = function(s) return #s == 0 end
stringMembers.first = function(s) if #s > 0 then return s:sub(1, 1) end end
stringMembers.last = function(s) if #s > 0 then return s:sub(-1) end end
stringMembers.utf8 = function(s) return s end
stringMembers.description = function(s) return s end
local stringMethods = {}
local function plain(p) return (p:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")) end
stringMethods.hasPrefix = function(s, p) return s:sub(1, #p) == p end
stringMethods.hasSuffix = function(s, p) return p == "" or s:sub(-#p) == p end
stringMethods.contains = function(s, p) if type(p) ~= "string" then return false end return s:find(p, 1, true) ~= nil end
stringMethods.lowercased = function(s) return s:lower() end
stringMethods.uppercased = function(s) return s:upper() end
stringMethods.trimmingCharacters = function(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end
stringMethods.split = function(s, sep)
  local r = {}
  sep = type(sep) == "string" and sep or " "
  for piece in (s .. sep):gmatch("(.-)" .. plain(sep)) do if piece ~= "" then r[#r + 1] = piece end end
  return S.array(r)
end
stringMethods["split_separator"] = stringMethods.split
stringMethods["components_separatedBy"] = function(s, sep)
  local r = {}
  sep = type(sep) == "string" and sep or " "
  for piece in (s .. sep):gmatch("(.-)" .. plain(sep)) do r[#r + 1] = piece end
  return S.array(r)
end
stringMethods.components = stringMethods["components_separatedBy"]
stringMethods["replacingOccurrences_of"] = function(s, a, b) return (s:gsub(plain(a), (b:gsub("%%", "%%%%")))) end
stringMethods.replacingOccurrences = stringMethods["replacingOccurrences_of"]
stringMethods.appending = function(s, o) return s .. describe(o) end
stringMethods["appending_"] = stringMethods.appending
stringMethods.append = function(s, o) return s .. describe(o) end
stringMethods.prefix = function(s, n) return s:sub(1, n) end
stringMethods.suffix = function(s, n) return n <= 0 and "" or s:sub(-n) end
stringMethods.dropFirst = function(s, n) return s:sub((n or 1) + 1) end
stringMethods.dropLast = function(s, n) return s:sub(1, #s - (n or 1)) end
stringMethods.data = function(s) return s end
-- URLs are their strings: the members Foundation's URL has.
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

numberMembers.description = function(n) return describe(n) end
numberMembers.timeIntervalSinceNow = function(d) return d - G.now() end
numberMembers.timeIntervalSince1970 = function(d) return 1379462400 + d end
numberMembers.timeIntervalSinceReferenceDate = function(d) return 1379462400 - 978307200 + d end
numberMembers.isZero = function(n) return n == 0 end
numberMembers.magnitude = function(n) return math.abs(n) end
local numberMethods = {}
numberMethods.addingTimeInterval = function(d, x) return d + x end
numberMethods["timeIntervalSince"] = function(d, o) return d - o end
numberMethods["distance_to"] = function(d, o) return o - d end
numberMethods.advanced = function(d, x) return d + x end
numberMethods.isMultiple = function(n, of) return of ~= 0 and n % of == 0 end
numberMethods.rounded = function(n) return floor(n + 0.5) * 1.0 end
numberMethods.compare = function(a, b) if a < b then return S.case("orderedAscending") elseif a > b then return S.case("orderedDescending") end return S.case("orderedSame") end

rangeMembers.count = count
rangeMembers.isEmpty = function(r) return r.upper <= r.lower end
rangeMembers.lowerBound = function(r) return r.lower end
rangeMembers.upperBound = function(r) return r.closed and r.upper - 1 or r.upper end
local rangeMethods = {}
rangeMethods.contains = function(r, v) return S.inRange(v, r) end
rangeMethods.map = function(r, f) local out = {}; for v in S.iter(r) do out[#out + 1] = f(v) end; return S.array(out) end
rangeMethods.forEach = function(r, f) for v in S.iter(r) do f(v) end end
rangeMethods.reversed = function(r) local out = {}; for v = r.upper - 1, r.lower, -1 do out[#out + 1] = v end; return S.array(out) end

builtinKinds = {
  String = { { stringMembers, stringMethods } }, Substring = { { stringMembers, stringMethods } },
  StringProtocol = { { stringMembers, stringMethods } }, URL = { { stringMembers, stringMethods } },
  Int = { { numberMembers, numberMethods } }, Double = { { numberMembers, numberMethods } },
  Float = { { numberMembers, numberMethods } }, CGFloat = { { numberMembers, numberMethods } },
  TimeInterval = { { numberMembers, numberMethods } }, Date = { { numberMembers, numberMethods } },
  Int64 = { { numberMembers, numberMethods } }, UInt = { { numberMembers, numberMethods } },
  BinaryInteger = { { numberMembers, numberMethods } }, FloatingPoint = { { numberMembers, numberMethods } },
  Array = { { arrayMembers, arrayMethods } }, Dictionary = { { dictMembers, dictMethods } }, Set = { { setMembers, setMethods } },
  Collection = { { arrayMembers, arrayMethods }, { setMembers, setMethods } },
  Sequence = { { arrayMembers, arrayMethods }, { setMembers, setMethods } },
}

-- A range answers the array methods it lacks as the array of its values (`(1...3).reduce`).
for k, f in pairs(arrayMethods) do
  if rangeMethods[k] == nil then rangeMethods[k] = function(r, ...) return f(S.toArray(r), ...) end end
end

local function builtinTables(v)
  local t = type(v)
  if t == "string" then return stringMembers, stringMethods end
  if t == "number" then return numberMembers, numberMethods end
  local mt = getmetatable(v)
  if mt == ArrayMeta then return arrayMembers, arrayMethods end
  if mt == DictMeta then return dictMembers, dictMethods end
  if mt == SetMeta then return setMembers, setMethods end
  if mt == RangeMeta then return rangeMembers, rangeMethods end
end

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
  local resumed, value, err = false, nil, nil
  local function resume(v, e)
    if resumed then error("Fatal error: SWIFT TASK CONTINUATION MISUSE: tried to resume its continuation more than once", 3) end
    resumed, value, err = true, v, e
    me:later(0, function() step(me) end)
  end
  local c = {}
  c.resume = function(_, v) resume(v) end
  c.resume_returning = c.resume
  c.resume_throwing = function(_, e) resume(nil, e) end
  c.resume_with = function(_, r)
    if caseOf(r) == "failure" then resume(nil, r[1]) else resume(type(r) == "table" and r[1] or r) end
  end
  body(c)
  if not resumed then co_yield({ wait = true }) end
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
  local me = current
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

--- The scene delegate: made when the scene connects, kept for the process.
function S.connectScene(C)
  if P.sceneDelegate == nil then P.sceneDelegate = S.new(C, "init") end
  return P.sceneDelegate
end
function S.sceneDelegate() return P.sceneDelegate or opaque("UISceneDelegate") end

--- `v?.api(...)`: `f(v)` when `v` is not nil.
function S.optApply(v, f)
  if v == nil then return nil end
  return f(v)
end

--- `f?(args)`: calls `f` when it is not nil.
function S.callOpt(f, ...)
  if f == nil then return nil end
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
  return 0
end
function S.double(v)
  if type(v) == "string" then return tonumber(v) end
  if type(v) == "number" then return v + 0.0 end
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
function S.uuid()
  uuids = uuids + 1
  local id = string.format("00000000-0000-4000-8000-%012d", uuids)
  return setmetatable({ uuidString = id }, { __tostring = function() return id end, __eq = function(a, b) return rawget(a, "uuidString") == rawget(b, "uuidString") end })
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
function S.withLock(l, body)
  l:lock()
  local r = pack(pcall(body))
  l:unlock()
  if not r[1] then error(r[2], 0) end
  return unpack(r, 2, r.n)
end
function S.invalidate(t) if type(t) == "table" and t.invalidate then t:invalidate() end end

-- NotificationCenter and Combine's publisher(for:).
S.notificationCenter = setmetatable({}, { __tostring = function() return "NotificationCenter" end })
function S.post(name, info)
  if type(name) ~= "string" then return end
  G.notifications.post(name, info)
end
local Publisher = {}
Publisher.__index = Publisher
function S.publisher(name) return setmetatable({ name = name, stages = {} }, Publisher) end
--- `Timer.publish(every: s, on: .main, in: .common)`: `.autoconnect().sink` runs every s seconds
--- on the main thread (until the cancellable is cancelled).
function S.timerPublisher(interval) return setmetatable({ timer = interval, stages = {} }, Publisher) end
local function stage(self, f) local p = setmetatable({ name = self.name, timer = self.timer, stages = { table.unpack(self.stages) } }, Publisher); p.stages[#p.stages + 1] = f; return p end
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
  if type(self.timer) == "number" and self.timer > 0 then
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

-- URLSession: shared sessions send `http` requests to the fake servers; background sessions are
-- the scenario's `urlSession.background`, their delegate calls made to the Swift delegate.
S.sharedSession = setmetatable({ shared = true }, { __tostring = function() return "URLSession.shared" end })
local function urlOf(x)
  if type(x) == "string" then return x end
  if type(x) == "table" and rawget(x, "__request") then return x.url end
  return describe(x)
end
function S.urlRequest(url)
  return { __request = true, url = url, httpMethod = "GET", allHTTPHeaderFields = S.dict(), timeoutInterval = 60,
           setValue = function(r, v, k) r.allHTTPHeaderFields[k] = v end, addValue = function(r, v, k) r.allHTTPHeaderFields[k] = v end }
end
local function httpRequest(req, callback)
  local url = urlOf(req)
  local opts = { url = url, method = "GET" }
  if type(req) == "table" and rawget(req, "__request") then
    opts.method = req.httpMethod or "GET"
    opts.timeout = req.timeoutInterval
  end
  if type(url) ~= "string" or not url:match("^https?://") then
    return G.after(0, function() callback(nil, "cannotFindHost") end)
  end
  G.http.request(opts, callback)
end
local function response(r) return { statusCode = r and r.status or 0, allHeaderFields = r and r.headers or {} } end
local function nsError(err) return setmetatable({ code = err, localizedDescription = "The operation couldn't be completed (" .. tostring(err) .. ")", domain = "NSURLErrorDomain" }, { __tostring = function() return "NSURLError(" .. tostring(err) .. ")" end }) end
-- A URLSessionTask as Swift sees it: `taskIdentifier` (unique in its session; a background
-- transfer's id, which stays the same across processes), `originalRequest`/`currentRequest`,
-- `state`, `resume()`, `cancel()`, `taskDescription` (the app's own field).
local nextTaskIdentifier = 0
local function taskObject(req, id)
  if id == nil then nextTaskIdentifier = nextTaskIdentifier + 1; id = nextTaskIdentifier end
  local url = urlOf(req)
  local request = (type(req) == "table" and rawget(req, "__request")) and req or { url = url, httpMethod = "GET" }
  return { taskIdentifier = id, originalRequest = request, currentRequest = request, state = S.case("suspended"),
           countOfBytesReceived = 0, countOfBytesSent = 0, countOfBytesExpectedToReceive = -1 }
end
function S.dataTask(session, req, completion)
  local task = taskObject(req)
  task.resume = function()
    if task.started then return end
    task.started = true
    task.state = S.case("running")
    httpRequest(req, function(r, err)
      if task.cancelled then return end
      task.state = S.case("completed")
      if r then task.response = response(r) end
      if completion then
        if err then completion(nil, nil, nsError(err)) else completion(r.body, response(r), nil) end
      end
    end)
  end
  task.cancel = function()
    if task.cancelled then return end
    task.cancelled = true
    task.state = S.case("canceling")
    if completion then G.after(0, function() completion(nil, nil, nsError("cancelled")) end) end
  end
  return task
end
--- `try await session.data(from:)`: the task waits for the response (a thrown error on failure).
function S.urlData(session, req)
  if rawget(session, "__background") then return S.downloadTask(session, req) end
  if not S.inTask() then return S.array({ opaque("Data"), response(nil) }) end
  local me = current
  local done, result, failure = false, nil, nil
  httpRequest(req, function(r, err)
    done = true
    if err then failure = nsError(err) else result = S.array({ r.body, response(r) }) end
    me:later(0, function() step(me) end)
  end)
  if not done then co_yield({ wait = true }) end
  if failure then S.throw(failure) end
  return result
end
function S.backgroundConfiguration(id) return { __background = id, identifier = id, isDiscretionary = false, sessionSendsLaunchEvents = true } end
local sessionDelegates = {}
--- The Swift task of a background transfer (made again in a new process from the transfer's id).
local function transferTask(session, raw)
  local tasks = rawget(session, "__tasks")
  local id = raw and raw.id
  local t = id and tasks[id]
  if t == nil then
    t = taskObject(nil, id)
    t.raw = raw
    t.state = S.case("completed")
    t.resume = function() end
    t.cancel = function() if t.raw then t.raw:cancel() end end
    if id then tasks[id] = t end
  end
  return t
end
--- `URLSession(configuration:delegate:delegateQueue:)`: a background configuration makes the
--- scenario's background session, whose calls reach the delegate's methods (`methods` names them).
function S.urlSession(config, delegate, methods)
  if type(config) ~= "table" or not rawget(config, "__background") then return S.sharedSession end
  methods = methods or {}
  local id = config.__background
  local session
  local d = {
    didFinishDownloading = function(task, resp)
      local m = delegate and methods.didFinishDownloading and delegate[methods.didFinishDownloading]
      if m then m(delegate, session, transferTask(session, task), "/tmp/CFNetworkDownload.tmp") end
    end,
    didComplete = function(task, err)
      local t = transferTask(session, task)
      t.state = S.case("completed")
      local m = delegate and methods.didComplete and delegate[methods.didComplete]
      if m then m(delegate, session, t, err and nsError(err) or nil) end
    end,
    didFinishEvents = function()
      local m = delegate and methods.didFinishEvents and delegate[methods.didFinishEvents]
      if m then m(delegate, session) end
    end,
  }
  local raw = G.urlSession.background(id, d)
  session = setmetatable({ __background = id, raw = raw, configuration = config, __tasks = {} }, { __index = function(_, k) return function() return nil end end })
  sessionDelegates[id] = session
  return session
end
-- A background transfer starts when the task is made (its id is the transfer's): `resume()` only
-- marks it running. A task of a plain session sends its request at `resume()`.
-- (`kind` is the raw session's method, `method` the request's default HTTP method.)
local function sessionTask(session, req, kind, method)
  if rawget(session, "__background") then
    local raw
    if kind == "download" then raw = session.raw:download(urlOf(req))
    else raw = session.raw:upload({ url = urlOf(req), method = (type(req) == "table" and req.httpMethod) or method }) end
    local task = transferTask(session, raw)
    task.originalRequest = (type(req) == "table" and rawget(req, "__request")) and req or { url = urlOf(req), httpMethod = method }
    task.currentRequest = task.originalRequest
    task.state = S.case("running")
    return task
  end
  local task = taskObject(req)
  task.resume = function() if not task.started then task.started = true; httpRequest(req, function() end) end end
  task.cancel = function() end
  return task
end
function S.downloadTask(session, req) return sessionTask(session, req, "download", "GET") end
function S.uploadTask(session, req) return sessionTask(session, req, "upload", "POST") end
function S.sessionTasks(session, completion)
  local data, uploads, downloads = S.array(), S.array(), S.array()
  if type(session) == "table" and rawget(session, "__tasks") then
    local ids = {}
    for id in pairs(rawget(session, "__tasks")) do ids[#ids + 1] = id end
    sort(ids)
    for _, id in ipairs(ids) do
      local t = session.__tasks[id]
      if caseOf(t.state) == "running" then downloads[#downloads + 1] = t end
    end
  end
  if completion then completion(data, uploads, downloads) end
end

--- `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`.
function S.appGroupURL(id) return "/AppGroup/" .. tostring(id) end

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

return S
