-- swift/urlsession.lua, module 13 of 13 of the runtime of imported scenarios (README.md):
-- URLSession (18.3): shared sessions send `http` requests to the fake servers; background
-- sessions are the scenario's `urlSession.background`, their delegate calls made to the Swift
-- delegate; tasks as Swift sees them.
-- Uses: process (opaque values), types (caseOf), strings (describe), concurrency (step,
-- currentTask), the scenario API.
local S, prim, shared = ...
local G = _G
local type, rawget, setmetatable, tostring, pairs, ipairs, next = type, rawget, setmetatable, tostring, pairs, ipairs, next
local sort = table.sort
local co_yield = coroutine.yield
local opaque, isOpaque, caseOf, describe, step = shared.opaque, shared.isOpaque, shared.caseOf, shared.describe, shared.step
local currentTask = shared.currentTask
local P
shared.process(function(p) P = p end)

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
--- `request.setValue(v, forHTTPHeaderField: k)` (`add`: `addValue`, which joins with a comma):
--- the request's headers, which the server sees (a stub's request keeps nothing).
function S.setHeader(req, v, k, add)
  if type(req) ~= "table" or not rawget(req, "__request") or k == nil then return end
  local h = req.allHTTPHeaderFields
  if add and h[k] ~= nil and v ~= nil then h[k] = h[k] .. "," .. tostring(v) else h[k] = v end
end
--- `value(forHTTPHeaderField:)` of a request or a response (field names match in any case).
function S.header(r, k)
  if type(r) ~= "table" or isOpaque(r) or k == nil then return nil end
  local h = rawget(r, "__request") and r.allHTTPHeaderFields or rawget(r, "allHeaderFields")
  if type(h) ~= "table" then return nil end
  local lower = tostring(k):lower()
  for name, v in pairs(h) do if tostring(name):lower() == lower then return v end end
  return nil
end
local function httpRequest(req, callback)
  local url = urlOf(req)
  local opts = { url = url, method = "GET" }
  if type(req) == "table" and rawget(req, "__request") then
    opts.method = req.httpMethod or "GET"
    opts.timeout = req.timeoutInterval
    local headers = {}
    for k, v in pairs(req.allHTTPHeaderFields or {}) do
      if type(k) == "string" and type(v) == "string" then headers[k] = v end
    end
    if next(headers) ~= nil then opts.headers = headers end
    if type(req.httpBody) == "string" then opts.body = req.httpBody end
  end
  if type(url) ~= "string" or not url:match("^https?://") then
    return G.after(0, function() callback(nil, "cannotFindHost") end)
  end
  G.http.request(opts, callback)
end
-- A response body as the app's `Data`: a string as it is; a table (a route's `body = { ... }`)
-- as its JSON text, keys sorted; none, empty Data (a success's data is never nil).
local function json(v, depth)
  local tv = type(v)
  if tv == "string" then return '"' .. v:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"' end
  if tv == "number" or tv == "boolean" then return tostring(v) end
  if tv ~= "table" or depth > 16 then return "null" end
  if #v > 0 then
    local parts = {}
    for i = 1, #v do parts[i] = json(v[i], depth + 1) end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local keys = {}
  for k in pairs(v) do if type(k) == "string" then keys[#keys + 1] = k end end
  sort(keys)
  for i, k in ipairs(keys) do keys[i] = json(k, depth) .. ":" .. json(v[k], depth + 1) end
  return "{" .. table.concat(keys, ",") .. "}"
end
local function bodyData(body)
  if body == nil then return "" end
  if type(body) == "table" then return json(body, 0) end
  return body
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
        -- A success's data is never nil (an empty body is empty Data).
        if err then completion(nil, nil, nsError(err)) else completion(bodyData(r.body), response(r), nil) end
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
  local me = currentTask()
  local done, result, failure = false, nil, nil
  httpRequest(req, function(r, err)
    done = true
    if err then failure = nsError(err) else result = S.array({ bodyData(r.body), response(r) }) end
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
