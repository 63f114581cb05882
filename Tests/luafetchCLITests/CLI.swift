// Runs the built `luafetch` executable (.build/debug/luafetch) as a user would, capturing its
// standard output, standard error and exit status.
import Foundation

enum CLI {
    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The executable under test: LUAFETCH_BINARY when set (scripts/sanitize points it at an
    /// AddressSanitizer build), else the debug build.
    static let binary = ProcessInfo.processInfo.environment["LUAFETCH_BINARY"]
        ?? root.appendingPathComponent(".build/debug/luafetch").path
    /// Sanitizer builds reserve terabytes of address space: `ulimit -v` cannot bound them.
    static let memoryLimitsWork = ProcessInfo.processInfo.environment["LUAFETCH_SANITIZED"] == nil
    /// Explore's runs on the imported fixtures' fixed variants: 1,000 in the suite (`scripts/test`
    /// keeps to 20 minutes on 2 cores, issue 39; explores were half the suite's time), the 5,000
    /// issue 38 asks for with `LUAFETCH_LONG_EXPLORES=1` (the seeds are fixed, so the 1,000 are the
    /// first runs of the 5,000; docs/RELIABILITY.md, "CI's time"), and 500 under a sanitizer
    /// (scripts/sanitize checks memory safety on the same code paths; every planted bug is first
    /// found within 7 runs).
    static let longExplores = ProcessInfo.processInfo.environment["LUAFETCH_LONG_EXPLORES"] == "1"
    static let fixtureExploreRuns = !memoryLimitsWork ? "500" : longExplores ? "5000" : "1000"
    /// The apps whose explore checks run: all of them, and the first under a sanitizer (their
    /// scenarios take the same runtime paths; under AddressSanitizer the RealShapes corpus alone
    /// explored for 22 of the suite's 34 minutes, and CI took 69; the plain suite of the same CI
    /// job explores them all).
    static func explored(_ names: [String]) -> [String] {
        memoryLimitsWork ? names : Array(names.prefix(1))
    }
    /// Under a sanitizer (scripts/sanitize), checks of scale, statistics and time (a million
    /// blocks, 10,000 explore runs, a run to 10^9 instructions) run smaller or not at all: the plain
    /// suite of the same CI job runs them whole, the code paths are the same, and AddressSanitizer
    /// makes each 3-4 times slower (docs/RELIABILITY.md, "CI's time").
    static let sanitized = !memoryLimitsWork

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs luafetch with `arguments` from the package root.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        p.currentDirectoryURL = root
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (k, v) in environment { env[k] = v }
        p.environment = env
        return try collect(p)
    }

    /// Runs luafetch through /bin/sh with `input` on standard input and, when `memoryKiB` is given,
    /// its virtual memory limited (`ulimit -v`), so growing past it fails instead of swapping; with
    /// `seconds`, killed after that long (`timeout -s KILL`: status 137), so a hang fails the test
    /// instead of stalling the suite. `directory` (default: the package root) and `environment`
    /// (added to the test's) are where and how it runs.
    static func run(_ arguments: [String], input: String, memoryKiB: Int? = nil, seconds: Int? = nil,
                    directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-in-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let inputPath = dir.appendingPathComponent("stdin").path
        try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        let killer = seconds.map { ["timeout", "-s", "KILL", String($0)] } ?? []
        let quoted = (killer + [binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let limit = memoryLimitsWork ? memoryKiB.map { "ulimit -v \($0); " } ?? "" : ""
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "\(limit)exec \(quoted) < '\(inputPath)'"]
        p.currentDirectoryURL = directory ?? root
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (k, v) in environment { env[k] = v }
        p.environment = env
        return try collect(p)
    }

    /// Runs a prepared process and returns its output and status.
    static func collect(_ p: Process) throws -> Result {
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Writes `source` to a temporary scenario file and returns its path.
    static func scenario(_ source: String, name: String = "scenario.lua") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static var examples: [String] {
        let dir = root.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".lua") }.sorted()
    }
}
