// The declared types of receivers (SPEC 18.8.4: "narrowed by the receiver's declared type where
// the code states it"): scopes of locals and parameters with the type their declaration names
// (an annotation, `T(...)`, `T.shared`, a cast), and the type of an expression read through
// them: `self`, a property of a type of the files (its annotation), a chain of such properties,
// a function of the files whose result type is declared. Nothing is inferred beyond what the
// declarations write. Uses Program and TypeName.
import SwiftSyntax

final class ReceiverTypes {
    let program: Program
    let owner: TypeDecl?
    /// Names in scope, innermost last; nil: declared without a type the syntax states.
    private var scopes: [[String: String?]] = [[:]]

    init(program: Program, owner: TypeDecl?) {
        self.program = program
        self.owner = owner
    }

    func push() { scopes.append([:]) }
    func pop() { if scopes.count > 1 { scopes.removeLast() } }
    func bind(_ name: String, _ type: String?) { scopes[scopes.count - 1][Program.plain(name)] = .some(type) }

    private func local(_ name: String) -> String?? {
        for s in scopes.reversed() { if let t = s[name] { return t } }
        return nil
    }

    /// The name of the type an expression has, when the declarations say it.
    func type(of e: ExprSyntax) -> String? {
        let e = ReferenceCollector.unwrapped(e)
        if let d = e.as(DeclReferenceExprSyntax.self) {
            let n = Program.plain(d.baseName.text)
            if n == "self" { return owner?.qualified }
            if let bound = local(n) { return bound }
            if let o = owner, let p = o.property(n) { return p.type?.name }
            return program.global(n)?.type?.name
        }
        if let m = e.as(MemberAccessExprSyntax.self), let base = m.base {
            let n = Program.plain(m.declName.baseName.text)
            // `T.shared`, `T.default`: a value of T (or the static's declared type).
            if case .type(let tn) = ReferenceCollector.receiver(of: base) {
                if let t = program.type(named: tn, from: owner) { return declared(t.property(n)?.type?.name, on: t) ?? (["shared", "default", "current", "standard"].contains(n) ? t.qualified : nil) }
                return ["shared", "default", "current", "standard", "main"].contains(n) ? tn : nil
            }
            guard let bt = type(of: base), let t = program.type(named: bt, from: owner) else { return nil }
            return declared(t.property(n)?.type?.name, on: t)
        }
        if let c = e.as(FunctionCallExprSyntax.self) {
            let callee = ReferenceCollector.unwrapped(c.calledExpression)
            if let d = callee.as(DeclReferenceExprSyntax.self), d.baseName.text.first?.isUppercase == true { return Program.plain(d.baseName.text) }
            if let t = callee.as(TypeExprSyntax.self) { return ReferenceCollector.typeNames(t.type).last }
            if let m = callee.as(MemberAccessExprSyntax.self) {
                let n = Program.plain(m.declName.baseName.text)
                if n == "init", case .type(let tn)? = m.base.map({ ReferenceCollector.receiver(of: $0) }) { return tn }
                if let base = m.base, let bt = type(of: base), let t = program.type(named: bt, from: owner) {
                    let returns = Set(t.methods(n).compactMap { declared($0.returnType?.name, on: t) })
                    return returns.count == 1 ? returns.first : nil
                }
            }
            if let d = callee.as(DeclReferenceExprSyntax.self) {
                let n = Program.plain(d.baseName.text)
                let fs = (owner?.methods(n) ?? []) + (program.functions[n] ?? [])
                let returns = Set(fs.compactMap { $0.returnType?.name })
                return returns.count == 1 ? returns.first : nil
            }
            return nil
        }
        if let a = e.as(AsExprSyntax.self) { return TypeName(a.type)?.name }
        return nil
    }

    /// The type the context of `.name` or `.name(...)` expects, where the syntax states it: the
    /// assigned or compared value's declared type, an annotated binding's or a parameter's
    /// default, a function's declared result for `return`.
    func expected(at node: Syntax) -> String? {
        var n = node
        while let p = n.parent, p.is(ForceUnwrapExprSyntax.self) || p.is(OptionalChainingExprSyntax.self) || p.is(TryExprSyntax.self) || p.is(AwaitExprSyntax.self) { n = p }
        guard let parent = n.parent else { return nil }
        if let infix = parent.as(InfixOperatorExprSyntax.self), infix.rightOperand.id == n.id {
            if infix.operator.is(AssignmentExprSyntax.self) { return type(of: infix.leftOperand) }
            if let op = infix.operator.as(BinaryOperatorExprSyntax.self), ["==", "!="].contains(op.operator.text) { return type(of: infix.leftOperand) }
            return nil
        }
        if let clause = parent.as(InitializerClauseSyntax.self) {
            if let b = clause.parent?.as(PatternBindingSyntax.self) { return TypeName(b.typeAnnotation?.type)?.name }
            if let p = clause.parent?.as(FunctionParameterSyntax.self) { return TypeName(p.type)?.name }
            return nil
        }
        if parent.is(ReturnStmtSyntax.self) {
            var x = parent.parent
            while let y = x {
                if y.is(ClosureExprSyntax.self) { return nil }
                if let f = y.as(FunctionDeclSyntax.self) { return TypeName(f.signature.returnClause?.type)?.name }
                if let b = y.as(PatternBindingSyntax.self) { return TypeName(b.typeAnnotation?.type)?.name }
                x = y.parent
            }
        }
        return nil
    }

    /// A member's declared type read on `t`: `Self` (a protocol extension's `static var empty:
    /// Self`) is `t` itself.
    private func declared(_ name: String?, on t: TypeDecl) -> String? {
        name == "Self" ? t.qualified : name
    }
}
