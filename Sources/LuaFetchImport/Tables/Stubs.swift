// The stubs of an import (SPEC 18.4, 18.7.1, 18.7.5, 18.7.11): every call site of code the files
// do not define, numbered in the order met, with its name, Swift location, whether its result is
// used as an optional, its closures (error parameters, success flags, Results, failure labels),
// and whether it is awaited or tried; then the `swift.sites{}` table the runtime reads and the
// `stubs{}` block the user edits (names in order of first use, each with its first file:line).
// Whether a site's result can be nil (18.9.1, 18.9.2): as declared, when the app declares the
// member (`declared`: a stub standing for a unit that could not be translated, LoadCheck) or
// the SDK's table does (Signatures); otherwise only where the code itself
// proves an optional (`if let`, `guard let`, `?.`, `??`, `!`, `== nil` on the call itself), and
// never for an initializer.
import SwiftSyntax

final class StubBook {
    struct Site {
        let name: String
        let location: String
        var optional: Bool
        var closures: [StubClosure]
        var awaited: Bool
        var tried: Bool
        /// Its optionality comes from a declaration; the code's use does not change it.
        var declared: Bool
        /// A property read the code uses as a Bool (a condition): drawn both ways; or a call the SDK
        /// declares `-> Bool`: true until a loop polls it (`bool = true`; stubs.lua).
        var bool = false
        /// Files of a fresh install (failures.lua's `boolAnswer`): `fileExists(atPath:)` asks whether
        /// its path exists; a write (`Data.write(to:)`, `createFile(atPath:)`, `copyItem(at:to:)`)
        /// makes the path of its argument number `writes` exist.
        var exists = false
        var writes: Int?
    }
    private(set) var sites: [Site] = []

    /// What a call does to the files, by its last name component and labels.
    static func fileRole(_ name: String, labels: [String]?) -> (exists: Bool, writes: Int?) {
        guard let labels, let last = name.split(separator: ".").last else { return (false, nil) }
        let first = labels.first ?? "_", second = labels.count > 1 ? labels[1] : "_"
        if last == "fileExists" && first == "atPath" { return (true, nil) }
        if (last == "write" && (first == "to" || first == "toFile")) || (last == "createFile" && first == "atPath")
            || (last == "createDirectory" && (first == "at" || first == "atPath")) { return (false, 1) }
        if (last == "copyItem" || last == "moveItem") && (second == "to" || second == "toPath") { return (false, 2) }
        return (false, nil)
    }
    /// Names in order of first use, with the first location and how many calls.
    private(set) var names: [(name: String, first: String, calls: Int)] = []
    private var nameIndex: [String: Int] = [:]
    /// The last site made for each name: `markOptional` applies to it.
    private var lastSite: [String: Int] = [:]

    /// A new call site; returns its number (1-based).
    /// `labels`: the call's argument labels (`_` for none), nil for a property read; `declared`:
    /// `optional` is the member's declared result (a stub shaped by the app's declaration).
    func site(_ name: String, where location: String, optional: Bool, node: Syntax, closures: [StubClosure] = [],
              awaited: Bool = false, tried: Bool = false, labels: [String]? = nil, declared: Bool = false) -> Int {
        var optional = optional, declared = declared, bool = false
        if let sig = Signatures.lookup(name, labels: labels) {
            // A declaration made by what the bundle guarantees keeps its non-nil result.
            if !declared { optional = sig.optional }
            declared = true
            bool = sig.bool
        } else if !declared, name.hasSuffix(".init") {
            optional = false
            declared = true
        }
        let role = Self.fileRole(name, labels: labels)
        sites.append(Site(name: name, location: location, optional: optional, closures: closures, awaited: awaited, tried: tried,
                          declared: declared, bool: bool, exists: role.exists, writes: role.writes))
        if let i = nameIndex[name] {
            names[i].calls += 1
            undo.append(.calls(i, previousLast: lastSite[name]))
        } else {
            nameIndex[name] = names.count
            names.append((name, location, 1))
            undo.append(.name(name))
        }
        lastSite[name] = sites.count
        return sites.count
    }

    // Sites made while translating code that is not emitted (the target of an assignment, read
    // only for its type) are taken back.
    private enum Undo { case name(String), calls(Int, previousLast: Int?) }
    private var undo: [Undo] = []
    struct Checkpoint { let sites: Int; let undo: Int }
    func checkpoint() -> Checkpoint { Checkpoint(sites: sites.count, undo: undo.count) }
    func rollback(to c: Checkpoint) {
        while undo.count > c.undo {
            switch undo.removeLast() {
            case .name(let n):
                names.removeLast()
                nameIndex[n] = nil
                lastSite[n] = nil
            case .calls(let i, let previous):
                names[i].calls -= 1
                lastSite[names[i].name] = previous
            }
        }
        sites.removeLast(sites.count - c.sites)
    }

    /// The result of the most recent site of `name` is used as an optional by the code itself
    /// (`?.`, `??`, `== nil` on it; 18.9.2), unless a declaration decided.
    func markOptional(_ name: String) {
        if let i = lastSite[name], !sites[i - 1].declared { sites[i - 1].optional = true }
    }

    /// Calls whose closure runs before they return, by their name: a lock's or a database
    /// queue's critical section (`locked.mutate { $0.x = 1 }`, GRDB's `read`/`write`, FMDB's
    /// `inDatabase`, Core Data's `performAndWait`). A stub of one calls its closures at once
    /// (`sync = true`), so what the closure assigns is there after the call (Loop's
    /// `mutateSettings` read the old value its `mutate` closure set), holding its lock if it has
    /// one only while they run. Others run them later.
    static let synchronousClosureCalls: Set<String> = [
        "mutate", "withLock", "withValue", "withMutableValue", "withCriticalRegion", "locked", "synchronized",
        "sync", "performAndWait", "performBlockAndWait", "read", "write", "unsafeRead", "unsafeWrite",
        "inDatabase", "inTransaction", "inSavePoint", "modify", "access", "transaction", "barrierSync",
        // NSFileCoordinator's accessor runs before `coordinate(...)` returns (cryptomator's
        // `dbPool!` after `coordinate(writingItemAt:...) { dbPool = ... }`).
        "coordinate",
    ]

    /// Whether a stub of `name` calls the closures it is handed. An initializer keeps its closures
    /// for later (a handler, an event mapping, a provider): a stub of one does not call them, but
    /// for the types that run their body at once (`initializerRunsClosures`). Nor do the calls
    /// whose closures UIKit runs only when the person acts (a tap, a swipe, a menu opened) or when
    /// it draws, which luafetch does not simulate. (deltachat's view controller built a
    /// `UIAction` menu whose handler shared the screen, and the stub's call of it made another
    /// view controller at every launch; duckduckgo's `EventMapping<Events> { event, ... in }` ran
    /// its switch on an opaque event, left its `Pixel.Event` nil and crashed.)
    static func callsClosures(_ name: String) -> Bool {
        if name.hasSuffix(".init") { return initializerRunsClosures.contains(String(name.dropLast(5))) }
        if let last = name.split(separator: ".").last, keepsClosures(String(last)) { return false }
        return !userEventClosureCalls.contains(name)
    }

    /// Whether a stub call of this base name keeps its closures for later. A registration keeps
    /// its closure for whatever later calls it (GRDB's `migrator.registerMigration("v1") { db in
    /// ... }` runs inside `migrate`, not at once: cryptomator's migrations ran at a drawn time and
    /// held its database lock at suspension). A handler added for an event runs when its event
    /// comes: a remote command (pocket-casts's `MPRemoteCommandCenter.shared().playCommand.addTarget
    /// { event in ... }` ran each at launch, skipping, seeking and stopping playback), a URL route
    /// (its `JLRoutes.global().addRoute` handlers opened episodes at launch), a state machine's
    /// error handler (element-x's `stateMachine.addErrorHandler { fatalError(...) }` crashed each
    /// launch), a listener.
    static func keepsClosures(_ base: String) -> Bool {
        if base.hasPrefix("register") { return true }
        return base.hasPrefix("add") && eventHandlerWords.contains(where: { base.contains($0) })
    }
    /// Whether a stub of `name` runs its closures before it returns: a critical section
    /// (`synchronousClosureCalls`) or an initializer whose body runs at once.
    static func runsClosuresBeforeReturning(_ name: String) -> Bool {
        if name.hasSuffix(".init") { return initializerRunsClosuresAtOnce.contains(String(name.dropLast(5))) }
        return name.split(separator: ".").last.map { synchronousClosureCalls.contains(String($0)) } ?? false
    }
    /// Of the initializers that run their closures (`initializerRunsClosures`), those whose body
    /// runs before the initializer returns: a PromiseKit `Promise`'s
    /// (home-assistant's background-task wrapper began its task inside `Promise { seal in ... }`
    /// and its `tap` ran first, found no task to end, and the task expired in every run). Combine's
    /// `Future` runs its body at once too, but run so, mastodon's `@Published` pipeline of
    /// `Future`s kept didFinishLaunching busy past the watchdog in 95 % of explore's runs (a false
    /// finding not read to its cause): it stays later, for now.
    static let initializerRunsClosuresAtOnce: Set<String> = ["Promise"]
    static let initializerRunsClosures: Set<String> = [
        "Future", "Deferred", "AsyncStream", "AsyncThrowingStream", "Promise", "Single", "Maybe", "Completable",
        "Observable", "Task", "DispatchWorkItem", "BlockOperation",
    ]
    /// `add…` calls that keep a handler for an event (`addTarget`, `addRoute`, `addErrorHandler`
    /// of a state machine, `addListener`, `addObserver`, `addAction`).
    static let eventHandlerWords = ["Target", "Route", "Handler", "Listener", "Observer", "Action"]
    static let userEventClosureCalls: Set<String> = ["UIDeferredMenuElement.uncached", "UIContextMenuInteraction.init"]

    /// The most recent site of `name` is a property read the code uses as a Bool.
    func markBool(_ name: String) {
        if let i = lastSite[name] { sites[i - 1].bool = true }
    }

    var isEmpty: Bool { sites.isEmpty }

    /// Stubs whose value the code passes where a mapped API takes a number or an identifier, and
    /// the typed default each returns (issue 38.7; TypedDefaults).
    private(set) var typed: [String: TypedDefault] = [:]
    /// Task identifiers chosen for stubs typed `.taskIdentifier` (`chooseIdentifiers`).
    private var identifiers: [String: String] = [:]

    /// `name`'s value is passed as `value` (the first kind wins).
    func type(_ name: String, _ value: TypedDefault) {
        if typed[name] == nil { typed[name] = value }
    }

    /// The Lua a typed stub returns.
    func typedResult(_ name: String) -> String? {
        guard let v = typed[name] else { return nil }
        if let lua = v.lua { return lua }
        if v == .taskIdentifier { return identifiers[name].map(Literals.quote) }
        return Literals.quote(name)
    }

    /// Task identifiers for the stubs passed as one, in order of first use: the Info.plist's
    /// permitted identifiers that no code registers or submits by name, in its order; when they
    /// run out, the first permitted one; with none, the stub's name (under a permitted wildcard's
    /// prefix, `com.example.*`, if there is one). Returns the identifiers chosen.
    @discardableResult
    func chooseIdentifiers(permitted: [String], named: Set<String>) -> [String] {
        let exact = permitted.filter { !$0.hasSuffix("*") }
        var free = exact.filter { !named.contains($0) }
        let prefix = permitted.first { $0.hasSuffix(".*") }.map { String($0.dropLast()) } ?? ""
        var chosen: [String] = []
        for n in names where typed[n.name] == .taskIdentifier {
            let id = free.isEmpty ? (exact.first ?? prefix + n.name) : free.removeFirst()
            identifiers[n.name] = id
            chosen.append(id)
        }
        return chosen
    }

    /// The report's lines for the typed stubs, in order of first use.
    func typedReport() -> [String] {
        names.compactMap { n in
            guard let v = typed[n.name], let lua = typedResult(n.name) else { return nil }
            return "  \(n.name) = \(lua): \(v.what), passed to iOS at \(n.first)"
        }
    }

    /// `swift.sites { ... }`: what the runtime knows of each call site.
    func sitesTable() -> [String] {
        guard !sites.isEmpty else { return [] }
        var out = ["-- Call sites of the stubs above, in order (the runtime's record; regenerate rather than edit)."]
        out.append("swift.sites {")
        for s in sites {
            var fields = [Literals.quote(s.name), Literals.quote(s.location)]
            if s.optional { fields.append("opt = true") }
            if s.awaited { fields.append("await = true") }
            if s.tried { fields.append("throws = true") }
            if s.bool { fields.append("bool = true") }
            if s.exists { fields.append("exists = true") }
            if let w = s.writes { fields.append("writes = \(w)") }
            let canFail = s.tried || s.closures.contains { $0.failure || $0.kinds.contains { $0 != nil } }
            if canFail { fields.append("fails = true") }
            if s.closures.contains(where: \.failure) { fields.append("hasFailureClosure = true") }
            if !s.closures.isEmpty, Self.runsClosuresBeforeReturning(s.name) { fields.append("sync = true") }
            if !s.closures.isEmpty {
                let cs = s.closures.map { c -> String in
                    var f = ["index = \(c.index)", "params = \(c.params)"]
                    if c.kinds.contains(where: { $0 != nil }) {
                        f.append("kinds = { " + c.kinds.map { $0.map(Literals.quote) ?? "false" }.joined(separator: ", ") + " }")
                    }
                    if c.failure { f.append("failure = true") }
                    return "[\(c.index)] = { \(f.joined(separator: ", ")) }"
                }
                fields.append("closures = { \(cs.joined(separator: ", ")) }")
            }
            out.append("  { \(fields.joined(separator: ", ")) },")
        }
        out.append("}")
        return out
    }

    /// `stubs{ ... }`: every stub with its defaults, for the user to edit.
    func stubsBlock(lockNames: Set<String>) -> [String] {
        guard !names.isEmpty else { return [] }
        var out = [
            "-- Stubs: calls into code the imported files do not define (docs/IMPORT.md). Each runs for `seconds`",
            "-- (default { 0.01, 10 }; explore draws from { 0.001, 120 } unless you fix it), returns `result`",
            "-- (\"opaque\": a value whose every field and call is again a stub; \"nil\"; or a Lua value), calls",
            "-- each closure `calls` times (default 1). `blocking = true`: the call itself takes `seconds` on",
            "-- the calling thread. `lock = \"sharedContainer\"`: it holds the app-group container's lock",
            "-- meanwhile (`\"ifSharedContainer\"`, the import's guess for a database write: only when the",
            "-- database was opened on a path in the app-group container). Edit to match your SDKs; a later",
            "-- stubs{} adds to this one and wins.",
            "stubs {",
        ]
        for n in names {
            let lock = lockNames.contains(n.name) ? "lock = \"ifSharedContainer\" " : ""
            let result = typedResult(n.name).map { "result = \($0) " } ?? ""
            let why = typed[n.name].map { "; \($0.what) the import cannot see: set its real value" } ?? ""
            out.append("  [\(Literals.quote(n.name))] = { \(lock)\(result)},  -- \(n.first)\(n.calls > 1 ? " (+\(n.calls - 1) more)" : "")\(why)")
        }
        out.append("}")
        return out
    }
}
