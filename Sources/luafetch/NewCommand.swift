// `luafetch new FILE [--os PROFILE]`: writes a commented starter scenario (an app in the delegate
// form, a fake server, a timeline and expectations) that runs green under the profile, that
// explore finds nothing in (its expectations count what the person and the system did, so they
// hold for any schedule: PersonTests), and is luacheck-clean with `luafetch types`' settings: a
// background task everywhere, a refresh when the person opens the app on ios6, background fetch
// on ios7, BGTaskScheduler on ios13 and later, the scene life cycle on ios26. Refuses to overwrite
// a file.
import ArgumentParser
import LuaFetchCore
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a commented starter scenario that runs green.",
        discussion: """
        The scenario has an app that uploads a note inside a background task when the person leaves it and refreshes from a fake server (when the person opens it on ios6, by background fetch on ios7, BGTaskScheduler on ios13 and later, with scenes on ios26), a timeline and expectations that hold whatever the person and the system do (`luafetch explore` finds nothing). An existing file is never overwritten.

        Examples:
          luafetch new my_app.lua
          luafetch new legacy.lua --os ios7
        """
    )

    @Argument(help: "The file to write (.lua).")
    var file: String

    @Option(name: .customLong("os"), help: "The OS profile: ios6, ios7, ios13 or ios26.")
    var osProfile: String = "ios13"

    @Flag(help: "No colour (new prints none; accepted as by every command).")
    var noColor = false

    func validate() throws {
        guard OSProfile(rawValue: osProfile) != nil else {
            throw ValidationError("unknown --os '\(osProfile)': use ios6, ios7, ios13 or ios26")
        }
    }

    func run() throws {
        let os = OSProfile(rawValue: osProfile)!
        switch writeFile(file, Self.starter(name: file, os: os), existing: .keep) {
        case nil: break
        case .exists?:
            Output.error("luafetch new: \(file) already exists; choose another name (new never overwrites a file)\n")
            throw ExitCode(2)
        case let problem?:
            Output.error("luafetch new: cannot write \(file): \(problem.message)\n")
            throw ExitCode(2)
        }
        Output.line("wrote \(file) (profile \(os.rawValue)); run it with: luafetch run \(file)")
    }

    /// `text` as `-- ` comment lines of at most `width` characters (a longer word gets a line of its own).
    static func commentLines(_ text: String, width: Int) -> String {
        var out = "", line = "--"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line != "--" {
                out += line + "\n"
                line = "--"
            }
            line += " " + word
        }
        return out + line + "\n"
    }

    /// The starter scenario for `os`.
    static func starter(name: String, os: OSProfile) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        let modern = os == .ios13 || os == .ios26
        // iOS 6 has no background refresh: that app refreshes its feed when the person opens it.
        let refreshes = os == .ios6 ? "refreshes its feed from a fake server when the person opens it"
            : "refreshes its feed from a fake server in the background"
        let about = "\(base): a starter scenario (`luafetch new --os \(os.rawValue)`). Run it with `luafetch run \(name)`;"
            + " `luafetch explore \(name)` then looks for schedules that break it. The app uploads a note inside a"
            + " background task when the person leaves it, and \(refreshes). Change the app, the server and the"
            + " timeline to match yours; docs/SCENARIO.md lists the API and docs/RULES.md the rules."
        var out = commentLines(about, width: 100)
        out += """
        scenario {
          name = "My app",
          os = "\(os.rawValue)",
          duration = hours(6),
        }

        -- A fake server: latency in seconds; a route answers with a table or a function(request).
        local api = server "api.example.test" { latency = 0.3 }
        api:route("POST /notes", { status = 201 })
        api:route("GET /feed", function(request) return { status = 200, body = { items = 3 } } end)

        -- What the expectations check lives outside the app (the app's memory ends with its process): how
        -- many times the person left, and what became of each note the app uploaded and each refresh of
        -- the feed: "under way", then "done" or the error it failed with, or "cut" when a force quit ended
        -- the app first.
        local left, notes, refreshes = 0, {}, {}
        local function begun(list)          -- the app records what it begins
          local record = { status = "under way" }
          list[#list + 1] = record
          return record
        end
        notifications.observe(UIApplicationDidEnterBackgroundNotification, function() left = left + 1 end)
        notifications.observe(UIApplicationWillTerminateNotification, function()
          for _, list in ipairs({ notes, refreshes }) do
            for _, record in ipairs(list) do
              if record.status == "under way" then record.status = "cut" end
            end
          end
        end)

        """
        if os == .ios6 {
            out += """
            -- The feed is refreshed each time the app becomes active; the person may leave before the answer.
            local activations = 0
            notifications.observe(UIApplicationDidBecomeActiveNotification, function() activations = activations + 1 end)
            notifications.observe(UIApplicationDidEnterBackgroundNotification, function()
              for _, record in ipairs(refreshes) do
                if record.status == "under way" then record.status = "left" end
              end
            end)

            """
        }
        out += """

        app {

        """
        switch os {
        case .ios6: out += ""
        case .ios7: out += "  backgroundModes = { \"fetch\" },\n"
        case .ios13, .ios26:
            out += "  backgroundModes = { \"fetch\" },\n  permittedIdentifiers = { \"com.example.refresh\" },\n"
        }
        if os == .ios26 { out += "  scenes = true,   -- iOS 26 requires the UIScene life cycle\n" }
        out += """
          delegate = function(app)
            -- Called at every launch of the process: locals here are the process's memory.
            local function uploadNote()
              local note = begun(notes)
              local task
              local function done()           -- ends the task once, whoever comes first
                if task ~= UIBackgroundTaskInvalid then
                  app:endBackgroundTask(task)
                  task = UIBackgroundTaskInvalid
                end
              end
              task = app:beginBackgroundTask("upload", done)   -- out of time: give the task back
              http.request({ method = "POST", url = "https://api.example.test/notes", body = { text = "hi" } }, function(response, err)
                note.status = err or "done"
                done()                        -- every path ends the task
              end)
            end


        """
        if os == .ios6 {
            out += """
                local function refreshFeed()     -- iOS 6 has no background fetch: refresh in the foreground
                  local refresh = begun(refreshes)
                  http.get("https://api.example.test/feed", function(response, err)
                    refresh.status = err or "done"
                  end)
                end


            """
        }
        if modern {
            out += """
                local function scheduleRefresh()
                  local request = BGAppRefreshTaskRequest("com.example.refresh")
                  request.earliestBeginDate = now() + minutes(30)
                  BGTaskScheduler.submit(request)
                end

                local function handleRefresh(task)
                  scheduleRefresh()                -- first, so the chain goes on whatever happens
                  local refresh = begun(refreshes)
                  local finished = false
                  local function finish(ok)        -- completes the task once, whoever comes first
                    if not finished then finished = true; task:setTaskCompleted(ok) end
                  end
                  task.expirationHandler = function()
                    if refresh.status == "under way" then refresh.status = "expired" end
                    finish(false)
                  end
                  http.get("https://api.example.test/feed", function(response, err)
                    if refresh.status == "under way" then refresh.status = err or "done" end
                    finish(not err)
                  end)
                end


            """
        }
        out += "    return {\n"
        switch os {
        case .ios6:
            out += "      didBecomeActive = function(app)\n"
            out += "        refreshFeed()\n"
        case .ios7:
            out += "      didFinishLaunching = function(app, launch)\n"
            out += "        app:setMinimumBackgroundFetchInterval(UIApplicationBackgroundFetchIntervalMinimum)\n"
        case .ios13, .ios26:
            out += "      didFinishLaunching = function(app, launch)\n"
            out += "        BGTaskScheduler.register(\"com.example.refresh\", handleRefresh)   -- before launching ends\n"
        }
        out += "      end,\n"
        if os == .ios7 {
            out += """
                  performFetch = function(app, completionHandler)
                    local refresh = begun(refreshes)
                    http.get("https://api.example.test/feed", function(response, err)
                      refresh.status = err or "done"
                      if err then return completionHandler(UIBackgroundFetchResultFailed) end
                      completionHandler(UIBackgroundFetchResultNewData)
                    end)
                  end,

            """
        }
        // What the app does when the person leaves it, one statement a line at the body's depth.
        func onLeave(_ indent: String) -> String {
            (modern ? ["uploadNote()", "scheduleRefresh()"] : ["uploadNote()"]).map { indent + $0 + "\n" }.joined()
        }
        if os == .ios26 {
            out += "      scene = {\n"
            out += "        didEnterBackground = function(scene)   -- with scenes, the scene delegate hears it\n"
            out += onLeave("          ")
            out += "        end,\n"
            out += "      },\n"
        } else {
            out += "      didEnterBackground = function(app)\n"
            out += onLeave("        ")
            out += "      end,\n"
        }
        out += "    }\n"
        out += "  end,\n"
        out += "}\n"
        out += """

        -- The timeline: what the person and the system do, in virtual time.
        at(0, user.launch)
        at(minutes(5), user.home)
        at(hours(3), user.open)
        at(hours(3) + minutes(2), user.home)

        -- How many records of the list have that status.
        local function count(list, status)
          local n = 0
          for _, record in ipairs(list) do
            if record.status == status then n = n + 1 end
          end
          return n
        end

        expect.noViolations()
        expect.that("every note the person left with was uploaded, or failed and the app knows, or a force quit cut it short", function()
          return #notes == left and count(notes, "under way") == 0
        end)
        expect.that("an upload failed only for want of a network, never cut off by a suspension", function()
          return count(notes, "done") + count(notes, "notConnected") + count(notes, "cut") == #notes
        end)

        """
        if os == .ios6 {
            out += """
            expect.that("each time the app became active it refreshed the feed, unless the person left before the answer", function()
              return #refreshes == activations and count(refreshes, "under way") == 0
            end)

            """
        } else {
            let ended = modern ? " + count(refreshes, \"expired\")" : ""
            out += """
            expect.that("every background refresh got the feed, unless the network was down or it was cut short", function()
              local n = count(refreshes, "done") + count(refreshes, "notConnected") + count(refreshes, "cut")\(ended)
              return n == #refreshes
            end)

            """
        }
        return out
    }
}
