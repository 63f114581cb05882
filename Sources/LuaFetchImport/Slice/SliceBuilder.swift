// Builds the slice (Slice.swift, SPEC 18.8.4): a worklist over the program's declarations,
// starting at the entry points; each unit reached is scanned once for its references, and each
// reference is resolved against indexes of Program (functions by base name, properties by name,
// types by name, subclasses), narrowed by the receiver where the syntax names it. Over-
// approximates on purpose: whatever the translation can call must be kept (the importer checks
// it and widens the slice when the translation reaches something left out). Uses Program,
// EntryPoints, AppShape's delegate rows and SwiftUILift.
import SwiftSyntax

final class SliceBuilder {
    let program: Program
    let slice: Slice
    private var queue: [(Syntax, TypeDecl?)] = []
    /// Every function, method and initializer by base name (initializers under "init"), with
    /// its type (nil: free function).
    private var functions: [String: [(TypeDecl?, FuncInfo)]] = [:]
    /// Every property (globals included, with no type) by name.
    private var properties: [String: [(TypeDecl?, PropertyInfo)]] = [:]
    private var subclasses: [ObjectIdentifier: [TypeDecl]] = [:]
    private var adopters: [ObjectIdentifier: [TypeDecl]] = [:]
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
    private var unknownMembers = Set<String>(), unknownValues = Set<String>()

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
            for r in ReferenceCollector.references(of: node, program: program, owner: owner) { resolve(r, owner) }
        }
    }

    private func reach(_ f: FuncInfo, _ owner: TypeDecl?) {
        guard slice.insert(unit: f.node.id) else { return }
        if let owner { reachType(owner) }
        queue.append((Syntax(f.node), owner))
    }

    private func reach(_ p: PropertyInfo, _ owner: TypeDecl?) {
        guard slice.insert(unit: p.binding.id) else { return }
        if let owner { reachType(owner) }
        queue.append((Syntax(p.binding), owner))
        queue.append((Syntax(p.decl.attributes), owner))
    }

    /// The type's table: its outer type, superclass and protocols too; and its members that code
    /// reached already names on values of unknown type.
    private func reachType(_ t: TypeDecl) {
        guard slice.insert(type: t) else { return }
        if !t.external {
            for (base, list) in t.methods {
                let asValue = unknownValues.contains(base)
                let calls = unknownCalls[base] ?? []
                guard asValue || !calls.isEmpty else { continue }
                for f in list where asValue || calls.contains(where: { f.accepts($0) || !anyAccepts(base, $0) }) { reach(f, t) }
            }
            for (name, p) in t.properties where unknownMembers.contains(name) || unknownCalls[name] != nil { reach(p, t) }
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
            for (t, p) in candidates(properties[name] ?? [], receiver, owner) where receiver != .leadingDot || p.isStatic { reach(p, t) }
            if asValue {
                for (t, f) in candidates(functions[name] ?? [], receiver, owner) where receiver != .leadingDot || f.isStatic { reach(f, t) }
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
            let all = (functions[base] ?? []).filter { $0.1.base == base && (receiver != .leadingDot || $0.1.isStatic) }
            var list = candidates(all, receiver, owner)
            let fitting = list.filter { $0.1.accepts(labels) }
            if !fitting.isEmpty { list = fitting }
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
    private func candidates<D>(_ list: [(TypeDecl?, D)], _ receiver: Receiver, _ owner: TypeDecl?) -> [(TypeDecl?, D)] {
        func within(_ fam: Set<ObjectIdentifier>) -> [(TypeDecl?, D)] { list.filter { d in d.0.map { fam.contains(ObjectIdentifier($0)) } ?? false } }
        switch receiver {
        case .type(let name):
            if let t = program.type(named: name, from: owner) { return within(familySet(t)) }
            // An iOS or Swift type: only what extensions of it add.
            if let ext = program.externals[name] ?? name.split(separator: ".").last.flatMap({ program.externals[String($0)] }) {
                return list.filter { $0.0 === ext }
            }
            return []
        case .typed(var name):
            // A metatype (`firing: PixelFiring.Type`) reaches what its type's family declares.
            for suffix in [".Type", ".Protocol"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
            // An optional's members the app's `extension Optional` adds too (`userSession.isNil`).
            if let t = program.type(named: name, from: owner) {
                guard let optional = program.externals["Optional"] else { return within(familySet(t)) }
                return within(familySet(t)) + list.filter { $0.0 === optional }
            }
            // A value of an iOS type: the app's subclasses and adopters of it, and what
            // extensions of it add.
            return within(inheritors(of: name))
        case .implicitSelf:
            guard let owner else { return list.filter { $0.0 == nil } }
            let own = within(familySet(owner))
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
            return within(Set(family(s, down: false).map(ObjectIdentifier.init)))
        case .leadingDot:
            return list.filter { $0.0 != nil }
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

    private var inheritorCache: [String: Set<ObjectIdentifier>] = [:]
    /// The types of the files that inherit from or adopt an iOS type (through their
    /// superclasses too), and its external extension.
    func inheritors(of name: String) -> Set<ObjectIdentifier> {
        if let c = inheritorCache[name] { return c }
        var out = Set<ObjectIdentifier>()
        if let ext = program.externals[name] { out.insert(ObjectIdentifier(ext)) }
        for t in program.typeOrder {
            var c: TypeDecl? = t
            while let x = c {
                if x.inherited.contains(name) { out.formUnion(familySet(t)); break }
                c = x.superclass
            }
        }
        inheritorCache[name] = out
        return out
    }

    private var familyCache: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    /// `family(t, down: true)` as a set, made once per type.
    func familySet(_ t: TypeDecl) -> Set<ObjectIdentifier> {
        if let f = familyCache[ObjectIdentifier(t)] { return f }
        let f = Set(family(t, down: true).map(ObjectIdentifier.init))
        familyCache[ObjectIdentifier(t)] = f
        return f
    }

    /// A type with its superclasses and protocols, and (down) its subclasses and, for a
    /// protocol, the types that adopt it.
    func family(_ t: TypeDecl, down: Bool) -> [TypeDecl] {
        var out: [TypeDecl] = []
        func add(_ x: TypeDecl) { if !out.contains(where: { $0 === x }) { out.append(x) } }
        var c: TypeDecl? = t
        while let x = c { add(x); c = x.superclass }
        for p in t.allProtocols() { add(p) }
        if down {
            var stack = [t]
            while let x = stack.popLast() {
                for s in subclasses[ObjectIdentifier(x)] ?? [] where !out.contains(where: { $0 === s }) { add(s); stack.append(s) }
                for a in adopters[ObjectIdentifier(x)] ?? [] where !out.contains(where: { $0 === a }) { add(a); stack.append(a) }
            }
        }
        return out
    }

    private func methods(in types: [TypeDecl], base: String?) -> [FuncInfo] {
        types.flatMap { t in base.map { t.methods[$0] ?? [] } ?? t.methods.values.flatMap { $0 } }
    }

    // MARK: - Counting (the report)

    private func count() {
        var ks = 0, kf = 0, ls = 0, lf = 0
        func tally(_ node: some SyntaxProtocol, kept: Bool) {
            let n = StatementCounter.count(node)
            if kept { ks += n; kf += 1 } else { ls += n; lf += 1 }
        }
        for list in functions.values { for (_, f) in list { tally(f.node, kept: slice.contains(f)) } }
        for list in properties.values {
            for (_, p) in list where p.kind == .computed || p.kind == .lazy || p.kind == .observed { tally(p.binding, kept: slice.contains(p)) }
        }
        slice.keptStatements = ks; slice.keptFunctions = kf; slice.leftStatements = ls; slice.leftFunctions = lf
    }
}

/// Statements in a piece of code (the report's measure).
enum StatementCounter {
    static func count(_ node: some SyntaxProtocol) -> Int {
        let v = StatementVisitor(viewMode: .sourceAccurate)
        v.walk(node)
        return max(v.n, 1)
    }
}

final class StatementVisitor: SyntaxVisitor {
    var n = 0
    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind { n += 1; return .visitChildren }
}
