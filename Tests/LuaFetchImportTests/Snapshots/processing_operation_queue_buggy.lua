-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/processing_operation_queue/buggy` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   LibraryIndexer.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/processing_operation_queue/buggy
scenario { name = "Gallery", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window", "indexer" })  --@ AppDelegate.swift:4
T.IndexStatus = swift.type("IndexStatus", "enum")  --@ LibraryIndexer.swift:4
T.LibraryIndexer = swift.type("LibraryIndexer", "class")  --@ LibraryIndexer.swift:12
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:4
  self.indexer = swift.new(T.LibraryIndexer, "init")  --@ AppDelegate.swift:10
end)  --@ AppDelegate.swift:4
swift.static(T.AppDelegate, "reindexTaskIdentifier", function() return "com.example.gallery.reindex" end)  --@ AppDelegate.swift:7
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:12
  BGTaskScheduler.register(T.AppDelegate.reindexTaskIdentifier, function(task)  --@ AppDelegate.swift:14
    return self.indexer:handleReindex(task)  --@ AppDelegate.swift:16
  end)  --@ AppDelegate.swift:17
  do return true end  --@ AppDelegate.swift:18
end  --@ AppDelegate.swift:19
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:21
  self.indexer:scheduleReindex()  --@ AppDelegate.swift:22
end  --@ AppDelegate.swift:23
function T.AppDelegate:applicationWillEnterForeground(application)  --@ AppDelegate.swift:25
  swift.print(swift.interp("Search index: ", self.indexer.status.rawValue))  --@ AppDelegate.swift:26
end  --@ AppDelegate.swift:27
swift.enum(T.IndexStatus, { { "idle", "idle" }, { "scheduled", "scheduled" }, { "running", "running" }, { "finished", "finished" } })  --@ LibraryIndexer.swift:4
swift.fields(T.LibraryIndexer, function(self)  --@ LibraryIndexer.swift:12
  self.status = T.IndexStatus.idle  --@ LibraryIndexer.swift:13
  self.queue = (function()  --@ LibraryIndexer.swift:14
    local queue = swift.operationQueue(false)  --@ LibraryIndexer.swift:15
    queue.name = "com.example.gallery.indexer"  --@ LibraryIndexer.swift:16
    queue.maxConcurrentOperationCount = 1  --@ LibraryIndexer.swift:17
    do return queue end  --@ LibraryIndexer.swift:18
  end)()  --@ LibraryIndexer.swift:19
end)  --@ LibraryIndexer.swift:12
function T.LibraryIndexer:scheduleReindex()  --@ LibraryIndexer.swift:21
  local request = BGProcessingTaskRequest(T.AppDelegate.reindexTaskIdentifier)  --@ LibraryIndexer.swift:22
  request.requiresExternalPower = true  --@ LibraryIndexer.swift:23
  request.requiresNetworkConnectivity = false  --@ LibraryIndexer.swift:24
  request.earliestBeginDate = swift.now() + (swift.mul(60, 60))  --@ LibraryIndexer.swift:25
  local __c1, __r2 = swift.doCatch(function()  --@ LibraryIndexer.swift:26
    swift.bgSubmit(request)  --@ LibraryIndexer.swift:27
    self.status = T.IndexStatus.scheduled  --@ LibraryIndexer.swift:28
  end, function(__e)  --@ LibraryIndexer.swift:29
    do  --@ LibraryIndexer.swift:29
      local error_ = __e  --@ LibraryIndexer.swift:29
      swift.print(swift.interp("Could not schedule the reindex: ", error_))  --@ LibraryIndexer.swift:30
      do return nil end  --@ LibraryIndexer.swift:31
    end  --@ LibraryIndexer.swift:31
  end)  --@ LibraryIndexer.swift:31
  if __c1 == swift.RETURN then do return __r2 end end  --@ LibraryIndexer.swift:26
end  --@ LibraryIndexer.swift:32
function T.LibraryIndexer:handleReindex(task)  --@ LibraryIndexer.swift:34
  self.status = T.IndexStatus.running  --@ LibraryIndexer.swift:35
  local operation = swift.blockOperation(function()  --@ LibraryIndexer.swift:36
    local done = dispatch.semaphore(0)  --@ LibraryIndexer.swift:38
    swift.call(1, swift.opaque("PhotoSearchIndex"), "rebuild", "rebuild_batchSize", 500, function(error_)  --@ LibraryIndexer.swift:39
      do  --@ LibraryIndexer.swift:40
        local error__2 = error_  --@ LibraryIndexer.swift:40
        if error__2 ~= nil then  --@ LibraryIndexer.swift:40
          swift.print(swift.interp("Reindex failed: ", error__2))  --@ LibraryIndexer.swift:41
        end  --@ LibraryIndexer.swift:42
      end  --@ LibraryIndexer.swift:42
      done:signal()  --@ LibraryIndexer.swift:43
    end)  --@ LibraryIndexer.swift:44
    swift.semaphoreWait(done)  --@ LibraryIndexer.swift:45
  end)  --@ LibraryIndexer.swift:46
  task.expirationHandler = function()  --@ LibraryIndexer.swift:48
    return self.queue:cancelAllOperations()  --@ LibraryIndexer.swift:50
  end  --@ LibraryIndexer.swift:51
  operation.completionBlock = function()  --@ LibraryIndexer.swift:53
    local success = not operation.isCancelled  --@ LibraryIndexer.swift:54
    do local __o3 = self if __o3 ~= nil then __o3.status = T.IndexStatus.finished end end  --@ LibraryIndexer.swift:55
    task:setTaskCompleted(success)  --@ LibraryIndexer.swift:56
  end  --@ LibraryIndexer.swift:57
  self.queue:addOperation(operation)  --@ LibraryIndexer.swift:58
end  --@ LibraryIndexer.swift:59

app {
  backgroundModes = { "processing" },
  permittedIdentifiers = { "com.example.gallery.reindex" },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:4
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:12
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:12
      end,  --@ AppDelegate.swift:12
      didEnterBackground = function(app)  --@ AppDelegate.swift:21
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:21
      end,  --@ AppDelegate.swift:21
      willEnterForeground = function(app)  --@ AppDelegate.swift:25
        appDelegate:applicationWillEnterForeground(app)  --@ AppDelegate.swift:25
      end,  --@ AppDelegate.swift:25
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
  ["PhotoSearchIndex.rebuild"] = { },  -- LibraryIndexer.swift:39
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "PhotoSearchIndex.rebuild", "LibraryIndexer.swift:39", fails = true, closures = { [2] = { index = 2, params = 1, kinds = { "error" } } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
