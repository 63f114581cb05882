-- swift/operators.lua, module 4 of 13 of the runtime of imported scenarios (README.md):
-- Swift's operators on Lua values: Int arithmetic traps on overflow and `/` of two Ints
-- truncates toward zero (18.7.8), `+` joins strings and arrays, equality and ordering of
-- values, cases and collections; ranges; Swift's numeric functions (abs, floor, min, ...).
-- Uses: process (opaque values), types (typeInfo, metaType, metatables, caseOf). Shares: trap, RangeMeta.
local S, prim, shared = ...
local type, rawget, rawequal, setmetatable = type, rawget, rawequal, setmetatable
local getmetatable, error, next = getmetatable, error, next
local mtype = math.type
local isOpaque, typeInfo, ArrayMeta = shared.isOpaque, shared.typeInfo, shared.ArrayMeta
local metaType = shared.metaType
local DictMeta, SetMeta, caseOf = shared.DictMeta, shared.SetMeta, shared.caseOf

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
  -- A value of the runtime's own with its own equality (a UUID compares by its string).
  if ma and rawget(ma, "__eq") then return ma.__eq(a, b) end
  local C = metaType[ma]
  if C and typeInfo[C].kind == "struct" then
    for k, v in next, a do if not S.eq(v, rawget(b, k)) then return false end end
    for k in next, b do if rawget(a, k) == nil then return false end end
    return true
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

--- `xs[a..<b]`, `xs[..<b]`, `xs[a...]` of an array or a string: the elements in range, as an array
--- indexed from 0 (Swift's ArraySlice keeps its base's indices: not modelled); out of bounds traps.
local function sliceByRange(c, r)
  local n = #c
  local lo = r.lower == -math.huge and 0 or r.lower
  local hi = r.upper == math.huge and n or r.upper
  if math.type(lo) ~= "integer" or math.type(hi) ~= "integer" or lo < 0 or hi > n or lo > hi then trap("Range out of bounds") end
  if type(c) == "string" then return c:sub(lo + 1, hi) end
  return setmetatable(table.move(c, lo + 1, hi, 1, {}), shared.ArrayMeta)
end

shared.trap, shared.RangeMeta, shared.sliceByRange = trap, RangeMeta, sliceByRange

-- Swift's numeric functions (`abs`, `floor`, `min`, ...): a value a stub returned is opaque, and
-- so is what they make of it (Lua's math library would raise on it); `min`/`max` compare any
-- comparable values, as Swift's do.
local numeric = {
  abs = math.abs, sqrt = math.sqrt, exp = math.exp, log = math.log, sin = math.sin, cos = math.cos,
  floor = function(x) return math.floor(x) + 0.0 end, ceil = function(x) return math.ceil(x) + 0.0 end,
  -- Swift's round: half away from zero.
  round = function(x) if x < 0 then return -math.floor(-x + 0.5) * 1.0 end return math.floor(x + 0.5) * 1.0 end,
  pow = function(x, y) return x ^ y end,
}
function S.math(name, ...)
  local n = select("#", ...)
  for i = 1, n do
    if isOpaque((select(i, ...))) then return shared.opaque("Double") end
  end
  if name == "min" or name == "max" then
    local best = ...
    for i = 2, n do
      local v = select(i, ...)
      if (name == "min" and S.lt(v, best)) or (name == "max" and S.gt(v, best)) then best = v end
    end
    return best
  end
  return numeric[name](...)
end

