// The slice builder's type families and counts (SPEC 18.8.4): a type's family (its superclasses
// and protocols, and below it its subclasses and adopters), the app's types that inherit an iOS
// type, and the report's kept and left-out statements. Uses SliceBuilder's indexes.
import SwiftSyntax

extension SliceBuilder {
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

    /// `family(t, down: true)` as a set, made once per type.
    func familySet(_ t: TypeDecl) -> Set<ObjectIdentifier> {
        if let f = familyCache[ObjectIdentifier(t)] { return f }
        let f = Set(family(t, down: true).map(ObjectIdentifier.init))
        familyCache[ObjectIdentifier(t)] = f
        return f
    }

    /// `family(t, down: false)` as a set (a type, its superclasses and protocols), made once per type.
    func ancestorSet(_ t: TypeDecl) -> Set<ObjectIdentifier> {
        if let a = ancestorCache[ObjectIdentifier(t)] { return a }
        let a = Set(family(t, down: false).map(ObjectIdentifier.init))
        ancestorCache[ObjectIdentifier(t)] = a
        return a
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

    // MARK: - Counting (the report)

    func count() {
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

/// A function or property a reference can mean (the slice's candidates).
protocol SliceMember { var isStatic: Bool { get } }
extension FuncInfo: SliceMember {}
extension PropertyInfo: SliceMember {}
