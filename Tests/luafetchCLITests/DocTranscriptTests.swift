// The docs' `$ luafetch ...` transcripts, run as written and compared with what they show (issue
// 39.7): every figure README.md, docs/TUTORIAL.md and docs/IMPORT.md print comes from a run this
// test checks.
// Each doc's transcripts run in order in a scratch folder of their own (what one writes, as an
// import's scenario, the next reads) that sees the repository's examples/ and Tests/ through
// links; a scenario a transcript runs is the ```lua block just before it, and the tutorial's
// test-suite transcript runs the tutorial's own blocks (step 6 as scenarios/refresh.lua, step 4's
// failing app as scenarios/upload.lua). Placeholders: a line `...` stands for any lines (the lines
// shown after it end the output), a line ending in ` ...` for the rest of that line, `(N ms)` for
// any wall-clock time; a command shown without output only has to succeed. ReadmeTests covers the
// README's set-up commands and `luafetch FILE` from the PATH.
import Foundation
import Testing

/// Where `output` differs from a transcript with the placeholders above (nil: it matches).
func looseTranscriptDifference(_ output: String, _ expected: [String]) -> String? {
    var got = output.components(separatedBy: "\n")
    if got.last == "" { got.removeLast() }
    func masked(_ s: String) -> String { s.replacing(#/\(\d+ ms\)/#, with: "(N ms)") }
    func same(_ g: String, _ w: String) -> Bool {
        w.hasSuffix(" ...") ? masked(g).hasPrefix(masked(String(w.dropLast(3)))) : masked(g) == masked(w)
    }
    let cut = expected.firstIndex(of: "...")
    let head = Array(expected[..<(cut ?? expected.count)]), tail = cut.map { Array(expected[($0 + 1)...]) } ?? []
    for (i, want) in head.enumerated() {
        guard i < got.count else { return "line \(i + 1): the output ends; the doc shows \"\(want)\"" }
        if !same(got[i], want) { return "line \(i + 1): \"\(got[i])\"\n  the doc shows \"\(want)\"" }
    }
    if cut == nil {
        return got.count == head.count ? nil : "the output goes on after the doc's \(head.count) lines: \"\(got[head.count])\""
    }
    guard got.count >= head.count + tail.count else { return "the output has \(got.count) lines, fewer than the doc shows" }
    for (k, want) in tail.enumerated() {
        let g = got[got.count - tail.count + k]
        if !same(g, want) { return "line \(got.count - tail.count + k + 1) (after ...): \"\(g)\"\n  the doc shows \"\(want)\"" }
    }
    return nil
}

/// Not under a sanitizer (scripts/sanitize): the same outputs the plain suite of the CI job
/// compares, with two explores of 2,000 runs.
@Suite(.serialized, .enabled(if: CLI.memoryLimitsWork, "the docs' outputs are compared by the plain suite"))
struct DocTranscriptTests {
    /// The commands ReadmeTests runs itself (set-up, install, `luafetch FILE` from the PATH).
    static let coveredElsewhere: Set<String> = ["luafetch upload.lua"]

    /// Runs the `$ luafetch ...` transcripts of `doc` in order in one scratch folder.
    static func check(_ doc: String, prepare: (Readme, URL) throws -> Void = { _, _ in }) throws {
        let readme = try Readme(CLI.root.appendingPathComponent(doc))
        let dir = try tempDir("doc-transcripts")
        defer { try? FileManager.default.removeItem(at: dir) }
        for linked in ["examples", "Tests"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(linked), withDestinationURL: CLI.root.appendingPathComponent(linked))
        }
        try prepare(readme, dir)
        let bin = try tempDir("doc-bin")
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("luafetch").path, withDestinationPath: CLI.binary)
        let env = ["PATH": "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")", "NO_COLOR": "1"]
        var ran = 0
        for (command, shown) in readme.transcripts where command.hasPrefix("luafetch ") && !coveredElsewhere.contains(command) {
            if let source = readme.scenario(before: command), let file = command.split(separator: " ").last(where: { $0.hasSuffix(".lua") }) {
                try source.write(to: dir.appendingPathComponent(String(file)), atomically: true, encoding: .utf8)
            }
            let r = try shell(command, in: dir, environment: env, seconds: 600)
            ran += 1
            if shown.isEmpty {
                #expect(r.status == 0, "\(doc): `$ \(command)` exits \(r.status):\n\(r.output.suffix(800))")
            } else if let d = looseTranscriptDifference(r.output, shown) {
                Issue.record("\(doc): `$ \(command)` is not what the doc shows: \(d)")
            }
        }
        #expect(ran >= 2, "\(doc): no transcripts ran")
    }

    @Test func theReadmesTranscripts() throws { try Self.check("README.md") }

    @Test func theTutorialsTranscripts() throws {
        try Self.check("docs/TUTORIAL.md") { readme, dir in
            // Step 7's suite: step 6's scenario and step 4's failing one, as the tutorial says.
            let lua = readme.blocks.filter { $0.info == "lua" }.map { $0.lines.joined(separator: "\n") + "\n" }
            let refresh = try #require(lua.first { $0.contains("BGTaskScheduler.register") })
            let upload = try #require(lua.first { $0.contains("A task that outlives its welcome") })
            let scenarios = dir.appendingPathComponent("scenarios")
            try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
            try refresh.write(to: scenarios.appendingPathComponent("refresh.lua"), atomically: true, encoding: .utf8)
            try upload.write(to: scenarios.appendingPathComponent("upload.lua"), atomically: true, encoding: .utf8)
        }
    }

    @Test func theImportGuidesTranscripts() throws {
        // "From an app folder to a finding": MyApp/ is the task_id_property fixture's buggy app,
        // as the guide says.
        try Self.check("docs/IMPORT.md") { _, dir in
            try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("Tests/LuaFetchImportTests/Fixtures/task_id_property/buggy"),
                                             to: dir.appendingPathComponent("MyApp"))
        }
    }

    @Test func thePlaceholdersMatchWhatTheySay() {
        #expect(looseTranscriptDifference("a\nb\nc\nd\n", ["a", "...", "d"]) == nil)
        #expect(looseTranscriptDifference("a\nb\n", ["a", "...", "c"]) != nil)
        #expect(looseTranscriptDifference("✓ x  (24 ms)\n", ["✓ x  (8 ms)"]) == nil)
        #expect(looseTranscriptDifference("x: long message\n", ["x: long ..."]) == nil)
        #expect(looseTranscriptDifference("a\nb\n", ["a"]) != nil)
    }
}
