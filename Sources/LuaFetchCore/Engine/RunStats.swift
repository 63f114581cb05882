// Counters for the run summary (SPEC 8): launches, wakes, fetches by result, requests by status,
// background time. Plain data kept by the World.

public struct RunStats: Sendable {
    public var userLaunches = 0
    /// Choice points met (SPEC 12.4): instants where iOS leaves an order open.
    public var choicePoints = 0
    public var backgroundLaunches = 0
    public var wakes = 0
    public var suspensions = 0
    public var terminations = 0
    public var tasksBegun = 0
    /// BGTasks launched (SPEC 13).
    public var bgTasksLaunched = 0
    /// Remote notifications sent, delivered and dropped (SPEC 14).
    public var pushes = 0
    public var pushesDelivered = 0
    public var pushesDropped = 0
    /// Background URL session transfers finished (SPEC 15).
    public var transfers = 0
    public var fetches = 0
    public var fetchesSkipped = 0
    public var fetchesMissed = 0
    public var fetchResults: [FetchResult: Int] = [:]
    public var requests = 0
    public var responses: [Int: Int] = [:]
    public var networkErrors: [String: Int] = [:]
    public var backgroundTime: Millis = 0
    public var backgroundSince: Millis?
    public var busyTime: Millis = 0
    /// Moves out of the foreground (Home, a force quit, a termination): explore's person leaves
    /// after a session only when nothing moved the app since it opened it (ExploreDriver).
    public var foregroundExits = 0
    /// Moves into the foreground (a launch or an open by the person).
    public var foregroundEntries = 0
    public var events = 0
    /// Stub calls of an imported scenario (SPEC 18.4), and the draws that took an explore-only
    /// path (a nil result, a failure), as `+TIME Name (File.swift:LINE) → nil` (at most 32).
    public var stubCalls = 0
    public var stubNotes: [String] = []
}
