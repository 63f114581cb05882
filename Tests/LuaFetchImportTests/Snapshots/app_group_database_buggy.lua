-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/app_group_database/buggy` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   JournalDatabase.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/app_group_database/buggy
scenario { name = "Daybook", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window", "sessionStartedAt" })  --@ AppDelegate.swift:4
T.JournalEntry = swift.type("JournalEntry", "struct")  --@ JournalDatabase.swift:4
T.DraftInbox = swift.type("DraftInbox", "class")  --@ JournalDatabase.swift:11
T.JournalDatabase = swift.type("JournalDatabase", "class")  --@ JournalDatabase.swift:28
swift.fields(T.AppDelegate, function(self)  --@ AppDelegate.swift:4
  self.sessionStartedAt = 0  --@ AppDelegate.swift:9
end)  --@ AppDelegate.swift:4
function T.AppDelegate:application(application, launchOptions)  --@ AppDelegate.swift:11
  T.JournalDatabase.shared:open()  --@ AppDelegate.swift:13
  do return true end  --@ AppDelegate.swift:14
end  --@ AppDelegate.swift:15
function T.AppDelegate:applicationDidBecomeActive(application)  --@ AppDelegate.swift:17
  self.sessionStartedAt = (swift.now() + 1379462400)  --@ AppDelegate.swift:18
end  --@ AppDelegate.swift:19
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:21
  local duration = ((swift.now() + 1379462400)) - self.sessionStartedAt  --@ AppDelegate.swift:22
  local drafts = T.DraftInbox.shared:takeAll()  --@ AppDelegate.swift:23
  T.JournalDatabase.shared:saveSession(duration, swift.copy(drafts), function(error_)  --@ AppDelegate.swift:24
    do  --@ AppDelegate.swift:25
      local error__2 = error_  --@ AppDelegate.swift:25
      if error__2 ~= nil then  --@ AppDelegate.swift:25
        do return swift.print(swift.interp("Saving the session failed: ", error__2)) end  --@ AppDelegate.swift:26
      else  --@ AppDelegate.swift:27
        do return swift.call(1, swift.opaque("WidgetCenter"), "reloadAllTimelines", nil) end  --@ AppDelegate.swift:28
      end  --@ AppDelegate.swift:29
    end  --@ AppDelegate.swift:29
  end)  --@ AppDelegate.swift:30
end  --@ AppDelegate.swift:31
function T.AppDelegate:applicationWillTerminate(application)  --@ AppDelegate.swift:33
  T.JournalDatabase.shared:interruptWrites()  --@ AppDelegate.swift:34
end  --@ AppDelegate.swift:35
swift.fields(T.DraftInbox, function(self)  --@ JournalDatabase.swift:11
  self.entries = swift.array({  })  --@ JournalDatabase.swift:13
end)  --@ JournalDatabase.swift:11
swift.static(T.DraftInbox, "shared", function() return swift.new(T.DraftInbox, "init") end)  --@ JournalDatabase.swift:12
function T.DraftInbox:takeAll()  --@ JournalDatabase.swift:20
  local taken = swift.copy(self.entries)  --@ JournalDatabase.swift:21
  swift.call(0, self.entries, "removeAll", nil)  --@ JournalDatabase.swift:22
  do return taken end  --@ JournalDatabase.swift:23
end  --@ JournalDatabase.swift:24
swift.fields(T.JournalDatabase, function(self)  --@ JournalDatabase.swift:28
  self.writeQueue = dispatch.queue("com.example.journal.db-writes")  --@ JournalDatabase.swift:33
end)  --@ JournalDatabase.swift:28
swift.static(T.JournalDatabase, "shared", function() return swift.new(T.JournalDatabase, "init") end)  --@ JournalDatabase.swift:29
swift.static(T.JournalDatabase, "appGroup", function() return "group.com.example.journal" end)  --@ JournalDatabase.swift:30
function T.JournalDatabase:init()  --@ JournalDatabase.swift:35
end  --@ JournalDatabase.swift:35
function T.JournalDatabase:open()  --@ JournalDatabase.swift:37
  local container = swift.unwrap(swift.appGroupURL(T.JournalDatabase.appGroup))  --@ JournalDatabase.swift:38
  local path = swift.get(0, swift.call(0, container, "appendingPathComponent", nil, "journal.sqlite"), "path")  --@ JournalDatabase.swift:39
  local __c1, __r2 = swift.doCatch(function()  --@ JournalDatabase.swift:40
    self.dbQueue = swift.stubCall(2, nil, path)  --@ JournalDatabase.swift:41
    swift.print("Journal database open")  --@ JournalDatabase.swift:42
  end, function(__e)  --@ JournalDatabase.swift:43
    do  --@ JournalDatabase.swift:43
      local error_ = __e  --@ JournalDatabase.swift:43
      swift.print(swift.interp("Could not open the journal database: ", error_))  --@ JournalDatabase.swift:44
      do return nil end  --@ JournalDatabase.swift:45
    end  --@ JournalDatabase.swift:45
  end)  --@ JournalDatabase.swift:45
  if __c1 == swift.RETURN then do return __r2 end end  --@ JournalDatabase.swift:40
end  --@ JournalDatabase.swift:46
function T.JournalDatabase:saveSession(duration, drafts, completion)  --@ JournalDatabase.swift:49
  swift.qAsync(self.writeQueue, function()  --@ JournalDatabase.swift:50
    local __c3, __r4 = swift.doCatch(function()  --@ JournalDatabase.swift:51
      swift.optCall(5, self.dbQueue, "write", nil, function(db)  --@ JournalDatabase.swift:52
        for _, entry in swift.iter(drafts) do  --@ JournalDatabase.swift:53
          swift.call(3, entry, "insert", nil, db)  --@ JournalDatabase.swift:54
        end  --@ JournalDatabase.swift:55
        swift.call(4, db, "execute", "execute_sql", "UPDATE stats SET lastSessionSeconds = ?", swift.array({ duration }))  --@ JournalDatabase.swift:56
      end)  --@ JournalDatabase.swift:57
      dispatch.main(function()  --@ JournalDatabase.swift:58
        return completion(nil)  --@ JournalDatabase.swift:58
      end)  --@ JournalDatabase.swift:58
    end, function(__e)  --@ JournalDatabase.swift:59
      do  --@ JournalDatabase.swift:59
        local error_ = __e  --@ JournalDatabase.swift:59
        dispatch.main(function()  --@ JournalDatabase.swift:60
          return completion(error_)  --@ JournalDatabase.swift:60
        end)  --@ JournalDatabase.swift:60
        do return nil end  --@ JournalDatabase.swift:61
      end  --@ JournalDatabase.swift:61
    end)  --@ JournalDatabase.swift:61
    if __c3 == swift.RETURN then do return __r4 end end  --@ JournalDatabase.swift:51
  end)  --@ JournalDatabase.swift:62
end  --@ JournalDatabase.swift:63
function T.JournalDatabase:interruptWrites()  --@ JournalDatabase.swift:66
  swift.optCall(6, self.dbQueue, "interrupt", nil)  --@ JournalDatabase.swift:67
end  --@ JournalDatabase.swift:68

app {
  backgroundModes = {  },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:4
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:11
        appDelegate:application(app, swift.launchOptions(launch))  --@ AppDelegate.swift:11
      end,  --@ AppDelegate.swift:11
      didBecomeActive = function(app)  --@ AppDelegate.swift:17
        appDelegate:applicationDidBecomeActive(app)  --@ AppDelegate.swift:17
      end,  --@ AppDelegate.swift:17
      didEnterBackground = function(app)  --@ AppDelegate.swift:21
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:21
      end,  --@ AppDelegate.swift:21
      willTerminate = function(app)  --@ AppDelegate.swift:33
        appDelegate:applicationWillTerminate(app)  --@ AppDelegate.swift:33
      end,  --@ AppDelegate.swift:33
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
  ["WidgetCenter.reloadAllTimelines"] = { },  -- AppDelegate.swift:28
  ["DatabaseQueue.init"] = { },  -- JournalDatabase.swift:41
  ["JournalEntry.insert"] = { lock = "ifSharedContainer" },  -- JournalDatabase.swift:54
  ["db.execute"] = { },  -- JournalDatabase.swift:56
  ["DatabaseQueue.write"] = { lock = "ifSharedContainer" },  -- JournalDatabase.swift:52
  ["DatabaseQueue.interrupt"] = { },  -- JournalDatabase.swift:67
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "WidgetCenter.reloadAllTimelines", "AppDelegate.swift:28" },
  { "DatabaseQueue.init", "JournalDatabase.swift:41", throws = true, fails = true },
  { "JournalEntry.insert", "JournalDatabase.swift:54", throws = true, fails = true },
  { "db.execute", "JournalDatabase.swift:56", throws = true, fails = true },
  { "DatabaseQueue.write", "JournalDatabase.swift:52", throws = true, fails = true, sync = true, closures = { [1] = { index = 1, params = 1 } } },
  { "DatabaseQueue.interrupt", "JournalDatabase.swift:67" },
}

-- The world: the fake servers, what the person and the system do (edit freely).
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
