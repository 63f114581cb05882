-- luacheck: no max line length, no unused
-- Written by `luafetch import Tests/LuaFetchImportTests/Fixtures/background_url_session/buggy` (luafetch 0.1.0) from 2 Swift files and Info.plist:
--   AppDelegate.swift
--   EpisodeDownloader.swift
-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.
-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.
--@root Tests/LuaFetchImportTests/Fixtures/background_url_session/buggy
scenario { name = "Daily Pod", os = "ios13", seed = 1, duration = days(1) }

local T = {}  -- the app's types and functions
T.AppDelegate = swift.type("AppDelegate", "class")  --@ AppDelegate.swift:3
swift.opaqueBase(T.AppDelegate, { "window", "backgroundSessionCompletionHandler" })  --@ AppDelegate.swift:3
T.EpisodeDownloader = swift.type("EpisodeDownloader", "class")  --@ EpisodeDownloader.swift:4
swift.opaqueBase(T.EpisodeDownloader, { "backgroundEventsCompletion", "session", "latestEpisodeURL" })  --@ EpisodeDownloader.swift:4
function T.AppDelegate:application_didFinishLaunchingWithOptions(application, launchOptions)  --@ AppDelegate.swift:11
  T.EpisodeDownloader.shared:activate()  --@ AppDelegate.swift:14
  do return true end  --@ AppDelegate.swift:15
end  --@ AppDelegate.swift:16
function T.AppDelegate:applicationDidEnterBackground(application)  --@ AppDelegate.swift:18
  T.EpisodeDownloader.shared:downloadLatestEpisode()  --@ AppDelegate.swift:20
end  --@ AppDelegate.swift:21
function T.AppDelegate:application_handleEventsForBackgroundURLSession(application, identifier, completionHandler)  --@ AppDelegate.swift:23
  if identifier ~= T.EpisodeDownloader.sessionIdentifier then  --@ AppDelegate.swift:26
    completionHandler()  --@ AppDelegate.swift:27
    do return end  --@ AppDelegate.swift:28
  end  --@ AppDelegate.swift:29
  swift.print(swift.interp("Woken for finished downloads in ", identifier))  --@ AppDelegate.swift:30
  self.backgroundSessionCompletionHandler = completionHandler  --@ AppDelegate.swift:31
  T.EpisodeDownloader.shared:activate()  --@ AppDelegate.swift:32
end  --@ AppDelegate.swift:33
swift.fields(T.EpisodeDownloader, function(self)  --@ EpisodeDownloader.swift:4
  self.latestEpisodeURL = "https://media.example-podcasts.com/feeds/daily/latest.mp3"  --@ EpisodeDownloader.swift:12
end)  --@ EpisodeDownloader.swift:4
swift.static(T.EpisodeDownloader, "shared", function() return swift.new(T.EpisodeDownloader, "init") end)  --@ EpisodeDownloader.swift:5
swift.static(T.EpisodeDownloader, "sessionIdentifier", function() return "com.example.podcasts.episode-downloads" end)  --@ EpisodeDownloader.swift:6
function T.EpisodeDownloader:activate()  --@ EpisodeDownloader.swift:14
  if self.session ~= nil then  --@ EpisodeDownloader.swift:15
    do return end  --@ EpisodeDownloader.swift:15
  end  --@ EpisodeDownloader.swift:15
  local configuration = swift.backgroundConfiguration(T.EpisodeDownloader.sessionIdentifier)  --@ EpisodeDownloader.swift:16
  configuration.sessionSendsLaunchEvents = true  --@ EpisodeDownloader.swift:17
  configuration.isDiscretionary = false  --@ EpisodeDownloader.swift:18
  self.session = swift.urlSession(configuration, self, { didFinishDownloading = "urlSession_downloadTask", didComplete = "urlSession_task", didFinishEvents = "urlSessionDidFinishEvents" })  --@ EpisodeDownloader.swift:19
end  --@ EpisodeDownloader.swift:20
function T.EpisodeDownloader:downloadLatestEpisode()  --@ EpisodeDownloader.swift:22
  self:activate()  --@ EpisodeDownloader.swift:23
  local __ok1 = false  --@ EpisodeDownloader.swift:24
  local url  --@ EpisodeDownloader.swift:24
  url = self.latestEpisodeURL  --@ EpisodeDownloader.swift:24
  if url ~= nil then  --@ EpisodeDownloader.swift:24
    __ok1 = true  --@ EpisodeDownloader.swift:24
  end  --@ EpisodeDownloader.swift:24
  if not __ok1 then  --@ EpisodeDownloader.swift:24
    do return end  --@ EpisodeDownloader.swift:24
  end  --@ EpisodeDownloader.swift:24
  local task = swift.optApply(self.session, function(__r) return swift.downloadTask(__r, url) end)  --@ EpisodeDownloader.swift:25
  swift.optApply(task, function(__r) return __r:resume() end)  --@ EpisodeDownloader.swift:26
  swift.print("Queued a download of the latest episode")  --@ EpisodeDownloader.swift:27
end  --@ EpisodeDownloader.swift:28
function T.EpisodeDownloader:urlSession_downloadTask(session, downloadTask, location)  --@ EpisodeDownloader.swift:32
  swift.call(1, swift.opaque("EpisodeLibrary"), "importDownloadedFile", "importDownloadedFile_at", location)  --@ EpisodeDownloader.swift:34
  swift.defaultsSet("episodes.lastDownload", (swift.now() + 1379462400))  --@ EpisodeDownloader.swift:35
end  --@ EpisodeDownloader.swift:36
function T.EpisodeDownloader:urlSession_task(session, task, error_)  --@ EpisodeDownloader.swift:38
  do  --@ EpisodeDownloader.swift:39
    local error__2 = error_  --@ EpisodeDownloader.swift:39
    if error__2 ~= nil then  --@ EpisodeDownloader.swift:39
      swift.print(swift.interp("Episode download failed: ", swift.errorDescription(error__2)))  --@ EpisodeDownloader.swift:40
    else  --@ EpisodeDownloader.swift:41
      swift.print("Episode download complete")  --@ EpisodeDownloader.swift:42
    end  --@ EpisodeDownloader.swift:43
  end  --@ EpisodeDownloader.swift:43
end  --@ EpisodeDownloader.swift:44
function T.EpisodeDownloader:urlSessionDidFinishEvents(session)  --@ EpisodeDownloader.swift:46
  dispatch.main(function()  --@ EpisodeDownloader.swift:48
    local completion = self.backgroundEventsCompletion  --@ EpisodeDownloader.swift:49
    self.backgroundEventsCompletion = nil  --@ EpisodeDownloader.swift:50
    swift.callOpt(completion)  --@ EpisodeDownloader.swift:51
  end)  --@ EpisodeDownloader.swift:52
end  --@ EpisodeDownloader.swift:53

app {
  backgroundModes = {  },
  delegate = function(app)  --@ AppDelegate.swift:3
    local appDelegate = swift.launch(app, T.AppDelegate, true)  --@ AppDelegate.swift:3
    return {
      didFinishLaunching = function(app, launch)  --@ AppDelegate.swift:11
        appDelegate:application_didFinishLaunchingWithOptions(app, swift.launchOptions(launch))  --@ AppDelegate.swift:11
      end,  --@ AppDelegate.swift:11
      didEnterBackground = function(app)  --@ AppDelegate.swift:18
        appDelegate:applicationDidEnterBackground(app)  --@ AppDelegate.swift:18
      end,  --@ AppDelegate.swift:18
      handleEventsForBackgroundURLSession = function(app, identifier, completionHandler)  --@ AppDelegate.swift:23
        appDelegate:application_handleEventsForBackgroundURLSession(app, identifier, completionHandler)  --@ AppDelegate.swift:23
      end,  --@ AppDelegate.swift:23
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
  ["EpisodeLibrary.importDownloadedFile"] = { },  -- EpisodeDownloader.swift:34
}
-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit).
swift.sites {
  { "EpisodeLibrary.importDownloadedFile", "EpisodeDownloader.swift:34" },
}

-- The world: the fake servers, what the person and the system do (edit freely).
server "media.example-podcasts.com" { latency = 0.3 }:route("*", { status = 200, body = {} })
at(0, user.launch)
at(60, user.home)
at(3660, user.open)
at(3720, user.home)

expect.noViolations()
