// Explorer: the runs behind `luafetch explore` (SPEC 10). One run is the scenario with a seed and a
// list of injected actions, in its own runtime (so runs can go on parallel threads); a finding is
// a distinct violation (code + file:line) with the first seed that showed it, how many runs did,
// and its injected actions shrunk to a minimal list that still produces it.
import LuaFetchCore

/// A distinct violation found while exploring.
public struct Finding: Sendable {
    public var key: String            // "code file:line"
    public var violation: Violation
    public var seed: Int64
    public var runs = 1
    public var actions: [InjectedAction]
    public var minimal: [InjectedAction] = []
}

public enum Explorer {
    /// Runs the scenario once with `seed` and `actions`; returns its violations.
    public static func run(path: String, seed: Int64, os: OSProfile?, actions: [InjectedAction]) throws(ScenarioError) -> [Violation] {
        let runtime = ScenarioRuntime(path: path, options: RunOptions(seed: seed, os: os))
        runtime.world.recordTimeline = false
        try runtime.load()
        for a in actions { a.schedule(in: runtime.world) }
        try runtime.run()
        return runtime.world.violations
    }

    /// How much virtual time injected actions spread over: the scenario's duration, or the end of
    /// a plain run (at least ten minutes).
    public static func horizon(path: String, seed: Int64, os: OSProfile?) throws(ScenarioError) -> Millis {
        let runtime = ScenarioRuntime(path: path, options: RunOptions(seed: seed, os: os))
        runtime.world.recordTimeline = false
        try runtime.load()
        if let d = runtime.world.config.duration { return d }
        try runtime.run()
        return max(runtime.world.now, 10 * Time.minute)
    }

    /// The identity of a violation across runs.
    public static func key(_ v: Violation) -> String {
        "\(v.code.rawValue) \(v.location?.description ?? "-")"
    }

    /// Folds the runs (in seed order) into findings, then shrinks each one's actions.
    public static func findings(path: String, os: OSProfile?, results: [(seed: Int64, actions: [InjectedAction], violations: [Violation])])
        -> [Finding] {
        var found: [Finding] = []
        var index: [String: Int] = [:]  // lookup only; `found` keeps the order
        for r in results {
            var seenThisRun = Set<String>()
            for v in r.violations {
                let k = key(v)
                guard seenThisRun.insert(k).inserted else { continue }
                if let i = index[k] {
                    found[i].runs += 1
                } else {
                    index[k] = found.count
                    found.append(Finding(key: k, violation: v, seed: r.seed, actions: r.actions))
                }
            }
        }
        for i in found.indices {
            let f = found[i]
            found[i].minimal = InjectedAction.shrink(f.actions) { subset in
                let vs = (try? run(path: path, seed: f.seed, os: os, actions: subset)) ?? []
                return vs.contains { key($0) == f.key }
            }
        }
        return found
    }
}
