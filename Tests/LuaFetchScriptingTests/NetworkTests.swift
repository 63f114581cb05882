// SPEC 4.5 and 7: fake servers, routes, response lists, outages, unmatched requests, unknown
// hosts, timeouts, latency and failures from the seeded stream, and the suspension rule.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

/// An app that sends `request` at launch (and on demand via `send()`), printing each outcome.
func requestingApp(_ request: String = "http.get('https://api.test/items', show)") -> String {
    """
    local function show(response, err)
      if err then print("err " .. err .. " " .. now()) else print("status " .. response.status .. " " .. now()) end
    end
    app { didFinishLaunching = function(app) \(request); return true end }

    """
}

@Suite struct NetworkTests {
    @Test func aResponseArrivesAfterTheRoundTrip() {
        let s = simulate("local api = server 'api.test' { latency = 0.4 }\napi:route('GET /items', { status = 200, body = { n = 1 } })\n" + requestingApp() + "at(0, user.launch)")
        #expect(s.printed == ["status 200 0.4"])
    }

    @Test func handlersSeeTheRequestAndBodiesAreCopied() {
        let s = simulate("""
            local api = server "api.test"
            local shared = { list = { 1, 2 } }
            api:route("POST /items", function(request)
              print(request.method, request.path, request.query.page, request.body.name, request.headers["X-Id"])
              request.body.name = "changed by server"
              return { status = 201, body = shared }
            end)
            local sent = { name = "draft" }
            app { didFinishLaunching = function(app)
                    http.request({ method = "post", url = "https://api.test/items?page=2", headers = { ["X-Id"] = "7" }, body = sent },
                      function(response)
                        response.body.list[1] = 99
                        print(response.status, sent.name, shared.list[1], response.headers ~= nil)
                      end)
                    return true end }
            at(0, user.launch)
            """)
        #expect(s.printed == ["POST\t/items\t2\tdraft\t7", "201\tdraft\t1\ttrue"])
    }

    /// `print` names who runs: the server's host inside its handler, the app, the world around
    /// them (the server's context is put back after its handler, also when a handler runs inside
    /// the app's call).
    @Test func printNamesTheServerWhoseHandlerRuns() {
        let s = simulate("""
            local api = server "api.test"
            api:route("GET /items", function(request) print("serving") return { status = 200 } end)
            local other = server "other.test"
            other:route("GET /x", function(request) print("other") return { status = 200 } end)
            app { didFinishLaunching = function(app)
                    http.get("https://api.test/items", function(response) print("got " .. response.status) end)
                    http.get("https://other.test/x", function() end)
                    print("launched")
                    return true end }
            at(0, user.launch)
            at(5, function() print("world") end)
            """)
        let logs = s.world.timeline.filter { $0.kind == .log }.map { "\($0.actor) \($0.message)" }
        #expect(logs == ["app launched", "api.test serving", "app got 200", "other.test other", "world world"])
    }

    @Test func aResponseListIsServedInOrderAndTheLastRepeats() {
        let s = simulate("""
            local api = server "api.test"
            api:route("GET /items", { { status = 503 }, { status = 500 }, { status = 200 } })
            local function show(r) print(r.status) end
            app { didFinishLaunching = function(app)
                    for i = 1, 5 do after(i, function() http.get("https://api.test/items", show) end) end
                    return true end }
            at(0, user.launch)
            """)
        #expect(s.printed == ["503", "500", "200", "200", "200"])
    }

    @Test func anOutageFailsRequestsWithNotConnected() {
        let s = simulate("local api = server 'api.test'\napi:route('GET /items', { status = 200 })\napi:down(0, 10)\n" + requestingApp() + "at(0, user.launch)")
        #expect(s.printed == ["err notConnected 0"])
    }

    @Test func anUnmatchedRouteIs404WithAWarningNamingTheClosestRoute() {
        let s = simulate("local api = server 'api.test'\napi:route('GET /item', { status = 200 })\n" + requestingApp() + "at(0, user.launch)")
        #expect(s.printed == ["status 404 0"])
        #expect(s.codes == ["unmatched-request"])
        #expect(s.world.violations[0].message.contains("did you mean GET /item?"))
    }

    @Test func anUnknownHostIsCannotFindHost() {
        let s = simulate("server 'api.test'\n" + requestingApp("http.get('https://apx.test/items', show)") + "at(0, user.launch)")
        #expect(s.printed == ["err cannotFindHost 0"])
        #expect(s.codes == ["unmatched-request"])
        #expect(s.world.violations[0].message.contains("did you mean api.test?"))
    }

    @Test func aSlowServerTimesOut() {
        let s = simulate("local api = server 'api.test' { latency = 20 }\napi:route('GET /items', { status = 200 })\n"
                         + requestingApp("http.request({ url = 'https://api.test/items', timeout = 5 }, show)") + "at(0, user.launch)")
        #expect(s.printed == ["err timeout 5"])
    }

    @Test func failuresAndJitterFollowTheNetworkStream() {
        let src = "local api = server 'api.test' { latency = 1, jitter = 0.5, failureRate = 0.3 }\napi:route('GET /items', { status = 200 })\n"
            + requestingApp("for i = 1, 20 do after(i * 10, function() http.get('https://api.test/items', show) end) end") + "at(0, user.launch)"
        let a = simulate(src), b = simulate(src), c = simulate(src, options: RunOptions(seed: 2))
        #expect(a.printed == b.printed)
        #expect(a.printed != c.printed)
        #expect(a.printed.contains { $0.hasPrefix("err connectionLost") })
        let delays = a.printed.filter { $0.hasPrefix("status") }.map { Double($0.split(separator: " ")[2])!.truncatingRemainder(dividingBy: 10) }
        #expect(delays.allSatisfy { $0 >= 0.5 && $0 <= 1.5 })
    }

    @Test func aRequestInFlightAtSuspensionLosesItsConnection() {
        let s = simulate("""
            local api = server "api.test" { latency = 5 }
            api:route("GET /items", { status = 200 })
            app { didEnterBackground = function(app)
                    http.get("https://api.test/items", function(r, err) print((err or r.status) .. " " .. now()) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            at(60, user.open)
            """)
        #expect(s.printed == ["connectionLost 60"])
    }

    @Test func aRequestInsideABackgroundTaskCompletes() {
        let s = simulate("""
            local api = server "api.test" { latency = 5 }
            api:route("GET /items", { status = 200 })
            app { didEnterBackground = function(app)
                    local id = app:beginBackgroundTask(nil)
                    http.get("https://api.test/items", function(r, err)
                      print((err or r.status) .. " " .. now())
                      app:endBackgroundTask(id)
                    end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.printed == ["200 15"])
        #expect(s.codes.isEmpty)
    }

    @Test func serverCodeRunsWhateverTheAppState() {
        let s = simulate("""
            local hits = 0
            local api = server "api.test" { latency = 2 }
            api:route("GET /items", function() hits = hits + 1; return { status = 200 } end)
            app { didEnterBackground = function(app) http.get("https://api.test/items", function() end) end }
            at(0, user.launch)
            at(10, user.home)
            expect.that("the server saw it", function() return hits == 1 end)
            """)
        #expect(s.exitCode == 0)
    }

    @Test func responsesTheAppNeverSeesAreFreed() {
        let s = simulate("""
            local api = server "api.test" { latency = 5 }
            api:route("GET /x", function(request)   -- a body of its own for each request
              return { status = 200, body = { big = string.rep("x", 4000) .. request.query.i } }
            end)
            app { didBecomeActive = function(app)
                    for i = 1, 200 do http.request({ url = "https://api.test/x?i=" .. i, timeout = 1 }, function() end) end
                  end }
            at(0, user.launch)
            at(100, function() collectgarbage("collect"); print(math.floor(collectgarbage("count"))) end)
            """)
        let kb = Int(s.printed.last ?? "") ?? Int.max
        #expect(kb < 400, "\(kb) KiB still held after 200 timed-out requests with 4 KB bodies")
    }

    @Test func aRouteHandlerErrorIsAScenarioError() {
        let s = simulate("local api = server 'api.test'\napi:route('GET /items', function() return 5 end)\n" + requestingApp() + "at(0, user.launch)")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.contains("a route must answer with a response table") == true)
        #expect(s.error?.message.hasPrefix("test.lua:2:") == true)
    }
}
