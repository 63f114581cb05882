-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/launch_store_tries/fixed` (luafetch 0.1.0) from 1 Swift file and Info.plist:
--   AppDelegate.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/launch_store_tries/fixed
scenario { name = "Journal", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window", "uploadTask" })  --@ AppDelegate.swift:3
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:3
  self.uploadTask = UIBackgroundTaskInvalid  --@ AppDelegate.swift:7
end)  --@ AppDelegate.swift:3
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:9
  self:openJournal()  --@ AppDelegate.swift:11
  do return true end  --@ AppDelegate.swift:12
end  --@ AppDelegate.swift:13
function T.AppDelegate:openJournal()  --@ AppDelegate.swift:17
  local __c1, __r2 = swift.doCatch(function()  --@ AppDelegate.swift:18
    local folder = swift.call(1, swift.opaque("JournalFiles"), "containerFolder", nil)  --@ AppDelegate.swift:19
    swift.call(2, swift.opaque("JournalFiles"), "createIfNeeded", nil, folder)  --@ AppDelegate.swift:20
    local database = swift.call(3, swift.opaque("JournalDatabase"), "open", nil, folder)  --@ AppDelegate.swift:21
    swift.call(4, database, "migrate", nil)  --@ AppDelegate.swift:22
    swift.call(5, database, "attachMedia", nil)  --@ AppDelegate.swift:23
    swift.call(6, database, "vacuumIfNeeded", nil)  --@ AppDelegate.swift:24
    swift.setMember(swift.opaque("Journal"), "database", database)  --@ AppDelegate.swift:25
  end, function(__e)  --@ AppDelegate.swift:26
    do  --@ AppDelegate.swift:26
      local error_ = __e  --@ AppDelegate.swift:26
      swift.print(swift.interp("Could not open the journal, using a scratch store: ", error_))  --@ AppDelegate.swift:27
      swift.call(7, swift.opaque("Journal"), "useScratchStore", nil)  --@ AppDelegate.swift:28
      do return nil end  --@ AppDelegate.swift:29
    end  --@ AppDelegate.swift:29
  end)  --@ AppDelegate.swift:29
  if __c1 == swift.RETURN then do return __r2 end end  --@ AppDelegate.swift:18
end  --@ AppDelegate.swift:30
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:32
  if swift.ne(self.uploadTask, UIBackgroundTaskInvalid) then  --@ AppDelegate.swift:33
    do return end  --@ AppDelegate.swift:33
  end  --@ AppDelegate.swift:33
  self.uploadTask = application:beginBackgroundTask("outbox", function()  --@ AppDelegate.swift:34
    swift.print("The outbox upload ran out of time")  --@ AppDelegate.swift:35
    self:endUploadTask()  --@ AppDelegate.swift:36
  end)  --@ AppDelegate.swift:37
  swift.call(8, swift.opaque("OutboxUploader"), "uploadPending", nil, function(sent)  --@ AppDelegate.swift:38
    swift.print(swift.interp("Sent ", sent, " entries"))  --@ AppDelegate.swift:39
    self:endUploadTask()  --@ AppDelegate.swift:40
  end)  --@ AppDelegate.swift:41
end  --@ AppDelegate.swift:42
function T.AppDelegate:endUploadTask()  --@ AppDelegate.swift:44
  if swift.eq(self.uploadTask, UIBackgroundTaskInvalid) then  --@ AppDelegate.swift:45
    do return end  --@ AppDelegate.swift:45
  end  --@ AppDelegate.swift:45
  swift.app:endBackgroundTask(self.uploadTask)  --@ AppDelegate.swift:46
  self.uploadTask = UIBackgroundTaskInvalid  --@ AppDelegate.swift:47
end  --@ AppDelegate.swift:48

app {
  backgroundModes = { "fetch" },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:9
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:9
      end,  --@ AppDelegate.swift:9
      didEnterBackground = function(app)  --@ AppDelegate.swift:32
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:32
      end,  --@ AppDelegate.swift:32
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
  ["JournalFiles.containerFolder"] = { },  -- AppDelegate.swift:19
  ["JournalFiles.createIfNeeded"] = { },  -- AppDelegate.swift:20
  ["JournalDatabase.open"] = { },  -- AppDelegate.swift:21
  ["JournalDatabase.open.migrate"] = { },  -- AppDelegate.swift:22
  ["JournalDatabase.open.attachMedia"] = { },  -- AppDelegate.swift:23
  ["JournalDatabase.open.vacuumIfNeeded"] = { },  -- AppDelegate.swift:24
  ["Journal.useScratchStore"] = { },  -- AppDelegate.swift:28
  ["OutboxUploader.uploadPending"] = { },  -- AppDelegate.swift:38
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "JournalFiles.containerFolder", "AppDelegate.swift:19", throws = true, fails = true },
  { "JournalFiles.createIfNeeded", "AppDelegate.swift:20", throws = true, fails = true },
  { "JournalDatabase.open", "AppDelegate.swift:21", throws = true, fails = true },
  { "JournalDatabase.open.migrate", "AppDelegate.swift:22", throws = true, fails = true },
  { "JournalDatabase.open.attachMedia", "AppDelegate.swift:23", throws = true, fails = true },
  { "JournalDatabase.open.vacuumIfNeeded", "AppDelegate.swift:24", throws = true, fails = true },
  { "Journal.useScratchStore", "AppDelegate.swift:28" },
  { "OutboxUploader.uploadPending", "AppDelegate.swift:38", closures = { [1] = { index = 1, params = 1 } } },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(2), system.backgroundFetch)

expect.noViolations()
