-- swift/errors.lua, module 3 of 13 of the runtime of imported scenarios (README.md):
-- Optionals (unwrap, `??`, optional chaining), inout boxes, Swift errors (throw, try, try?,
-- try!, do/catch) and scopes with `defer`, and the loop-control tokens the translation returns.
-- Uses: process (isOpaque), types (the array metatable, typeInfo, typeOf). Shares: isSwiftError.
local S, prim, shared = ...
local type, setmetatable, getmetatable, select = type, setmetatable, getmetatable, select
local error, pcall = error, pcall
local pack, unpack = table.pack, table.unpack
local ArrayMeta, typeInfo, isOpaque = shared.ArrayMeta, shared.typeInfo, shared.isOpaque
local rawget, tostring, ipairs = rawget, tostring, ipairs

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

--- `error.localizedDescription` of any error, a String: what the app's type says (its own
--- `localizedDescription`, or LocalizedError's `errorDescription`), an SDK error's own, else
--- Swift's default, "The operation couldn’t be completed. (RefreshError error 0.)" (the case's
--- index), never nil (a thrown `RefreshError.offline` printed "nil").
local defaultText = "The operation couldn’t be completed."
function S.errorDescription(e)
  if e == nil then error("attempt to read 'localizedDescription' of nil (an Optional used without '?' or '!')", 2) end
  if isSwiftError(e) then e = e.value end
  if type(e) ~= "table" then return type(e) == "string" and e or defaultText end
  if isOpaque(e) then
    local written = rawget(e, "localizedDescription")
    return type(written) == "string" and written or defaultText
  end
  local C = S.typeOf(e)
  if C == nil then
    local own = rawget(e, "localizedDescription")
    if type(own) == "string" then return own end
    local case = rawget(e, "__case")
    return case and (defaultText .. " (" .. tostring(case) .. ")") or defaultText
  end
  for _, k in ipairs({ "localizedDescription", "errorDescription" }) do
    local ok, v = pcall(function() return e[k] end)
    if ok and v ~= nil then return S.s(v) end
  end
  local info, index = typeInfo[C], 1
  local case = rawget(e, "__case")
  for i, name in ipairs(info.cases or {}) do if name == case then index = i - 1 end end
  return defaultText .. " (" .. info.name .. " error " .. index .. ".)"
end

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

shared.isSwiftError = isSwiftError
