-- swift/strings.lua, module 5 of 12 of the runtime of imported scenarios (README.md):
-- `String(describing:)`, string interpolation and `print`, as Swift shows values.
-- Uses: process (Opaque), types (metatables, caseOf). Shares: describe.
local S, prim, shared = ...
local G = _G
local type, getmetatable, select, tostring = type, getmetatable, select, tostring
local concat = table.concat
local mtype, floor = math.type, math.floor
local Opaque, ArrayMeta, DictMeta = shared.Opaque, shared.ArrayMeta, shared.DictMeta
local SetMeta, caseOf = shared.SetMeta, shared.caseOf

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

shared.describe = describe
