-- swift/collections.lua, module 6 of 13 of the runtime of imported scenarios (README.md):
-- Arrays, dictionaries and sets (0-based subscripts, iteration, count), and the members and
-- methods of built-in values (arrays, dictionaries, sets, strings, numbers, ranges) found by
-- name when the importer did not know the receiver's type; `swift.extendBuiltins`.
-- Uses: process (opaque values), types (typeInfo, metatables, copy), operators (trap,
-- RangeMeta), strings (describe). Shares: builtinTables, emptyOpaques (the opaque values an
-- argument-less initializer made: stubs.lua marks them).
local S, prim, shared = ...
local G = _G
local type, rawget, rawset, setmetatable = type, rawget, rawset, setmetatable
local getmetatable, error, next = getmetatable, error, next
local concat, insert, remove, sort = table.concat, table.insert, table.remove, table.sort
local mtype, floor = math.type, math.floor
local Opaque, opaque, isOpaque = shared.Opaque, shared.opaque, shared.isOpaque
local typeInfo, ArrayMeta, DictMeta = shared.typeInfo, shared.ArrayMeta, shared.DictMeta
local SetMeta, GroupMeta, copy, trap = shared.SetMeta, shared.GroupMeta, shared.copy, shared.trap
local RangeMeta, describe, sliceByRange = shared.RangeMeta, shared.describe, shared.sliceByRange

-- ===========================================================================================
-- Collections
-- ===========================================================================================
function S.array(t) return setmetatable(t or {}, ArrayMeta) end
function S.dict(t) return setmetatable(t or {}, DictMeta) end
function S.set(t)
  local s = setmetatable({}, SetMeta)
  -- Any sequence, as `for x in t` walks it (an opaque value is empty: ipairs would follow its
  -- fields forever).
  if t then for _, v in S.iter(t) do s[v] = true end end
  return s
end
local function isArray(v) return getmetatable(v) == ArrayMeta end
local function isDict(v) return getmetatable(v) == DictMeta end
local function isSet(v) return getmetatable(v) == SetMeta end
ArrayMeta.__name, DictMeta.__name, SetMeta.__name = "Array", "Dictionary", "Set"

-- An opaque value keeps what the app writes through its subscript, as it keeps its properties
-- (issue 38.3): `o[k] = v`, then `o[k]` is v, keys compared as Swift's `==` (an object or an
-- opaque value only equals itself). A key never written is a stub's value, except on an object
-- the app made itself with an argument-less initializer (`WeakDictionary<K, V>()`, `NSCache()`):
-- that container holds only what the app put in it, so any other key reads nil.
local ABSENT = {}   -- a key the app assigned nil
local opaqueEntries = setmetatable({}, { __mode = "k" })   -- opaque value -> { { key, value }, ... }
local emptyOpaques = setmetatable({}, { __mode = "k" })    -- opaque value -> true: made by `T()`
local function opaqueEntry(o, k)
  local list = opaqueEntries[o]
  if list then for _, e in ipairs(list) do if S.eq(e[1], k) then return e end end end
  return nil
end
local function opaqueIndex(o, k)
  local e = opaqueEntry(o, k)
  if e then if e[2] == ABSENT then return nil end return e[2] end
  if emptyOpaques[o] then return nil end
  return opaque("opaque")
end
local function setOpaqueIndex(o, k, v)
  if v == nil then v = ABSENT end
  local e = opaqueEntry(o, k)
  if e then e[2] = v; return end
  local list = opaqueEntries[o]
  if not list then list = {}; opaqueEntries[o] = list end
  list[#list + 1] = { k, v }
end

--- `xs[i]` (0-based, as Swift; out of range traps) and `dict[k]`.
function S.index(c, i)
  if c == nil then error("attempt to index a nil value", 2) end
  local mt = getmetatable(c)
  if mtype(i) ~= "integer" and (mt == ArrayMeta or type(c) == "string") then
    if getmetatable(i) == RangeMeta then return sliceByRange(c, i) end
    if isOpaque(i) then return opaque(mt == ArrayMeta and "element" or "Substring") end  -- a stub's index (`Range(m.range(at: 1), in: s)`): unknown
  end
  if mt == ArrayMeta then
    if mtype(i) ~= "integer" or i < 0 or i >= #c then trap("Index out of range") end
    return c[i + 1]
  end
  if mt == DictMeta or mt == SetMeta then return rawget(c, i) end
  if type(c) == "string" then return c:sub(i + 1, i + 1) end
  if mt == Opaque then return opaqueIndex(c, i) end
  if type(c) == "table" then
    local sub = c.subscript
    if type(sub) == "function" then return sub(c, i) end
    return c[i]
  end
  return nil
end
--- `c[label: i]`: the labelled subscript an extension declares (`subscript_label`), on an
--- array, dictionary or string (the extension's methods joined the built-in ones) or an
--- instance; an opaque value's, or one no file declares (a library's), is an opaque value.
function S.labelledIndex(c, name, ...)
  if c == nil then error("attempt to index a nil value", 2) end
  if isOpaque(c) then return opaque("opaque") end
  local _, methods = shared.builtinTables(c)
  local f = methods and methods[name]
  if f == nil and type(c) == "table" then f = c[name] end
  if type(f) ~= "function" then return opaque(name) end
  return f(c, ...)
end
function S.setIndex(c, i, v)
  local mt = getmetatable(c)
  if mt == ArrayMeta then
    if mtype(i) ~= "integer" or i < 0 or i >= #c then trap("Index out of range") end
    c[i + 1] = v
    return
  end
  if mt == DictMeta then rawset(c, i, v); return end
  if mt == Opaque then setOpaqueIndex(c, i, v); return end
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
arrayMembers.startIndex, arrayMembers.endIndex = function() return 0 end, function(a) return #a end
arrayMembers.lazy = function(a) return a end   -- `xs.lazy.compactMap { ... }.first`: eager, same result
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
arrayMethods["lastIndex_of"] = function(a, v) for i = #a, 1, -1 do if S.eq(a[i], v) then return i - 1 end end end
arrayMethods["lastIndex_where"] = function(a, f) for i = #a, 1, -1 do if f(a[i]) then return i - 1 end end end
arrayMethods.lastIndex = function(a, v) if type(v) == "function" then return arrayMethods["lastIndex_where"](a, v) end return arrayMethods["lastIndex_of"](a, v) end
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
local function views(s) return s end   -- a string's utf8, utf16 and unicodeScalars views (pocket-casts's `utf16.count`)
stringMembers.utf8, stringMembers.utf16, stringMembers.unicodeScalars = views, views, views
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

numberMembers.description = function(n) return describe(n) end
numberMembers.timeIntervalSinceNow = function(d) return d - G.now() end
numberMembers.timeIntervalSince1970 = function(d) return 1379462400 + d end
numberMembers.timeIntervalSinceReferenceDate = function(d) return 1379462400 - 978307200 + d end
numberMembers.isZero = function(n) return n == 0 end
numberMembers.magnitude = function(n) return math.abs(n) end
-- An NSNumber made from a literal (`var time: NSNumber = 0`) is a number: its accessors.
local function truncated(n)
  if n ~= n or n == math.huge or n == -math.huge then return 0 end
  return math.tointeger(n >= 0 and floor(n) or -floor(-n)) or 0
end
numberMembers.doubleValue = function(n) return n * 1.0 end
numberMembers.floatValue = numberMembers.doubleValue
for _, k in ipairs({ "intValue", "int8Value", "int16Value", "int32Value", "int64Value", "uintValue", "integerValue", "unsignedIntegerValue" }) do
  numberMembers[k] = truncated
end
numberMembers.boolValue = function(n) return n ~= 0 end
numberMembers.stringValue = function(n)
  if math.type(n) == "float" and n == floor(n) and math.abs(n) < 2^53 then return tostring(math.tointeger(n)) end
  return describe(n)
end
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

local str, num = { { stringMembers, stringMethods } }, { { numberMembers, numberMethods } }
local arr, set = { arrayMembers, arrayMethods }, { setMembers, setMethods }
local builtinKinds = { Array = { arr }, Dictionary = { { dictMembers, dictMethods } }, Set = { set }, Collection = { arr, set }, Sequence = { arr, set } }
for _, n in ipairs { "String", "Substring", "StringProtocol", "URL" } do builtinKinds[n] = str end
for _, n in ipairs { "Int", "Double", "Float", "CGFloat", "TimeInterval", "Date", "Int64", "UInt", "BinaryInteger", "FloatingPoint" } do builtinKinds[n] = num end
-- methods → name → the type's own method an app's unlabelled one hid (S.call: `sorted(by:)`).
local shadowed = {}

--- Swift's own value types learn the methods and computed properties the app's extensions add
--- to them, for receivers whose type the translation could not tell (`swift.get`, `swift.call`).
--- `labelled`: a method's name → its base and first label (`contains_subSequence`): such a
--- method is an overload beside the type's own method of its base name, which stays.
function S.extendBuiltins(E, typeName, labelled)
  local kinds = builtinKinds[typeName]
  if not kinds then return end
  local info = typeInfo[E]
  local names = {}
  for k, v in pairs(E) do if type(v) == "function" then names[#names + 1] = k end end
  sort(names)
  for _, kind in ipairs(kinds) do
    local members, methods = kind[1], kind[2]
    for _, k in ipairs(names) do
      local key = labelled and labelled[k]
      if key then methods[key] = rawget(E, k) end
      if not (key and methods[k]) then
        local own, hid = methods[k], shadowed[methods] or {}
        if own and not key and not hid[k] then hid[k] = own; shadowed[methods] = hid end
        methods[k] = rawget(E, k)
      end
    end
    for k, g in pairs(info.getters) do members[k] = g end
  end
end

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

shared.builtinTables, shared.emptyOpaques = builtinTables, emptyOpaques
function shared.shadowedBuiltin(methods, name) local hid = shadowed[methods]; return hid and hid[name] end
shared.stringMembers, shared.stringMethods = stringMembers, stringMethods  -- foundation.lua adds URL's
