// The default world of an imported scenario (SPEC 18.2, 18.7.6): a fake server for each URL host
// that appears as a literal (one route answering 200 to anything), the person's day (launch,
// Home after a minute, open an hour later and Home again), what the declared background modes
// make possible (a simulated fetch at 2 h, a content-available push at 3 h; BGTask requests
// launch by the scheduler's own rules), one day long, and `expect.noViolations()`.

enum DefaultWorld {
    static func lines(hosts: [String], modes: [String]) -> [String] {
        var out = ["-- The world: the fake servers, what the person and the system do (edit freely)."]
        for host in hosts.sorted() {
            out.append("server \(Literals.quote(host)) { latency = 0.3 }:route(\"*\", { status = 200, body = {} })")
        }
        out += [
            "at(0, user.launch)",
            "at(60, user.home)",
            "at(3660, user.open)",
            "at(3720, user.home)",
        ]
        if modes.contains("fetch") { out.append("at(hours(2), system.backgroundFetch)") }
        if modes.contains("remote-notification") {
            out.append("at(hours(3), function() system.remoteNotification({}, { contentAvailable = true }) end)")
        }
        out.append("")
        out.append("expect.noViolations()")
        return out
    }
}
