// What explore's runs share beside the command (ExploreCommand.swift): the verdicts of a batch of
// candidate runs written by parallel threads, a shard of the seeds (`--shard K/M`, or the CI's
// environment), and the progress line on a terminal. Uses Lock and the system's clock.
import ArgumentParser
import Dispatch
import LuaFetchCore
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Verdicts of a batch of candidate runs, each written by one thread.
final class Verdicts: @unchecked Sendable {
    private var storage: [Bool]
    private let lock = Lock()
    init(count: Int) { storage = Array(repeating: false, count: count) }
    func set(_ i: Int, _ v: Bool) { lock.locked { storage[i] = v } }
    var values: [Bool] { lock.locked { storage } }
}

/// One shard of the seeds: `index` of `count`, 1-based.
struct Shard: Equatable {
    var index: Int
    var count: Int

    static func parse(_ text: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let m = Int(parts[1]), m >= 1, (1...m).contains(k) else { return nil }
        return Shard(index: k, count: m)
    }

    struct Problem: Error { var message: String }

    /// `--shard auto`: GitLab (CI_NODE_INDEX is 1-based), Kubernetes Indexed Jobs
    /// (JOB_COMPLETION_INDEX is 0-based; the count from --shards), Slurm job arrays
    /// (SLURM_ARRAY_TASK_ID counted from SLURM_ARRAY_TASK_MIN, 0 when unset). The environment is
    /// input like any other: a variable that is set but not a whole number, arithmetic that would
    /// overflow, a shard outside 1...M or more than `Explore.maxShards` shards is a problem that
    /// names the variables, never a crash.
    static func fromEnvironment(shards: Int?, get: (String) -> String?) -> Result<Shard, Problem> {
        struct NotANumber: Error { var name: String; var text: String }
        /// The variable's value: nil when unset, an error when set to something else than an integer.
        func int(_ name: String) throws(NotANumber) -> Int? {
            guard let text = get(name) else { return nil }
            guard let n = Int(text.trimmingWhitespace) else { throw NotANumber(name: name, text: text) }
            return n
        }
        func check(_ k: Int?, _ m: Int, _ source: String) -> Result<Shard, Problem> {
            guard m <= Explore.maxShards else {
                return .failure(Problem(message: "--shard auto: \(source) gives \(m) shards; explore splits into at most \(Explore.maxShards)"))
            }
            guard m >= 1 else { return .failure(Problem(message: "--shard auto: \(source) gives \(m) shards; there must be at least 1")) }
            guard let k else {
                return .failure(Problem(message: "--shard auto: \(source) is past every shard of \(m) (shards are 1 to \(m))"))
            }
            guard (1...m).contains(k) else {
                return .failure(Problem(message: "--shard auto: \(source) gives shard \(k) of \(m), which does not exist (shards are 1 to \(m))"))
            }
            return .success(Shard(index: k, count: m))
        }
        do {
            if let k = try int("CI_NODE_INDEX"), let m = try int("CI_NODE_TOTAL") { return check(k, m, "CI_NODE_INDEX/CI_NODE_TOTAL") }
            if let i = try int("JOB_COMPLETION_INDEX") {
                guard let m = shards else {
                    return .failure(Problem(message: "--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not how many shards there are; add --shards M (the Job's completions)"))
                }
                let k = i.addingReportingOverflow(1)
                return check(k.overflow ? nil : k.partialValue, m, "JOB_COMPLETION_INDEX=\(i)")
            }
            if let id = try int("SLURM_ARRAY_TASK_ID"), let m = try int("SLURM_ARRAY_TASK_COUNT") ?? shards {
                let first = try int("SLURM_ARRAY_TASK_MIN") ?? 0
                let offset = id.subtractingReportingOverflow(first)
                let k = offset.partialValue.addingReportingOverflow(1)
                let source = "SLURM_ARRAY_TASK_ID=\(id)" + (first == 0 ? "" : " from SLURM_ARRAY_TASK_MIN=\(first)")
                return check(offset.overflow || k.overflow ? nil : k.partialValue, m, source)
            }
        } catch {
            return .failure(Problem(message: "--shard auto: \(error.name) is '\(error.text)', not a whole number; unset it or give --shard K/M"))
        }
        return .failure(Problem(message: "--shard auto found no shard in the environment: set CI_NODE_INDEX and CI_NODE_TOTAL (GitLab parallel), JOB_COMPLETION_INDEX with --shards M (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm array), or give --shard K/M"))
    }
}

/// The progress line on a terminal (standard error): runs, findings, runs/s and what is left.
/// Silent when standard error is not a terminal. Wall-clock time appears only here.
final class Progress: @unchecked Sendable {
    let enabled: Bool
    let total: Int?
    let budget: Millis?
    let started = Progress.clock()
    private var shown = 0

    init(enabled: Bool, total: Int?, budget: Millis?) { self.enabled = enabled; self.total = total; self.budget = budget }

    static func clock() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    var elapsed: Int64 { Progress.clock() - started }
    var timeIsUp: Bool { budget.map { elapsed >= $0 } ?? false }

    /// Call under the sweep's lock.
    func update(runs: Int, findings count: () -> Int) {
        guard enabled else { return }
        let ms = max(1, elapsed)
        guard ms / 100 != shown || runs == total else { return }  // at most ten lines a second
        shown = Int(ms / 100)
        let findings = count()
        var text = "explore  \(runs)\(total.map { "/\($0)" } ?? "") runs · \(findings) finding\(findings == 1 ? "" : "s") · \(Int64(runs) * 1000 / ms) runs/s"
        if let budget { text += " · \(Time.human(max(0, budget - ms))) left" }
        note(text)
    }

    func note(_ text: String) {
        guard enabled else { return }
        _ = ("\r\u{1b}[K" + text).withCString { write(2, $0, strlen($0)) }
    }

    func clear() {
        guard enabled else { return }
        _ = "\r\u{1b}[K".withCString { write(2, $0, strlen($0)) }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
