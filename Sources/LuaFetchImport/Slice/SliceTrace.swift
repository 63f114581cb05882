// Why the slice kept a unit (a developer's tool, docs/DEVELOPING.md): with
// `LUAFETCH_SLICE_WHY=TEXT` set, `luafetch import` prints to standard error, for up to 8 kept
// functions or properties whose `path:line name` contains TEXT, the chain of references that
// reached each back to an entry point. A unit reached when its type was reached or made (rapid
// type analysis catching up) names that type and what reached it. Recorded only when asked for.
// Uses SliceBuilder's hooks and ParsedFile.
import SwiftSyntax

final class SliceTrace {
    private let files: [SyntaxIdentifier: ParsedFile]
    /// The unit being scanned and the reference being resolved (or a type catching up).
    private var current: Syntax?
    private var reason = ""
    private var reached: [SyntaxIdentifier: (from: Syntax?, reason: String)] = [:]
    private var nodes: [SyntaxIdentifier: Syntax] = [:]
    private var order: [SyntaxIdentifier] = []

    init(files: [SyntaxIdentifier: ParsedFile]) { self.files = files }

    func scanning(_ node: Syntax?) { current = node }
    func resolving(_ r: Reference) { reason = "\(r)" }
    /// A type reached or made: what it reaches while catching up is attributed to it.
    func enter(_ what: String, _ t: TypeDecl) -> (Syntax?, String) {
        let saved = (current, reason)
        reason = "\(what) \(t.qualified) (\(current.map(label) ?? "an entry point"): \(reason))"
        current = nil
        return saved
    }
    func leave(_ saved: (Syntax?, String)) { (current, reason) = saved }

    func note(_ node: Syntax) {
        guard reached[node.id] == nil else { return }
        reached[node.id] = (current, reason)
        nodes[node.id] = node
        order.append(node.id)
    }

    func explain(_ needle: String) -> String {
        var out = "", shown = 0
        for id in order where shown < 8 {
            guard let node = nodes[id], label(node).contains(needle) else { continue }
            shown += 1
            out += label(node) + "\n"
            var step = reached[id], hops = 0
            while let (from, why) = step, hops < 40 {
                out += "  <- \(from.map(label) ?? "(no unit)") via \(why)\n"
                guard let from, let unit = unit(of: from) else { break }
                step = reached[unit]; hops += 1
            }
            out += "\n"
        }
        return out
    }

    private func unit(of n: Syntax) -> SyntaxIdentifier? {
        var x: Syntax? = n
        while let y = x { if reached[y.id] != nil { return y.id }; x = y.parent }
        return nil
    }

    private func label(_ n: Syntax) -> String {
        guard let f = files[n.root.id] else { return "?" }
        var name = ""
        if let d = n.as(FunctionDeclSyntax.self) { name = d.name.text }
        if let d = n.as(PatternBindingSyntax.self) { name = d.pattern.trimmedDescription }
        if n.is(InitializerDeclSyntax.self) { name = "init" }
        return "\(f.source.shown):\(f.line(n)) \(name)"
    }
}
