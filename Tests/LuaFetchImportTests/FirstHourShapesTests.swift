// What a new user's own small app met in the first hour (issue 39's walkthrough): an error's
// `localizedDescription`, a request's headers, a response's status and data, each the real value
// and none listed in the report as a stub. Swift in, what the app printed (and the server saw) out.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct FirstHourShapesTests {
    /// Any error's `localizedDescription` is a String: an enum of the app's without a description
    /// gets Swift's default (with the case's index), a LocalizedError its `errorDescription`, one
    /// that declares `localizedDescription` its own. It printed "nil" before.
    @Test func anErrorsLocalizedDescriptionIsAString() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            do { try Refresher.run(0) } catch { print("failed:", error.localizedDescription) }
            do { try Refresher.run(1) } catch { print("failed:", error.localizedDescription) }
            do { try Refresher.run(2) } catch let e { print("failed:", e.localizedDescription) }
            let plain: Error = RefreshError.offline
            print(plain.localizedDescription.isEmpty)
            """, others: """
            enum RefreshError: Error { case offline, empty }
            struct QuotaError: LocalizedError { var errorDescription: String? { "over the quota" } }
            enum Refresher {
                static func run(_ n: Int) throws {
                    if n == 0 { throw RefreshError.empty }
                    if n == 1 { throw QuotaError() }
                    throw RefreshError.offline
                }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["failed: The operation couldn’t be completed. (RefreshError error 1.)", "failed: over the quota",
                              "failed: The operation couldn’t be completed. (RefreshError error 0.)", "false"], "\(r.printed)")
        #expect(!r.result.report.contains { $0.contains("localizedDescription") && $0.contains("stub") }, "\(r.result.report)")
        #expect(!r.scenario.contains("[\"error.localizedDescription\"]"), "\(r.scenario.suffix(2000))")
    }

    /// A request's headers reach the server, and the response's status code, headers and data are
    /// the real ones (data is the body's bytes: a route's table as JSON text, never nil on success);
    /// none of `setValue`, `statusCode` is listed as a stub.
    @Test func aRequestsHeadersAndTheResponseAreReal() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let host = "feed.example.test"   // not a URL literal: the test's own server answers
            var request = URLRequest(url: URL(string: "https://" + host + "/latest")!)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.addValue("walk", forHTTPHeaderField: "X-Client")
            request.addValue("2", forHTTPHeaderField: "X-Client")
            print("asks", request.value(forHTTPHeaderField: "accept") ?? "-")
            URLSession.shared.dataTask(with: request) { data, response, error in
                guard let http = response as? HTTPURLResponse else { return }
                print("status", http.statusCode, "bytes", data?.count ?? -1, http.value(forHTTPHeaderField: "etag") ?? "-")
                if let data, data.count > 0 { print("non-empty") }
            }.resume()
            """), extra: """

            server "feed.example.test" { latency = 0.1 }:route("GET /latest", function(req)
              -- What the server saw comes back as the response's ETag.
              return { status = 201, headers = { ETag = req.headers["Accept"] .. "|" .. req.headers["X-Client"] }, body = { items = { 1, 2 } } }
            end)
            """)
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed.contains("asks application/json"), "\(r.printed)")
        #expect(r.printed.contains("status 201 bytes 15 application/json|walk,2"), "\(r.printed)")
        #expect(r.printed.contains("non-empty"), "\(r.printed)")
        #expect(!r.scenario.contains("[\"URLRequest.setValue\"]") && !r.scenario.contains("[\"HTTPURLResponse.statusCode\"]")
                && !r.scenario.contains("[\"URLRequest.addValue\"]"), "\(r.scenario.suffix(2000))")
    }

    /// A string's `utf8`, `utf16` and `unicodeScalars` views count its characters (pocket-casts's
    /// `title.utf16.count` was nil, and a launch crashed in 74 % of explore's runs).
    @Test func aStringsViewsHaveCounts() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let title = "Daily news"
            print(title.utf16.count, title.utf8.count, title.unicodeScalars.count)
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["10 10 10"], "\(r.printed)")
    }
}
