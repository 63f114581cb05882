// InstantThrottle: at most `limit` of something (launches, wakes) in one virtual instant. An app
// that crashes at launch after asking to be launched again would otherwise be relaunched forever
// without the clock moving; past the limit the caller waits, a second the first time and twice
// as long at each next instant it happens (at most an hour), as iOS throttles an app that keeps
// crashing. Used by BGTaskScheduler's launches and background URL sessions' wakes. Pure Swift.

struct InstantThrottle {
    let limit: Int
    private var at = (time: Millis(-1), count: 0)
    private var backoff = Time.second
    private var waitAt: (time: Millis, wait: Millis) = (-1, 0)

    init(limit: Int) { self.limit = limit }

    /// Whether `limit` are already done at `now`.
    func isFull(at now: Millis) -> Bool { at.time == now && at.count >= limit }

    /// One more done at `now`.
    mutating func note(at now: Millis) { at = at.time == now ? (now, at.count + 1) : (now, 1) }

    /// How long to wait when full at `now`: the same all through one instant, doubling from one
    /// such instant to the next.
    mutating func wait(at now: Millis) -> Millis {
        if waitAt.time != now {
            waitAt = (now, backoff)
            backoff = min(backoff * 2, Time.hour)
        }
        return waitAt.wait
    }
}
