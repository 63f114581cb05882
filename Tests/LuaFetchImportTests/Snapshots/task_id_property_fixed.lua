-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/task_id_property/fixed` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   PhotoOutbox.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/task_id_property/fixed
scenario { name = "Shoebox", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window", "backgroundTasks", "outbox", "lastUploadID" })  --@ AppDelegate.swift:3
T.PhotoOutbox = swift.type("PhotoOutbox", "class")  --@ PhotoOutbox.swift:4
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:3
  self.backgroundTasks = swift.dict({})  --@ AppDelegate.swift:9
  self.outbox = T.PhotoOutbox.shared  --@ AppDelegate.swift:10
  self.lastUploadID = 0  --@ AppDelegate.swift:11
end)  --@ AppDelegate.swift:3
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:13
  self.outbox:restore()  --@ AppDelegate.swift:15
  swift.print(swift.interp("Launch: ", self.outbox.pendingCount, " photos waiting in the outbox"))  --@ AppDelegate.swift:16
  do return true end  --@ AppDelegate.swift:17
end  --@ AppDelegate.swift:18
function T.AppDelegate:applicationWillResignActive(application)  --@ AppDelegate.swift:20
  self.outbox:persist()  --@ AppDelegate.swift:21
end  --@ AppDelegate.swift:22
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:24
  self.lastUploadID = swift.add(self.lastUploadID, 1)  --@ AppDelegate.swift:26
  local uploadID = self.lastUploadID  --@ AppDelegate.swift:27
  local task = application:beginBackgroundTask("PhotoOutboxUpload", function()  --@ AppDelegate.swift:28
    swift.print("Outbox upload ran out of background time")  --@ AppDelegate.swift:29
    swift.optCall(0, self, "endBackgroundTask", nil, uploadID)  --@ AppDelegate.swift:30
  end)  --@ AppDelegate.swift:31
  if swift.ne(task, UIBackgroundTaskInvalid) then  --@ AppDelegate.swift:32
    swift.setIndex(self.backgroundTasks, uploadID, task)  --@ AppDelegate.swift:33
  end  --@ AppDelegate.swift:34
  self.outbox:uploadPending(function(uploaded)  --@ AppDelegate.swift:35
    swift.print(swift.interp("Outbox upload finished: ", uploaded, " photos sent"))  --@ AppDelegate.swift:36
    swift.optCall(0, self, "endBackgroundTask", nil, uploadID)  --@ AppDelegate.swift:37
  end)  --@ AppDelegate.swift:38
end  --@ AppDelegate.swift:39
function T.AppDelegate:applicationWillEnterForeground(application)  --@ AppDelegate.swift:41
  self.outbox:restore()  --@ AppDelegate.swift:42
end  --@ AppDelegate.swift:43
function T.AppDelegate:applicationWillTerminate(application)  --@ AppDelegate.swift:45
  self.outbox:persist()  --@ AppDelegate.swift:46
end  --@ AppDelegate.swift:47
function T.AppDelegate:endBackgroundTask(uploadID)  --@ AppDelegate.swift:49
  local __ok1 = false  --@ AppDelegate.swift:50
  local task  --@ AppDelegate.swift:50
  task = swift.call(0, self.backgroundTasks, "removeValue", "removeValue_forKey", uploadID)  --@ AppDelegate.swift:50
  if task ~= nil then  --@ AppDelegate.swift:50
    __ok1 = true  --@ AppDelegate.swift:50
  end  --@ AppDelegate.swift:50
  if not __ok1 then  --@ AppDelegate.swift:50
    do return end  --@ AppDelegate.swift:50
  end  --@ AppDelegate.swift:50
  swift.app:endBackgroundTask(task)  --@ AppDelegate.swift:51
end  --@ AppDelegate.swift:52
swift.fields(T.PhotoOutbox, function(self)  --@ PhotoOutbox.swift:4
  self.storageKey = "outbox.pendingPhotoIDs"  --@ PhotoOutbox.swift:7
  self.defaults = swift.userDefaults  --@ PhotoOutbox.swift:8
  self.client = swift.stubCall(1, nil, "https://upload.example-photos.com/v2", 25)  --@ PhotoOutbox.swift:9
  self.pending = swift.array({  })  --@ PhotoOutbox.swift:10
end)  --@ PhotoOutbox.swift:4
swift.static(T.PhotoOutbox, "shared", function() return swift.new(T.PhotoOutbox, "init") end)  --@ PhotoOutbox.swift:5
swift.computed(T.PhotoOutbox, "pendingCount", function(self)  --@ PhotoOutbox.swift:12
  do return swift.get(0, self.pending, "count") end  --@ PhotoOutbox.swift:13
end)  --@ PhotoOutbox.swift:14
function T.PhotoOutbox:init()  --@ PhotoOutbox.swift:16
end  --@ PhotoOutbox.swift:16
function T.PhotoOutbox:restore()  --@ PhotoOutbox.swift:18
  self.pending = swift.coalesce(swift.defaultsGet(self.storageKey, "stringArray"), function() return swift.array({  }) end)  --@ PhotoOutbox.swift:19
end  --@ PhotoOutbox.swift:20
function T.PhotoOutbox:persist()  --@ PhotoOutbox.swift:22
  swift.defaultsSet(self.storageKey, self.pending)  --@ PhotoOutbox.swift:23
end  --@ PhotoOutbox.swift:24
function T.PhotoOutbox:uploadPending(completion)  --@ PhotoOutbox.swift:33
  local batch = swift.copy(self.pending)  --@ PhotoOutbox.swift:34
  swift.call(2, self.client, "uploadPhotos", "uploadPhotos_withIdentifiers", batch, function(error_)  --@ PhotoOutbox.swift:35
    do  --@ PhotoOutbox.swift:36
      local error__2 = error_  --@ PhotoOutbox.swift:36
      if error__2 ~= nil then  --@ PhotoOutbox.swift:36
        swift.print(swift.interp("Outbox: upload failed (", swift.errorDescription(error__2), "), will retry later"))  --@ PhotoOutbox.swift:37
        completion(0)  --@ PhotoOutbox.swift:38
        do return end  --@ PhotoOutbox.swift:39
      end  --@ PhotoOutbox.swift:40
    end  --@ PhotoOutbox.swift:40
    swift.optCall(0, self, "markUploaded", nil, swift.copy(batch))  --@ PhotoOutbox.swift:41
    completion(swift.get(0, batch, "count"))  --@ PhotoOutbox.swift:42
  end)  --@ PhotoOutbox.swift:43
end  --@ PhotoOutbox.swift:44
function T.PhotoOutbox:markUploaded(uploaded)  --@ PhotoOutbox.swift:46
  self.pending = swift.call(0, self.pending, "filter", nil, function(_0)  --@ PhotoOutbox.swift:47
    return not (swift.call(0, uploaded, "contains", nil, _0))  --@ PhotoOutbox.swift:47
  end)  --@ PhotoOutbox.swift:47
  self:persist()  --@ PhotoOutbox.swift:48
end  --@ PhotoOutbox.swift:49

app {
  backgroundModes = {  },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:13
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:13
      end,  --@ AppDelegate.swift:13
      willResignActive = function(app)  --@ AppDelegate.swift:20
        appDelegate:applicationWillResignActive(app)  --@ AppDelegate.swift:20
      end,  --@ AppDelegate.swift:20
      didEnterBackground = function(app)  --@ AppDelegate.swift:24
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:24
      end,  --@ AppDelegate.swift:24
      willEnterForeground = function(app)  --@ AppDelegate.swift:41
        appDelegate:applicationWillEnterForeground(app)  --@ AppDelegate.swift:41
      end,  --@ AppDelegate.swift:41
      willTerminate = function(app)  --@ AppDelegate.swift:45
        appDelegate:applicationWillTerminate(app)  --@ AppDelegate.swift:45
      end,  --@ AppDelegate.swift:45
    }
  end,
}

-- Stubs: calls into code the imported files do not define (docs/IMPORT.md). Each runs for `seconds`
-- (default { 0.01, 10 }; explore draws from { 0.001, 120 } unless you fix it), returns `result`
-- ("opaque": a value whose every field and call is again a stub; "nil"; or a Lua value), calls
-- each closure `calls` times (default 1). `blocking = true`: the call itself takes `seconds` on
-- the calling thread. `lock = "sharedContainer"`: it holds the app-group container's lock
-- meanwhile (`"ifSharedContainer"`, the import's guess for a database write: only when the
-- database was opened on a path in the app-group container). Edit to match your SDKs; a later
-- stubs{} adds to this one and wins.
stubs {
  ["PhotoSyncClient.init"] = { },  -- PhotoOutbox.swift:9
  ["PhotoSyncClient.uploadPhotos"] = { },  -- PhotoOutbox.swift:35
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "PhotoSyncClient.init", "PhotoOutbox.swift:9" },
  { "PhotoSyncClient.uploadPhotos", "PhotoOutbox.swift:35", fails = true, closures = { [2] = { index = 2, params = 1, kinds = { "error" } } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "upload.example-photos.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
