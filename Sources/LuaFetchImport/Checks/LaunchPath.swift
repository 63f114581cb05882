// Which `BGTaskScheduler.register` calls are on the launch path (SPEC 18.6): reachable, by the
// names of the functions they call, from `didFinishLaunching`/`willFinishLaunching`, the app
// delegate's and a SwiftUI App's initializers. An over-approximation (a name reached from the
// launch counts), so a warning is only given where no call from the launch can lead.
import SwiftSyntax

enum LaunchPath {
    /// The locations (`File.swift:LINE`) of registrations on the launch path.
    static func registrationsOnPath(_ program: Program, _ entry: EntryPoints, _ t: Translator) -> Set<String> {
        // Every function with its body's span and the names it calls.
        struct Fn { let info: FuncInfo; let calls: Set<String>; let start: Int; let end: Int; let file: String }
        final class Calls: SyntaxVisitor {
            var names = Set<String>()
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let d = node.calledExpression.as(DeclReferenceExprSyntax.self) { names.insert(d.baseName.text) }
                if let m = node.calledExpression.as(MemberAccessExprSyntax.self) { names.insert(m.declName.baseName.text) }
                return .visitChildren
            }
        }
        var fns: [Fn] = []
        var all: [FuncInfo] = program.functions.values.flatMap { $0 }
        for type in program.typeOrder { all += type.methods.values.flatMap { $0 } + type.inits }
        // What the slice left out never runs, on the launch path or elsewhere.
        for f in all where t.keeps(f) {
            let v = Calls(viewMode: .sourceAccurate)
            v.walk(f.node)
            fns.append(Fn(info: f, calls: v.names, start: f.file.line(f.node), end: f.file.endLine(f.node), file: f.file.source.shown))
        }
        var byBase: [String: [Int]] = [:]
        for (i, f) in fns.enumerated() { byBase[f.info.base, default: []].append(i) }
        var reached = Set<String>()
        var frontier: [Fn] = fns.filter { fn in
            ["application(_:didFinishLaunchingWithOptions:)", "application(_:willFinishLaunchingWithOptions:)", "applicationDidFinishLaunching(_:)"].contains(fn.info.selector)
                || (fn.info.base == "init" && (entry.appDelegate?.inits.contains { $0.node.id == fn.info.node.id } ?? false
                    || entry.swiftUIApp?.inits.contains { $0.node.id == fn.info.node.id } ?? false))
        }
        var onPath = Set<SyntaxIdentifier>()
        while let f = frontier.popLast() {
            onPath.insert(f.info.node.id)
            for name in f.calls where reached.insert(name).inserted {
                frontier += (byBase[name] ?? []).map { fns[$0] }
            }
        }
        var result = Set<String>()
        for r in t.registered {
            let parts = r.where.split(separator: ":")
            guard parts.count >= 2, let line = Int(parts.last!) else { continue }
            let file = parts.dropLast().joined(separator: ":")
            let enclosing = fns.filter { $0.file == file && $0.start <= line && line <= $0.end }
            if enclosing.isEmpty || enclosing.contains(where: { onPath.contains($0.info.node.id) }) {
                result.insert(r.where)
            }
        }
        return result
    }
}
