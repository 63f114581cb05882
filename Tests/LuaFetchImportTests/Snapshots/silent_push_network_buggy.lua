-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/silent_push_network/buggy` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   InboxSyncService.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),
-- so `guard let self` always succeeds.
--@root Tests/LuaFetchImportTests/Fixtures/silent_push_network/buggy
scenario { name = "Postbox", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:4
swift.opaqueBase(T.AppDelegate, { "window" })  --@ AppDelegate.swift:4
T.SyncReason = swift.type("SyncReason", "enum")  --@ InboxSyncService.swift:3
T.InboxSyncService = swift.type("InboxSyncService", "class")  --@ InboxSyncService.swift:10
function T.AppDelegate:application_didFinishLaunchingWithOptions(application, launchOptions)  --@ AppDelegate.swift:9
  swift.call(2, swift.call(1, swift.opaque("UNUserNotificationCenter"), "current", nil), "requestAuthorization", "requestAuthorization_options", swift.array({ swift.case("alert"), swift.case("badge") }), function(granted, _)  --@ AppDelegate.swift:11
    return swift.print(swift.interp("Notification permission granted: ", granted))  --@ AppDelegate.swift:12
  end)  --@ AppDelegate.swift:13
  T.InboxSyncService.shared:sync(T.SyncReason.launch, function(_)  --@ AppDelegate.swift:15
    return swift.print("Launch sync done")  --@ AppDelegate.swift:16
  end)  --@ AppDelegate.swift:17
  do return true end  --@ AppDelegate.swift:18
end  --@ AppDelegate.swift:19
function T.AppDelegate:application_didReceiveRemoteNotification(application, userInfo, completionHandler)  --@ AppDelegate.swift:32
  local state = (function() if swift.eq(swift.appState(), swift.case("active")) then return "foreground" end return "background" end)()  --@ AppDelegate.swift:35
  swift.print(swift.interp("Silent push received in the ", state))  --@ AppDelegate.swift:36
  T.InboxSyncService.shared:sync(T.SyncReason.silentPush, completionHandler)  --@ AppDelegate.swift:37
end  --@ AppDelegate.swift:38
function T.AppDelegate:applicationWillEnterForeground(application)  --@ AppDelegate.swift:40
  T.InboxSyncService.shared:sync(T.SyncReason.foreground, function(_) end)  --@ AppDelegate.swift:41
end  --@ AppDelegate.swift:42
swift.enum(T.SyncReason, { { "launch", "launch" }, { "foreground", "foreground" }, { "silentPush", "silent-push" } })  --@ InboxSyncService.swift:3
swift.fields(T.InboxSyncService, function(self)  --@ InboxSyncService.swift:10
  self.api = swift.stubCall(3, nil, "https://api.example-mail.com", 20)  --@ InboxSyncService.swift:13
  self.defaults = swift.userDefaults  --@ InboxSyncService.swift:14
  self.syncCount = 0  --@ InboxSyncService.swift:15
end)  --@ InboxSyncService.swift:10
swift.static(T.InboxSyncService, "shared", function() return swift.new(T.InboxSyncService, "init") end)  --@ InboxSyncService.swift:11
function T.InboxSyncService:init()  --@ InboxSyncService.swift:17
end  --@ InboxSyncService.swift:17
function T.InboxSyncService:sync(reason, completion)  --@ InboxSyncService.swift:27
  self.syncCount = swift.add(self.syncCount, 1)  --@ InboxSyncService.swift:28
  local cursor = swift.coalesce(swift.defaultsGet("inbox.cursor", "string"), function() return "" end)  --@ InboxSyncService.swift:29
  swift.print(swift.interp("Inbox sync #", self.syncCount, " (", reason.rawValue, ") from cursor '", cursor, "'"))  --@ InboxSyncService.swift:30
  swift.call(6, self.api, "fetchChanges", "fetchChanges_since", cursor, function(changes)  --@ InboxSyncService.swift:31
    swift.optCall(0, self, "apply", nil, changes)  --@ InboxSyncService.swift:32
    completion((function() if swift.get(5, swift.get(4, changes, "messages"), "isEmpty") then return swift.case("noData") end return swift.case("newData") end)())  --@ InboxSyncService.swift:33
  end, function(error_)  --@ InboxSyncService.swift:34
    return swift.print(swift.interp("Inbox sync (", reason.rawValue, ") failed: ", error_))  --@ InboxSyncService.swift:35
  end)  --@ InboxSyncService.swift:36
end  --@ InboxSyncService.swift:37
function T.InboxSyncService:apply(changes)  --@ InboxSyncService.swift:39
  swift.call(8, swift.opaque("MessageStore"), "insert", nil, swift.get(7, changes, "messages"))  --@ InboxSyncService.swift:40
  swift.call(10, swift.opaque("MessageStore"), "delete", nil, swift.get(9, changes, "deletedIDs"))  --@ InboxSyncService.swift:41
  swift.defaultsSet("inbox.lastSync", (swift.now() + 1379462400))  --@ InboxSyncService.swift:42
end  --@ InboxSyncService.swift:43

app {
  backgroundModes = { "remote-notification" },
  delegate = function(app)  --@ AppDelegate.swift:4
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:4
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:9
        appDelegate:application_didFinishLaunchingWithOptions(app, swift.launchOptions(launch))  --@ AppDelegate.swift:9
      end,  --@ AppDelegate.swift:9
      willEnterForeground = function(app)  --@ AppDelegate.swift:40
        appDelegate:applicationWillEnterForeground(app)  --@ AppDelegate.swift:40
      end,  --@ AppDelegate.swift:40
      didReceiveRemoteNotification = function(app, userInfo, completionHandler)  --@ AppDelegate.swift:32
        appDelegate:application_didReceiveRemoteNotification(app, swift.dict(userInfo), swift.completion(completionHandler))  --@ AppDelegate.swift:32
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
  ["UNUserNotificationCenter.current"] = { },  -- AppDelegate.swift:11
  ["UNUserNotificationCenter.current.requestAuthorization"] = { },  -- AppDelegate.swift:11
  ["MailAPIClient.init"] = { },  -- InboxSyncService.swift:13
  ["changes.messages"] = { },  -- InboxSyncService.swift:33
  ["changes.messages.isEmpty"] = { },  -- InboxSyncService.swift:33
  ["MailAPIClient.fetchChanges"] = { },  -- InboxSyncService.swift:31
  ["MailChanges.messages"] = { },  -- InboxSyncService.swift:40
  ["MessageStore.insert"] = { },  -- InboxSyncService.swift:40
  ["MailChanges.deletedIDs"] = { },  -- InboxSyncService.swift:41
  ["MessageStore.delete"] = { },  -- InboxSyncService.swift:41
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "UNUserNotificationCenter.current", "AppDelegate.swift:11" },
  { "UNUserNotificationCenter.current.requestAuthorization", "AppDelegate.swift:11", closures = { [2] = { index = 2, params = 2 } } },
  { "MailAPIClient.init", "InboxSyncService.swift:13" },
  { "changes.messages", "InboxSyncService.swift:33" },
  { "changes.messages.isEmpty", "InboxSyncService.swift:33", bool = true },
  { "MailAPIClient.fetchChanges", "InboxSyncService.swift:31", fails = true, hasFailureClosure = true, closures = { [2] = { index = 2, params = 1 }, [3] = { index = 3, params = 1, kinds = { "error" }, failure = true } } },
  { "MailChanges.messages", "InboxSyncService.swift:40" },
  { "MessageStore.insert", "InboxSyncService.swift:40" },
  { "MailChanges.deletedIDs", "InboxSyncService.swift:41" },
  { "MessageStore.delete", "InboxSyncService.swift:41" },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "api.example-mail.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)
at(hours(3), function() system.remoteNotification({}, { contentAvailable = true }) end)

expect.noViolations()
