// `luafetch import` (SPEC 18): reads the Swift files and Info.plist under the paths, parses them
// (SwiftSyntax), collects every declaration (Program), translates it (Translator and its
// extensions, the API table, the stubs), wires the app's entry points into `app{}`, adds the
// default world, and returns the scenario with a report a person reads in ten seconds. Pure: no
// Lua, no file writes (the command writes). The same input gives the same bytes.
import SwiftSyntax

public struct ImportOptions: Sendable {
    public var paths: [String]
    public var os: String?
    public var name: String?
    /// The command as typed (the scenario's header names it).
    public var command: String
    /// `--target NAME`: the app target of the project to import (18.8.2).
    public var target: String?
    /// `--all`: every function, not only what background life can reach (18.8.4).
    public var all = false
    /// Compiles a chunk of Lua (its text, its name) and returns Lua's message when it does not
    /// compile (18.8.5). The command passes Lua's own parser in; the importer knows no Lua.
    public var luaCheck: (@Sendable (_ chunk: String, _ name: String) -> String?)?
    /// A developer's question: why the slice kept units whose `path:line name` contains this
    /// (SliceTrace; the answer is `ImportResult.why`).
    public var why: String?
    public init(paths: [String], os: String? = nil, name: String? = nil, command: String = "luafetch import",
                target: String? = nil, all: Bool = false, luaCheck: (@Sendable (String, String) -> String?)? = nil) {
        self.paths = paths; self.os = os; self.name = name; self.command = command
        self.target = target; self.all = all; self.luaCheck = luaCheck
    }
}

public struct ImportResult: Sendable {
    public var scenario: String
    /// The report for standard error.
    public var report: [String]
    public var warnings: [String]
    /// The answer to `ImportOptions.why` (empty when not asked).
    public var why = ""
}

public enum Importer {
    /// Imports the app under `options.paths`. Throws an ImportError (exit 2) for unreadable
    /// input, no Swift file, or Swift that does not parse.
    /// The size a scenario's slice stays within (SPEC 18.8.6).
    static let sliceBudget = 4 << 20

    public static func run(_ options: ImportOptions) throws(ImportError) -> ImportResult {
        try Threads.onLargeStack { () throws(ImportError) -> ImportResult in try runHere(options) }
    }

    private static func runHere(_ options: ImportOptions) throws(ImportError) -> ImportResult {
        if let os = options.os, !["ios13", "ios26"].contains(os) {
            throw ImportError("luafetch import: --os \(os): imported apps use ios13 or ios26 (BackgroundTasks and scenes exist from iOS 13)")
        }
        let input = try ImportInput.read(options)
        let sources = input.sources
        let common = input.common
        let program = Program()
        program.build.conditions = Set(input.compilationConditions)
        let parsed = try Parsing.parseAll(sources)
        for file in parsed { program.collectAliases(file) }
        for file in parsed { program.collect(file) }
        program.finish()
        let entry = EntryPoints(program)
        let plist = input.plist ?? InfoPlist.choose(input.plists, near: entry.appDelegate.map { $0.file.source.shown })

        // The slice (18.8.4), widened until the translation reaches nothing it left out.
        let builder = SliceBuilder(program: program, all: options.all)
        if options.why != nil { builder.traceWhy() }
        let slice = builder.build(entry)
        let resources = BundleResources.contents(under: common)
        var pass = translate(program, slice: slice, profile: options.os ?? "ios13", check: options.luaCheck, resources: resources)
        for _ in 0..<8 {
            let missed = pass.t.calledFunctions.filter { !slice.contains($0) }
            let unmade = pass.t.madeTypes.filter { !slice.isMade($0) }
            let unread = pass.t.unkeptProperties
            let unnamed = TypeReferences.named(in: pass.memberLines, types: program.typeOrder).filter { !slice.hasTable($0) }
            if missed.isEmpty && unmade.isEmpty && unread.isEmpty && unnamed.isEmpty { break }
            for u in unnamed { slice.name(u) }
            builder.widen(functions: missed, made: unmade, properties: unread)
            pass = translate(program, slice: slice, profile: options.os ?? "ios13", check: options.luaCheck, resources: resources)
        }
        let t = pass.t, typeLines = pass.typeLines, memberLines = pass.memberLines
        // What the code uses (18.6), the entry points' modes among it.
        if let d = entry.appDelegate {
            if let m = t.method(d, "application(_:performFetchWithCompletionHandler:)") { t.usedModes["fetch"] = "\(m.file.source.shown):\(m.file.line(m.node))" }
            for sel in ["application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", "application(_:didReceiveRemoteNotification:)"] {
                if let m = t.method(d, sel) { t.usedModes["remote-notification"] = "\(m.file.source.shown):\(m.file.line(m.node))" }
            }
        }
        let scenes = plist?.hasSceneManifest ?? false || entry.swiftUIApp != nil || (plist == nil && entry.sceneDelegate != nil)
        let known: Set<String> = ["fetch", "processing", "remote-notification"]
        var modes = (plist?.backgroundModes ?? []).filter { known.contains($0) }
        var permitted = plist?.permittedIdentifiers ?? []
        var notes: [String] = input.notes
        if plist == nil {
            // No Info.plist: what the code uses, said so.
            modes = known.filter { t.usedModes[$0] != nil }.sorted()
            permitted = Array(Set(t.registered.map(\.id) + t.submitted.map(\.id))).sorted()
            permitted += t.stubs.chooseIdentifiers(permitted: [], named: []).filter { !permitted.contains($0) }
            notes.append("no Info.plist found: background modes and permitted identifiers are what the code uses (\(modes.isEmpty ? "none" : modes.joined(separator: ", ")))")
        } else if let p = plist {
            let other = p.backgroundModes.filter { !known.contains($0) }
            if !other.isEmpty { notes.append("Info.plist's background modes \(other.joined(separator: ", ")) are not simulated by luafetch (left out of app{})") }
        }
        if plist != nil { t.stubs.chooseIdentifiers(permitted: permitted, named: Set(t.registered.map(\.id) + t.submitted.map(\.id))) }
        let profile = options.os ?? (t.needsIOS26 ? "ios26" : "ios13")
        t.appWarnings(entry, plist: plist, modes: modes, permitted: permitted, scenes: scenes, launchPath: LaunchPath.registrationsOnPath(program, entry, t))
        let appLines = t.appBlock(entry, plist: plist, modes: modes, permitted: permitted, scenes: scenes)

        // The scenario.
        let name = options.name ?? plist?.name ?? entry.appDelegate.map { _ in lastComponent(common) } ?? lastComponent(common)
        var lines: [String] = []
        // The Lua mirrors the Swift, unused locals and all (Swift's compiler warns about those).
        lines.append("-- luacheck: no max line length, no unused")
        lines.append("-- Written by `\(options.command)` (luafetch \(Version.current)) from \(sources.count) Swift file\(sources.count == 1 ? "" : "s")\(plist.map { " and \($0.path)" } ?? ""):")
        for s in sources { lines.append("--   \(s.shown)") }
        lines.append("-- Each line ends with the Swift line it came from (--@ File.swift:LINE): findings name it.")
        lines.append("-- Edit freely: this is your scenario now. docs/IMPORT.md says what is translated and how stubs work.")
        if t.weakCaptures > 0 {
            lines.append("-- [weak self] and unowned captures are kept as strong references here (Lua has no weak captures),")
            lines.append("-- so `guard let self` always succeeds.")
        }
        lines.append("--@root \(common.isEmpty ? "." : common)")
        lines.append("scenario { name = \(Literals.quote(name)), os = \(Literals.quote(profile)), seed = 1, duration = days(1) }")
        lines.append("")
        if t.readsInfoPlist {
            lines += InfoDictionary.lines(plist)
            lines.append("")
        }
        lines.append("local T = {}  -- the app's types and functions")
        lines += Translator.finish(typeLines, files: t.fileNames)
        lines += Translator.finish(memberLines, files: t.fileNames)
        if !program.typeOrder.isEmpty {
            let conforming = program.typeOrder.filter { t in t.kind != .protocol && !t.allProtocols().isEmpty && slice.hasTable(t) }
            // In calls of at most 100 arguments (a Lua call takes fewer than 250).
            for start in stride(from: 0, to: conforming.count, by: 100) {
                lines.append("swift.finish(\(conforming[start..<min(start + 100, conforming.count)].map(\.lua).joined(separator: ", ")))")
            }
        }
        lines.append("")
        lines += Translator.finish(appLines, files: t.fileNames)
        lines.append("")
        let lockNames = t.usesAppGroup ? Set(t.stubs.lockCandidates()) : []
        lines += t.stubs.stubsBlock(lockNames: lockNames)
        lines += t.stubs.sitesTable()
        lines.append("")
        lines += DefaultWorld.lines(hosts: t.hosts, modes: modes)
        let scenario = lines.joined(separator: "\n") + "\n"
        // Every unit compiled on its own (18.8.5); the whole file once more, as it will load.
        if let check = options.luaCheck, let message = check(scenario, "=scenario") {
            // The line Lua names (`scenario:LINE: ...`), so the report can say what it holds.
            var at = ""
            if let r = message.range(of: "scenario:"), let n = Int(message[r.upperBound...].prefix { $0.isNumber }), n >= 1, n <= lines.count {
                at = "; the line: " + String(lines[n - 1].trimmingCharacters(" ").prefix(200))
            }
            throw ImportError("luafetch import: the scenario written for this app does not compile (\(message)\(at)); every function compiled on its own, so this is a luafetch bug: please report it with the app's Swift")
        }

        // The report.
        var report: [String] = input.reportHead
        let total = t.counts.statements
        let untranslated = t.counts.untranslated.count
        report.append("luafetch import: \(sources.count) Swift file\(sources.count == 1 ? "" : "s")\(plist.map { ", \($0.path)" } ?? ", no Info.plist") (under \(common.isEmpty ? "." : common))")
        var entries: [String] = []
        if let d = entry.appDelegate { entries.append("\(d.name) (app delegate, \(d.file.source.shown):\(d.line))") }
        if let s = entry.sceneDelegate { entries.append("\(s.name) (scene delegate, \(s.file.source.shown):\(s.line))") }
        if let a = entry.swiftUIApp { entries.append("\(a.name) (SwiftUI App, \(a.file.source.shown):\(a.line))") }
        report.append("entry points \(entries.isEmpty ? "none found (no app delegate, scene delegate or SwiftUI App): the scenario launches an app with no handlers" : entries.joined(separator: ", "))")
        _ = total
        let unsupportedNote = untranslated > 0 ? " (\(untranslated) left unsupported)" : ""
        if slice.all {
            report.append("translated   \(grouped(slice.keptStatements)) statements in \(grouped(slice.keptFunctions)) functions (--all: every function)\(unsupportedNote); \(program.typeOrder.count) types, profile \(profile)")
        } else {
            report.append("translated   \(grouped(slice.keptStatements)) statements in \(grouped(slice.keptFunctions)) function\(slice.keptFunctions == 1 ? "" : "s") reachable from \(slice.entryPoints) entry point\(slice.entryPoints == 1 ? "" : "s")\(unsupportedNote); \(program.typeOrder.count) types, profile \(profile)")
            if slice.leftFunctions > 0 {
                report.append("left out     \(grouped(slice.leftStatements)) statements in \(grouped(slice.leftFunctions)) function\(slice.leftFunctions == 1 ? "" : "s") (not reachable from background code; --all keeps them)")
            }
        }
        let mapped = t.counts.mappedOrder.map { "\($0) ×\(t.counts.mapped[$0]!)" }
        report.append("mapped APIs  \(mapped.isEmpty ? "none" : mapped.prefix(12).joined(separator: ", ") + (mapped.count > 12 ? ", +\(mapped.count - 12) more" : ""))")
        if t.stubs.names.isEmpty {
            report.append("stubs        none")
        } else {
            report.append("stubs        \(t.stubs.names.count) name\(t.stubs.names.count == 1 ? "" : "s"), \(t.stubs.sites.count) call site\(t.stubs.sites.count == 1 ? "" : "s") (edit stubs{} in the scenario):")
            for n in t.stubs.names.prefix(20) { report.append("  \(n.name) ×\(n.calls)  \(n.first)") }
            if t.stubs.names.count > 20 { report.append("  +\(t.stubs.names.count - 20) more (all in stubs{})") }
        }
        let typed = t.stubs.typedReport()
        if !typed.isEmpty {
            let one = typed.count == 1
            report.append("typed        \(typed.count) stub value\(one ? "" : "s") passed to iOS \(one ? "is" : "are") out of the import's sight and return\(one ? "s" : "") a typed default (set the real value in stubs{}):")
            report += typed.prefix(20)
            if typed.count > 20 { report.append("  +\(typed.count - 20) more (each a result in stubs{})") }
        }
        if untranslated > 0 {
            report.append("unsupported  \(untranslated):")
            for u in t.counts.untranslated.prefix(20) { report.append("  \(u.where): \(u.what)") }
            if untranslated > 20 { report.append("  +\(untranslated - 20) more (each is an unsupported(...) line in the scenario)") }
        }
        for n in notes { report.append("note         \(n)") }
        if !t.unmodelledAppProperties.isEmpty {
            let owners = t.unmodelledAppProperties.contains { $0.hasPrefix("UIScene.") } ? "UIApplication and UIScene" : "UIApplication"
            report.append("note         \(owners) properties without a model, accepted and ignored (a read gives the last value written): "
                          + t.unmodelledAppProperties.sorted().joined(separator: ", "))
        }
        if t.weakCaptures > 0 { report.append("note         \(t.weakCaptures) [weak self]/unowned capture\(t.weakCaptures == 1 ? "" : "s") kept as strong references (Lua has no weak captures)") }
        var warnings: [String] = []
        for w in input.warnings + t.warnings { warnings.append("\(w.where): warning: \(w.text)") }
        // 18.8.6: a slice stays within 4 MiB; above it, say so (the scenario is still written).
        let bytes = scenario.utf8.count
        if bytes > Self.sliceBudget {
            let mib = Double(bytes * 10 / (1 << 20)) / 10
            warnings.append("luafetch import: warning: the scenario is \(mib) MiB, more than the 4 MiB a slice of background code should take (\(t.counts.statements) statements kept): it loads and runs, but more slowly; --target picks a smaller app target, and a report of the repository helps us keep less")
        }
        var result = ImportResult(scenario: scenario, report: report, warnings: warnings)
        if let why = options.why { result.why = builder.trace?.explain(why) ?? "" }
        return result
    }

    /// One translation of the program's kept units: the type tables, then every type's members
    /// file by file, extensions of iOS types, free functions and globals.
    static func translate(_ program: Program, slice: Slice, profile: String,
                          check: (@Sendable (String, String) -> String?)?, resources: BundleContents = BundleContents()) -> (t: Translator, typeLines: [String], memberLines: [String]) {
        let t = Translator(program: program, profile: profile, slice: slice)
        t.luaCheck = check
        t.bundle = resources
        for f in program.files { t.setFile(f) }
        t.collectExtensionStatics()
        t.typeTables()
        let typeLines = t.out
        t.out = []
        for type in program.typeOrder where t.keeps(type: type) { t.typeMembers(type) }
        for type in program.externalOrder { t.externalMembers(type) }
        t.topLevel()
        let memberLines = t.out
        t.out = []
        return (t, typeLines, memberLines)
    }

    /// `27400` as `27,400`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func lastComponent(_ path: String) -> String {
        let c = path.split(separator: "/").last.map(String.init) ?? ""
        return c.isEmpty || c == "." ? "Imported app" : c
    }
}

/// The version the header names (the command sets it).
public enum Version {
    nonisolated(unsafe) public static var current = "0.1.0"
}

extension SourceFiles {
    /// The path made absolute and free of `..` (for a stable common folder), else as given.
    static func canonicalOrSelf(_ path: String) -> String {
        let c = canonical(path)
        return c.isEmpty ? path : c
    }
}

extension StubBook {
    /// Stub names that look like a database write (taken while the app-group container is
    /// used, they hold its lock: SPEC 12.1's 0xdead10cc).
    func lockCandidates() -> [String] {
        let writes: Set<String> = ["write", "writeAsync", "asyncWrite", "inTransaction", "inDatabase", "execute", "save", "insert", "update",
                                   "perform", "performAndWait", "writeWithoutTransaction", "barrierWriteWithoutTransaction"]
        let receivers = ["Database", "DB", "Pool", "SQLite", "Realm", "Store", "Context", "Journal", "Queue"]
        return names.map(\.name).filter { n in
            let parts = n.split(separator: ".")
            guard parts.count >= 2, let m = parts.last, writes.contains(String(m)) else { return false }
            let recv = parts.dropLast().joined(separator: ".")
            return receivers.contains { recv.contains($0) }
        }
    }
}
