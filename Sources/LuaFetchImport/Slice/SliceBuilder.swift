// Builds the slice (Slice.swift, SPEC 18.8.4): a worklist over the program's declarations,
// starting at the entry points; each unit reached is scanned once for its references, and each
// reference is resolved against indexes of Program (functions by base name, properties by name,
// types by name, subclasses), narrowed by the receiver where the syntax names it. Over-
// approximates on purpose: whatever the translation can call must be kept (the importer checks
// it and widens the slice when the translation reaches something left out). Rapid type analysis
// keeps a subtype's implementation for a call through an unknown receiver, a protocol or a
// superclass only once kept code names or makes the subtype. Not followed: what only SwiftUI
// draws, closures a stub keeps for an event, inactive `#if` clauses and branches the release
// build never takes (References). Uses Program, EntryPoints, AppShape's delegate rows,
// SwiftUILift and StubBook's closure rules.
import SwiftSyntax

final class SliceBuilder {
    let program: Program
    let slice: Slice
    private var queue: [(Syntax, TypeDecl?)] = []
    /// Every function, method and initializer by base name (initializers under "init"), with
    /// its type (nil: free function).
    var functions: [String: [(TypeDecl?, FuncInfo)]] = [:]
    /// Every property (globals included, with no type) by name.
    var properties: [String: [(TypeDecl?, PropertyInfo)]] = [:]
    var subclasses: [ObjectIdentifier: [TypeDecl]] = [:]
    var adopters: [ObjectIdentifier: [TypeDecl]] = [:]
    /// Subscripts by type.
    private var subscripts: [ObjectIdentifier: [SubscriptDeclSyntax]] = [:]
    /// Subscripts whose first parameter has a label (`subscript(safeIndex i: Int)`), by label:
    /// `x[safeIndex: i]` reaches them whatever x is (an extension of Array's among them).
    private var labelledSubscripts: [String: [(TypeDecl, SubscriptDeclSyntax)]] = [:]
    /// The file of each parsed tree (a node's root), for the module it belongs to.
    private var files: [SyntaxIdentifier: ParsedFile] = [:]
    /// The type of each function (nil: a free function).
    private var owners: [SyntaxIdentifier: TypeDecl?] = [:]
    /// What code reached names on values of unknown type (`x.refresh()`, `x.items`): a member of
    /// the app's types is kept for these only once its type is reached (named by code reached, or
    /// made by the system), as in rapid type analysis: an object of a type no code reached names
    /// does not exist in the run. Calls by base name with the argument labels seen; member reads,
    /// and functions used as values, by name.
    private var unknownCalls: [String: [[String?]]] = [:]
    /// Why each unit was kept, when asked for (`traceWhy`).
    private(set) var trace: SliceTrace?
    /// Records why each unit is kept from now on (SliceTrace; `LUAFETCH_SLICE_WHY`).
    func traceWhy() { trace = SliceTrace(files: files) }
    private var unknownMembers = Set<String>(), unknownValues = Set<String>()
    /// The same for `.name` and `.name(...)` with a leading dot: a static member of the type the
    /// context expects, which is a type code reached names (its declaration, a parameter's or a
    /// property's annotation), so kept once that type is reached.
    private var dotCalls: [String: [[String?]]] = [:]
    private var dotMembers = Set<String>()
    /// Caches of `inheritors(of:)`, `familySet` and `ancestorSet` (SliceBuilder+Families).
    var inheritorCache: [String: Set<ObjectIdentifier>] = [:]
    var familyCache: [ObjectIdentifier: Set<ObjectIdentifier>] = [:], ancestorCache: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    /// Members read or called through a typed receiver or `self`, whose implementation may be a
    /// subtype's (an adopter of the protocol, a subclass): a subtype's is kept once the subtype
    /// is made, as in rapid type analysis (a mock adopting the protocol that no code reached
    /// makes is never the receiver). Labels nil: a member read.
    private var dispatches: [String: [(labels: [String?]?, asValue: Bool, root: Root)]] = [:]
    /// A dispatch's static type: one of the files' types, or an iOS type the app's types inherit.
    private enum Root: Equatable {
        case type(TypeDecl), sdk(String)
        static func == (a: Root, b: Root) -> Bool {
            switch (a, b) {
            case (.type(let x), .type(let y)): return x === y
            case (.sdk(let x), .sdk(let y)): return x == y
            default: return false
            }
        }
    }
    private func below(_ root: Root) -> Set<ObjectIdentifier> {
        switch root {
        case .type(let t): return familySet(t)
        case .sdk(let name): return inheritors(of: name)
        }
    }

    init(program: Program, all: Bool) {
        self.program = program
        slice = Slice(all: all)
        for (name, list) in program.functions { for f in list { functions[name, default: []].append((nil, f)) } }
        for t in program.typeOrder + program.externalOrder {
            for (base, list) in t.methods { for f in list { functions[base, default: []].append((t, f)) } }
            for f in t.inits { functions["init", default: []].append((t, f)) }
            for (name, p) in t.properties { properties[name, default: []].append((t, p)) }
            if let s = t.superclass { subclasses[ObjectIdentifier(s), default: []].append(t) }
            for p in t.protocols { adopters[ObjectIdentifier(p), default: []].append(t) }
            for (_, block) in t.parts {
                for d in program.members(block) {
                    guard let s = d.as(SubscriptDeclSyntax.self) else { continue }
                    subscripts[ObjectIdentifier(t), default: []].append(s)
                    if let first = s.parameterClause.parameters.first, first.secondName != nil, first.firstName.text != "_" {
                        labelledSubscripts[first.firstName.text, default: []].append((t, s))
                    }
                }
            }
        }
        for (_, globals) in program.globalsByModule.sorted(by: { $0.key < $1.key }) {
            for (name, g) in globals { properties[name, default: []].append((nil, g)) }
        }
        for list in functions.values { for (t, f) in list { owners[f.node.id] = t } }
        for f in program.files { files[Syntax(f.tree).id] = f }
    }

    /// The slice reached from the entry points (or everything, with `all`).
    func build(_ entry: EntryPoints) -> Slice {
        if !slice.all {
            if let d = entry.appDelegate {
                makeBySystem(d)
                for row in AppShape.appDelegateRows { for f in methods(in: family(d, down: false), base: nil) where f.selector == row.selector { reach(f, d) } }
                slice.entryPoints += 1
            }
            if let s = entry.sceneDelegate {
                makeBySystem(s)
                for row in AppShape.sceneRows { for f in methods(in: family(s, down: false), base: nil) where f.selector == row.selector { reach(f, s) } }
                slice.entryPoints += 1
            }
            if let a = entry.swiftUIApp { makeBySystem(a); slice.entryPoints += 1 }
            for t in program.typeOrder {
                let calls = SwiftUILift.calls(in: t)
                guard !calls.isEmpty else { continue }
                makeBySystem(t)
                for c in calls {
                    queue.append((Syntax(c.arguments), t))
                    if let tc = c.trailingClosure { queue.append((Syntax(tc), t)) }
                    slice.entryPoints += 1
                }
            }
            // Top-level code of main.swift runs at launch.
            for f in program.files where f.source.shown.hasSuffix("main.swift") {
                for item in program.items(f.tree.statements) where !item.item.is(DeclSyntax.self) { queue.append((Syntax(item), nil)) }
            }
            drain()
        }
        count()
        return slice
    }

    /// Adds what the translation reached that the slice left out, and what it reaches in turn.
    func widen(functions fs: [FuncInfo], made ms: [TypeDecl], properties ps: [(PropertyInfo, TypeDecl)] = []) {
        for f in fs { reach(f, owners[f.node.id] ?? nil) }
        for (p, t) in ps { reach(p, t) }
        for t in ms { make(t) }
        drain()
        count()
    }

    // MARK: - The worklist

    private func drain() {
        while let (node, owner) = queue.popLast() {
            if let f = files[node.root.id] { program.module = f.source.module; program.filePath = f.source.path }
            trace?.scanning(node)
            for r in ReferenceCollector.references(of: node, program: program, owner: owner, neverCalls: neverCalls) { trace?.resolving(r); resolve(r, owner) }
        }
    }

    private func reach(_ f: FuncInfo, _ owner: TypeDecl?) {
        if let owner, Self.drawnBySwiftUI(f.base, f.isStatic, owner) { return }
        guard slice.insert(unit: f.node.id) else { return }
        trace?.note(Syntax(f.node))
        if let owner { reachType(owner) }
        queue.append((Syntax(f.node), owner))
    }

    private func reach(_ p: PropertyInfo, _ owner: TypeDecl?) {
        if let owner, Self.drawnBySwiftUI(p.name, p.isStatic, owner) { return }
        guard slice.insert(unit: p.binding.id) else { return }
        trace?.note(Syntax(p.binding))
        if let owner { reachType(owner) }
        queue.append((Syntax(p.binding), owner))
        queue.append((Syntax(p.decl.attributes), owner))
    }

    /// What only SwiftUI calls, to draw a screen or a preview: a view's, scene's or modifier's
    /// `body` and a preview provider's `previews`. Views are not simulated (the handlers
    /// SwiftUILift lifts out of a body are entry points of their own), so these never run.
    static func drawnBySwiftUI(_ name: String, _ isStatic: Bool, _ t: TypeDecl) -> Bool {
        if name == "body", !isStatic { return ["View", "Scene", "App", "ViewModifier", "Shape"].contains { t.conforms(to: $0) } }
        if name == "previews", isStatic { return t.conforms(to: "PreviewProvider") }
        return false
    }

    /// The type's table: its outer type, superclass and protocols too; and its members that code
    /// reached already names on values of unknown type.
    private func reachType(_ t: TypeDecl) {
        guard slice.insert(type: t) else { return }
        let saved = trace?.enter("reached", t); defer { if let saved { trace?.leave(saved) } }
        if !t.external {
            for (base, list) in t.methods {
                let asValue = unknownValues.contains(base)
                let calls = unknownCalls[base] ?? []
                guard asValue || !calls.isEmpty else { continue }
                for f in list where asValue || calls.contains(where: { f.accepts($0) || !anyAccepts(base, $0) }) { reach(f, t) }
            }
            for (name, p) in t.properties where unknownMembers.contains(name) || unknownCalls[name] != nil { reach(p, t) }
            for (base, list) in t.methods {
                guard let calls = dotCalls[base] else { continue }
                for f in list where f.isStatic && calls.contains(where: { f.accepts($0) }) { reach(f, t) }
            }
            for (name, p) in t.properties where p.isStatic && (dotMembers.contains(name) || dotCalls[name] != nil) { reach(p, t) }
        }
        if let o = t.outer { reachType(o) }
        if let s = t.superclass { reachType(s) }
        for p in t.protocols { reachType(p) }
        for name in t.inherited { if let x = program.type(named: name, from: t), x !== t { reachType(x) } }
        // A swift-dependencies key: `swift.dependencyValues()` reads its `liveValue`.
        if t.inherited.contains("DependencyKey"), let live = t.properties["liveValue"] { reach(live, t) }
    }

    /// A type that is made: its stored state, subscripts and implicit members; its superclass's.
    /// A type UIKit or SwiftUI makes (a delegate, the App, a view made for its handlers): with
    /// its initializers that take no argument (openHAB's `override init()` set a static the
    /// launch then read).
    private func makeBySystem(_ t: TypeDecl) {
        make(t)
        for i in t.inits where i.accepts([]) { reach(i, t) }
    }

    private func make(_ t: TypeDecl) {
        reachType(t)
        guard slice.insert(made: t) else { return }
        let saved = trace?.enter("made", t); defer { if let saved { trace?.leave(saved) } }
        catchUpDispatches(t)
        if let s = t.superclass { make(s); for i in s.inits { reach(i, s) } }
        for name in t.propertyOrder {
            guard let p = t.properties[name], !p.isStatic else { continue }
            if p.kind == .stored || p.kind == .observed || p.wrapper != nil { reach(p, t) }
        }
        for s in subscripts[ObjectIdentifier(t)] ?? [] where slice.insert(unit: s.id) { queue.append((Syntax(s), t)) }
        for (base, list) in t.methods where ImplicitMembers.names.contains(base) { for f in list { reach(f, t) } }
        for name in ImplicitMembers.names { if let p = t.properties[name] { reach(p, t) } }
        for list in t.methods.values { for f in list where ImplicitMembers.isCallback(f) { reach(f, t) } }
        for p in t.allProtocols() { reachType(p); for (base, list) in p.methods where ImplicitMembers.names.contains(base) { for f in list { reach(f, p) } } }
    }

    /// The members of a type just made that calls through a supertype already named.
    private func catchUpDispatches(_ t: TypeDecl) {
        guard !dispatches.isEmpty else { return }
        let id = ObjectIdentifier(t)
        for (base, list) in t.methods {
            for e in dispatches[base] ?? [] where below(e.root).contains(id) {
                for f in list where e.labels.map({ f.accepts($0) || !anyAccepts(base, $0) }) ?? e.asValue { reach(f, t) }
            }
        }
        for (name, p) in t.properties where dispatches[name]?.contains(where: { below($0.root).contains(id) }) == true { reach(p, t) }
    }

    /// The type a typed receiver or `self` names, whose subtypes' members a dispatch may reach.
    private func dispatchRoot(_ receiver: Receiver, _ owner: TypeDecl?) -> Root? {
        switch receiver {
        case .typed(let written):
            let name = Self.instanceType(written)
            return program.type(named: name, from: owner).map { .type($0) } ?? .sdk(name)
        case .implicitSelf: return owner.map { .type($0) }
        default: return nil
        }
    }

    private func noteDispatch(_ name: String, _ labels: [String?]?, _ asValue: Bool, _ receiver: Receiver, _ owner: TypeDecl?) {
        guard let root = dispatchRoot(receiver, owner) else { return }
        if !(dispatches[name] ?? []).contains(where: { $0.root == root && $0.labels == labels && $0.asValue == asValue }) {
            dispatches[name, default: []].append((labels, asValue, root))
        }
    }

    /// `PixelFiring` of a metatype's name (`PixelFiring.Type`, `.Protocol`), else the name.
    static func instanceType(_ name: String) -> String {
        for suffix in [".Type", ".Protocol"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    /// Whether a subtype's members can be a dispatch's: it is made (an enum's cases and a
    /// protocol's extensions need no initializer).
    private func instantiated(_ t: TypeDecl) -> Bool { t.kind == .enum || t.kind == .protocol || t.external || slice.isMade(t) }

    /// A call that is a stub never calling its closures (StubBook.callsClosures, as the
    /// translation decides it): an initializer of a type the files do not declare, or an `add…`
    /// handler or `register…` call no function of the files is named like. NotificationCenter's
    /// observers, BGTask registrations and the Swift and Dispatch types the translation maps stay
    /// walked (their closures are entry points or run at once).
    private func neverCalls(_ base: String, _ receiver: Receiver) -> Bool {
        if base == "init" {
            // Not one of the app's types, nested ones included (`ConfirmationModal.Info(onConfirm:)`
            // is written `.type("Info")`: its closures are the app's to call).
            guard case .type(let n) = receiver, program.type(named: n, from: nil) == nil,
                  program.typesBySimpleName[String(n.split(separator: ".").last ?? "")] == nil else { return false }
            return !StubBook.initializerRunsClosures.contains(n) && !Self.mappedWithClosures.contains(n)
        }
        return StubBook.keepsClosures(base) && base != "register" && !base.contains("Observer") && functions[base] == nil
    }
    static let mappedWithClosures: Set<String> = [
        "Array", "ContiguousArray", "Dictionary", "Set", "String", "Optional", "Result", "Task", "DispatchWorkItem",
        "BlockOperation", "Thread", "Timer", "Mutex", "OSAllocatedUnfairLock", "DispatchQueue", "OperationQueue",
    ]

    // MARK: - Resolving a reference

    private func resolve(_ r: Reference, _ owner: TypeDecl?) {
        switch r {
        case .type(let name):
            if let t = program.type(named: name, from: owner) { reachType(t) }
            // A global written with a capital (home-assistant's `var Current: AppEnvironment`) reads
            // like a type name: it is the global.
            else { for (t, p) in properties[name] ?? [] where t == nil { reach(p, t) } }
        case .name(let name, let asValue):
            if let t = program.type(named: name, from: owner) { reachType(t) }
            if let owner {
                let fam = familySet(owner)
                var found = false
                for (t, p) in properties[name] ?? [] where t.map({ fam.contains(ObjectIdentifier($0)) }) ?? false { reach(p, t); found = true }
                if asValue { for (t, f) in functions[name] ?? [] where t.map({ fam.contains(ObjectIdentifier($0)) }) ?? false { reach(f, t); found = true } }
                if found { return }
            }
            for (t, p) in properties[name] ?? [] where t == nil || t!.external { reach(p, t) }
            if asValue { for (t, f) in functions[name] ?? [] where t == nil { reach(f, t) } }
        case .member(let name, let receiver, let asValue):
            if receiver == .other { unknownMembers.insert(name); if asValue { unknownValues.insert(name) } }
            if receiver == .leadingDot { dotMembers.insert(name) }
            noteDispatch(name, nil, asValue, receiver, owner)
            for (t, p) in candidates(properties[name] ?? [], receiver, owner) where receiver != .leadingDot || p.isStatic { reach(p, t) }
            // `.name` is a static property or an enum case, never a method used as a value.
            if asValue && receiver != .leadingDot {
                for (t, f) in candidates(functions[name] ?? [], receiver, owner) { reach(f, t) }
            }
            if case .type(let tn) = receiver, let t = program.type(named: tn, from: owner), let nested = t.nested[name] { reachType(nested) }
        case .call(let base, let labels, let receiver):
            if base == "subscript", let label = labels.first ?? nil {
                for (t, s) in labelledSubscripts[label] ?? [] where slice.insert(unit: s.id) {
                    reachType(t)
                    queue.append((Syntax(s), t))
                }
                return
            }
            if base == "init" {
                resolveInit(labels, receiver, owner)
                return
            }
            if receiver == .other, !(unknownCalls[base] ?? []).contains(labels) { unknownCalls[base, default: []].append(labels) }
            if receiver == .leadingDot, !(dotCalls[base] ?? []).contains(labels) { dotCalls[base, default: []].append(labels) }
            noteDispatch(base, labels, false, receiver, owner)
            let all = (functions[base] ?? []).filter { $0.1.base == base && (receiver != .leadingDot || $0.1.isStatic) }
            var list = candidates(all, receiver, owner)
            let fitting = list.filter { $0.1.accepts(labels) }
            // `.name(...)` that no static function takes is an enum case with associated values.
            if !fitting.isEmpty || receiver == .leadingDot { list = fitting }
            for (t, f) in list { reach(f, t) }
            // A property holding a closure (`self.handler()`).
            for (t, p) in candidates(properties[base] ?? [], receiver, owner) { reach(p, t) }
        }
    }

    private func resolveInit(_ labels: [String?], _ receiver: Receiver, _ owner: TypeDecl?) {
        var target: TypeDecl?
        switch receiver {
        case .type(let name): target = program.type(named: name, from: owner)
        case .implicitSelf: target = owner
        case .superclass: target = owner?.superclass
        default: target = nil
        }
        guard let t = target else { return }
        if t.kind == .protocol {
            // `Self.init(...)` in a protocol extension makes whichever type adopts it.
            for a in family(t, down: true) where a.kind != .protocol { makeWithInit(a, labels) }
            return
        }
        makeWithInit(t, labels)
    }

    private func makeWithInit(_ t: TypeDecl, _ labels: [String?]) {
        make(t)
        let fitting = t.inits.filter { $0.accepts(labels) }
        for i in fitting.isEmpty ? t.inits : fitting { reach(i, t) }
    }

    /// The declarations of `list` a reference can mean, given how its receiver is written.
    private func candidates<D: SliceMember>(_ list: [(TypeDecl?, D)], _ receiver: Receiver, _ owner: TypeDecl?) -> [(TypeDecl?, D)] {
        func within(_ fam: Set<ObjectIdentifier>) -> [(TypeDecl?, D)] { list.filter { d in d.0.map { fam.contains(ObjectIdentifier($0)) } ?? false } }
        /// Within the root's family: its own and its supertypes' members, its subtypes' once made
        /// (statics at once: a metatype value, `firing: Firing.Type = Pixel.self`, needs no instance).
        func dispatched(_ root: TypeDecl) -> [(TypeDecl?, D)] {
            let up = ancestorSet(root)
            return within(familySet(root)).filter { d in d.1.isStatic || up.contains(ObjectIdentifier(d.0!)) || instantiated(d.0!) }
        }
        switch receiver {
        case .type(let name):
            if let t = program.type(named: name, from: owner) { return within(familySet(t)) }
            // An iOS or Swift type: only what extensions of it add.
            if let ext = program.externals[name] ?? name.split(separator: ".").last.flatMap({ program.externals[String($0)] }) {
                return list.filter { $0.0 === ext }
            }
            return []
        case .typed(let written):
            // A metatype (`firing: PixelFiring.Type`) reaches what its type's family declares.
            let name = Self.instanceType(written)
            // An optional's members the app's `extension Optional` adds too (`userSession.isNil`).
            if let t = program.type(named: name, from: owner) {
                guard let optional = program.externals["Optional"] else { return dispatched(t) }
                return dispatched(t) + list.filter { $0.0 === optional }
            }
            // A value of an iOS type: the app's subclasses and adopters of it once made, and
            // what extensions of it add.
            return within(inheritors(of: name)).filter { instantiated($0.0!) }
        case .implicitSelf:
            guard let owner else { return list.filter { $0.0 == nil } }
            let own = dispatched(owner)
            if !own.isEmpty { return own }
            // Outer types' statics, free functions.
            var o = owner.outer
            while let x = o {
                let found = within(familySet(x))
                if !found.isEmpty { return found }
                o = x.outer
            }
            return list.filter { $0.0 == nil }
        case .superclass:
            guard let s = owner?.superclass else { return [] }
            return within(ancestorSet(s))
        case .leadingDot:
            return list.filter { d in d.0.map { $0.external || slice.contains(type: $0) } ?? false }
        case .other:
            // A type's member, once its type is reached (reachType catches up); an extension of
            // an iOS or Swift type's at once (any value may be one).
            return list.filter { d in d.0.map { $0.external || slice.contains(type: $0) } ?? false }
        }
    }

    /// Whether any function of this base name takes these labels (when none does, a call reaches
    /// them all, as `resolve` does).
    private func anyAccepts(_ base: String, _ labels: [String?]) -> Bool {
        (functions[base] ?? []).contains { $0.1.base == base && $0.1.accepts(labels) }
    }

    private func methods(in types: [TypeDecl], base: String?) -> [FuncInfo] {
        types.flatMap { t in base.map { t.methods[$0] ?? [] } ?? t.methods.values.flatMap { $0 } }
    }
}
