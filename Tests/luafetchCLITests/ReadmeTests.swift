// The README's commands, run as a newcomer runs them (issue 31), each checked against the output
// the README shows: the set-up block's commands (all but ./scripts/test, which is this suite), the
// install command into a scratch home folder, `luafetch` from the PATH on the README's minimal
// scenario, and the docs' luafetch types and luacheck commands. Commands and outputs are read out of
// README.md, so a change there that the scripts or luafetch do not follow (or the reverse) fails
// here. Uses bash, git, the scripts, the built binary (CLI) and luacheck when it is installed.
//
// `theDocumentedOutputsMatch` runs on every `swift test`, with the debug binary standing in for
// the installed one. `aFreshCloneRunsTheReadme` clones the committed HEAD into a scratch folder and
// runs the commands there exactly as written, so its first command builds luafetch from nothing
// (release, swift-syntax included: minutes); it runs when LUAFETCH_FRESH_CLONE=1, which .ci/run sets.
import Foundation
import Testing

/// What README.md shows: its set-up commands, its transcripts (`$ command` and the lines it
/// prints) and the commands it names inline.
struct Readme {
    let text: String
    /// Fenced blocks in order: (info string, lines), with the prose before each.
    let blocks: [(info: String, lines: [String], before: String)]

    init(_ url: URL = CLI.root.appendingPathComponent("README.md")) throws {
        text = try String(contentsOf: url, encoding: .utf8)
        let parts = text.components(separatedBy: "```")
        var blocks: [(String, [String], String)] = []
        for i in stride(from: 1, to: parts.count, by: 2) {
            var lines = parts[i].components(separatedBy: "\n")
            let info = lines.removeFirst()
            if lines.last == "" { lines.removeLast() }
            blocks.append((info, lines, parts[i - 1]))
        }
        self.blocks = blocks
    }

    /// The commands of the first ```sh block after "## Set up", without their comments.
    var setupCommands: [String] {
        guard let block = blocks.first(where: { $0.info == "sh" && $0.before.contains("## Set up") }) else { return [] }
        return block.lines.map { line in
            let code = line.range(of: " #").map { String(line[..<$0.lowerBound]) } ?? line
            return code.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// Every `$ command` in a plain block, with the lines shown after it (up to the next `$ `).
    var transcripts: [(command: String, lines: [String])] {
        var out: [(String, [String])] = []
        for block in blocks where block.info.isEmpty && block.lines.first?.hasPrefix("$ ") == true {
            for line in block.lines {
                if line.hasPrefix("$ ") { out.append((String(line.dropFirst(2)), [])) } else { out[out.count - 1].1.append(line) }
            }
        }
        // A blank line between two commands of one block separates them; it is no output.
        for i in out.indices { while out[i].1.last == "" { out[i].1.removeLast() } }
        return out
    }

    func transcript(_ command: String) -> [String]? { transcripts.first { $0.command == command }?.lines }

    /// The ```lua block just before the transcript of `command` (the scenario it runs).
    func scenario(before command: String) -> String? {
        guard let i = blocks.firstIndex(where: { $0.lines.first == "$ \(command)" }), i > 0, blocks[i - 1].info == "lua" else { return nil }
        return blocks[i - 1].lines.joined(separator: "\n") + "\n"
    }

    /// Inline code spans of the prose that start with `prefix` (`luacheck `, `luafetch types `).
    func inlineCommands(_ prefix: String) -> [String] {
        var out: [String] = []
        for (i, part) in text.components(separatedBy: "```").enumerated() where i % 2 == 0 {
            let spans = part.components(separatedBy: "`")
            for j in stride(from: 1, to: spans.count, by: 2) where spans[j].hasPrefix(prefix) && !out.contains(spans[j]) {
                out.append(spans[j])
            }
        }
        return out
    }
}

/// Where `output` differs from the lines a transcript shows (nil: it is what they show); a line
/// `...` stands for whatever follows.
func transcriptDifference(_ output: String, _ expected: [String]) -> String? {
    var got = output.components(separatedBy: "\n")
    if got.last == "" { got.removeLast() }
    for (i, want) in expected.enumerated() {
        if want == "..." { return nil }
        guard i < got.count else { return "line \(i + 1): the output ends; the README shows \"\(want)\"" }
        if got[i] != want { return "line \(i + 1): \"\(got[i])\"\n  the README shows \"\(want)\"" }
    }
    return got.count == expected.count ? nil : "the output goes on after the README's \(expected.count) lines: \"\(got[expected.count])\""
}

/// Runs `command` with bash in `dir`, standard output and error together (as a terminal shows
/// them), stdin empty; killed after `seconds`.
func shell(_ command: String, in dir: URL, environment: [String: String] = [:], seconds: Int = 120) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["timeout", "-s", "KILL", String(seconds), "bash", "-c", command]
    p.currentDirectoryURL = dir
    var env = ProcessInfo.processInfo.environment
    // As on a newcomer's terminal: not in CI (scripts/run's next steps), no colour settings.
    for k in ["CI", "NO_COLOR", "GITHUB_ACTIONS", "LUAFETCH_BINARY", "LUAFETCH_SANITIZED"] { env.removeValue(forKey: k) }
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

extension Readme {
    /// The set-up block as the tests know it: a run command, the test command, the install command.
    func setup() throws -> (run: String, test: String, install: String) {
        let commands = setupCommands
        let run = try #require(commands.first { $0.hasPrefix("./scripts/run ") }, "README: no ./scripts/run command in the set-up block")
        let test = try #require(commands.first { $0.hasPrefix("./scripts/test") }, "README: no ./scripts/test in the set-up block")
        let install = try #require(commands.first { $0.hasPrefix("./scripts/install") }, "README: no ./scripts/install in the set-up block")
        #expect(commands == [run, test, install], "README's set-up block has commands these tests do not run: \(commands)")
        return (run, test, install)
    }

    /// A project folder of a user's: the README's minimal scenario as `upload.lua` and under
    /// `scenarios/`, what the docs' luafetch types and luacheck commands work on.
    func project() throws -> (dir: URL, command: String) {
        let command = try #require(transcripts.map(\.command).first { $0.hasPrefix("luafetch ") && $0.hasSuffix(".lua") },
                                   "README: no `$ luafetch FILE.lua` transcript")
        let file = String(command.split(separator: " ").last!)
        let source = try #require(scenario(before: command), "README: no ```lua block before `$ \(command)`")
        let dir = try tempDir("readme-project")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        try source.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        try source.write(to: dir.appendingPathComponent("scenarios/\(file)"), atomically: true, encoding: .utf8)
        return (dir, command)
    }

    /// `luafetch FILE` from the PATH in the project shows the README's transcript; the docs'
    /// `luafetch types` and `luacheck` commands are clean, each run where the folder it names is
    /// (the user's project, or the repository for `luacheck examples`).
    func checkLuafetchFromPath(path: String, project: URL, command: String, repository: URL) throws {
        let env = ["PATH": path]
        let which = try shell("command -v luafetch", in: project, environment: env)
        #expect(which.status == 0, "luafetch is not on the PATH: \(which.output)")
        let r = try shell(command, in: project, environment: env)
        #expect(r.status == 0, "\(command): exit \(r.status)\n\(r.output)")
        if let d = transcriptDifference(r.output, transcript(command) ?? []) { Issue.record("`$ \(command)` is not what the README shows: \(d)") }

        let types = inlineCommands("luafetch types ")
        #expect(!types.isEmpty, "README: no `luafetch types FOLDER` command")
        for t in types {
            let r = try shell(t, in: project, environment: env)
            #expect(r.status == 0, "\(t): exit \(r.status)\n\(r.output)")
        }
        let luachecks = inlineCommands("luacheck ")
        #expect(luachecks.contains("luacheck examples") && luachecks.count >= 2, "README's luacheck commands: \(luachecks)")
        guard CLI.which("luacheck") != nil else { return }  // scripts/setup --test installs it
        for l in luachecks {
            let folder = String(l.split(separator: " ").last!)
            // `luacheck .` is run inside the folder `luafetch types` was given, as the README says.
            let typed = types.first.map { String($0.split(separator: " ").last!) } ?? "scenarios"
            let dir = folder == "." ? project.appendingPathComponent(typed)
                : FileManager.default.fileExists(atPath: project.appendingPathComponent(folder).path) ? project : repository
            let r = try shell(l + " --no-color", in: dir, environment: env)
            let clean = r.status == 0 && r.output.contains("Total: 0 warnings / 0 errors")
            #expect(clean, "`\(l)` in \(dir.path) is not clean:\n\(r.output.suffix(1500))")
        }
    }
}

@Suite(.serialized) struct ReadmeTests {
    let readme: Readme
    init() throws { readme = try Readme() }

    /// On every `swift test`: the README's outputs, with the debug binary as the `luafetch` on the
    /// PATH and the scripts' own words (the build line, the next steps) read from the scripts.
    @Test func theDocumentedOutputsMatch() throws {
        let (run, _, _) = try readme.setup()
        for script in ["scripts/run", "scripts/test", "scripts/install"] {
            #expect(FileManager.default.isExecutableFile(atPath: CLI.root.appendingPathComponent(script).path), "\(script)")
        }
        // The first command's transcript: the build line, luafetch's output, the next steps.
        let shown = try #require(readme.transcript(run), "README: no transcript of `\(run)`")
        let building = try #require(shown.first)
        #expect(building.hasPrefix("building luafetch (first time"), "\(building)")
        let buildScript = try String(contentsOf: CLI.root.appendingPathComponent("scripts/build-release"), encoding: .utf8)
        #expect(buildScript.contains("echo \"\(building)\""), "scripts/build-release does not say \"\(building)\"")
        let blank = try #require(shown.lastIndex(of: ""), "README: the next steps after a blank line")
        let runScript = try String(contentsOf: CLI.root.appendingPathComponent("scripts/run"), encoding: .utf8)
        let next = shown[blank...].joined(separator: "\n") + "\n"
        #expect(runScript.contains("<<'NEXT'\n" + next + "NEXT\n"), "scripts/run's next steps are not the README's:\n\(next)")
        let args = run.dropFirst("./scripts/run ".count).split(separator: " ").map(String.init)
        let r = try CLI.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        if let d = transcriptDifference(r.stdout, Array(shown[1..<blank])) { Issue.record("`luafetch \(args.joined(separator: " "))`: \(d)") }

        let bin = try tempDir("readme-bin")
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("luafetch").path, withDestinationPath: CLI.binary)
        let (dir, command) = try readme.project()
        try readme.checkLuafetchFromPath(path: "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")",
                                  project: dir, command: command, repository: CLI.root)
    }

    /// A fresh clone of the committed HEAD in a scratch folder, its README's commands run there as
    /// written: set-up (a build from nothing), install into a scratch home, luafetch from the PATH,
    /// the luafetch types and luacheck commands.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LUAFETCH_FRESH_CLONE"] == "1",
                   "a fresh clone builds luafetch from nothing (minutes): LUAFETCH_FRESH_CLONE=1 runs it (.ci/run does)"))
    func aFreshCloneRunsTheReadme() throws {
        let scratch = try tempDir("readme-clone")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let head = try shell("git rev-parse HEAD", in: CLI.root).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let clone = scratch.appendingPathComponent("luafetch")
        let cloned = try shell("git clone -q '\(CLI.root.path)' '\(clone.path)' && git -C '\(clone.path)' checkout -q --detach \(head)", in: scratch)
        try #require(cloned.status == 0, "git clone: \(cloned.output)")
        let readme = try Readme(clone.appendingPathComponent("README.md"))
        let (run, _, install) = try readme.setup()

        // The first command: set-up, a quiet build from nothing, the summary, the next steps.
        let started = Date()
        let first = try shell(run, in: clone, seconds: 45 * 60)
        let minutes = Date().timeIntervalSince(started) / 60
        print("ReadmeTests: `\(run)` in a fresh clone took \(String(format: "%.1f", minutes)) minutes")
        try #require(first.status == 0, "`\(run)` in a fresh clone: exit \(first.status)\n\(first.output.suffix(4000))")
        // The release binary it built, for scripts/sanitize's valgrind step (.ci/run): built once.
        if let keep = ProcessInfo.processInfo.environment["LUAFETCH_KEEP_RELEASE_BINARY"], !keep.isEmpty {
            let to = URL(fileURLWithPath: keep, relativeTo: CLI.root)
            try? FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: to)
            try FileManager.default.copyItem(at: clone.appendingPathComponent(".build/release/luafetch"), to: to)
        }
        let shown = try #require(readme.transcript(run))
        if let d = transcriptDifference(first.output, shown) { Issue.record("`$ \(run)` in a fresh clone: \(d)") }
        // Later runs: luafetch's output alone, no build.
        let again = try shell(run, in: clone)
        let blank = try #require(shown.lastIndex(of: ""))
        if let d = transcriptDifference(again.output, Array(shown[1..<blank])) { Issue.record("`\(run)` a second time: \(d)") }

        // The install command, into a home folder of the test's, its folder on the PATH.
        let home = scratch.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let path = "\(home.path)/.local/bin:\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        let env = ["HOME": home.path, "PATH": path]
        let installed = try shell(install, in: clone, environment: env, seconds: 20 * 60)
        #expect(installed.status == 0, "\(installed.output)")
        if let d = transcriptDifference(installed.output, readme.transcript(install) ?? []) { Issue.record("`$ \(install)`: \(d)") }
        let twice = try shell(install, in: clone, environment: env)
        #expect(twice.status == 0 && twice.output.contains(" is up to date\n"), "a second install: \(twice.output)")

        // luafetch from the PATH: what install says to try, the README's scenario, the lint commands.
        let (dir, command) = try readme.project()
        let tryThis = try #require(readme.transcript(install)?.last?.components(separatedBy: "try  ").last, "README: install's try-this")
        let tried = try shell(tryThis, in: dir, environment: env)
        #expect(tried.status == 0, "`\(tryThis)`: \(tried.output)")
        try readme.checkLuafetchFromPath(path: path, project: dir, command: command, repository: clone)
    }
}
