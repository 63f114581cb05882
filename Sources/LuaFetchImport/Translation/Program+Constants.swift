// Conditions the release build fixes (SPEC 18.8.4, 18.7.14): a Bool property whose getter is a
// literal once `#if` is resolved (element-x's `static var isRunningUITests: Bool { #if DEBUG ...
// #else false #endif }`), read as `T.name`, `name` or `!` of one. The slice does not follow the
// branch such an `if` never takes, and the translation does not widen the slice to it (the
// branch is still written: the property is translated and returns its literal). Uses Program.
import SwiftSyntax

extension Program {
    /// The value of an `if` whose only condition is such a property; nil when it is not one.
    func constantCondition(_ i: IfExprSyntax, owner: TypeDecl?) -> Bool? {
        guard i.conditions.count == 1, case .expression(let e)? = i.conditions.first?.condition else { return nil }
        return constantBool(e, owner: owner)
    }

    func constantBool(_ e: ExprSyntax, owner: TypeDecl?) -> Bool? {
        let e = Translator.withoutParens(e)
        if let p = e.as(PrefixOperatorExprSyntax.self), p.operator.text == "!" { return constantBool(p.expression, owner: owner).map { !$0 } }
        var prop: PropertyInfo?
        if let m = e.as(MemberAccessExprSyntax.self), let base = m.base?.as(DeclReferenceExprSyntax.self),
           let t = type(named: Program.plain(base.baseName.text), from: owner) ?? externals[Program.plain(base.baseName.text)] {
            prop = t.property(Program.plain(m.declName.baseName.text))
        } else if let d = e.as(DeclReferenceExprSyntax.self) {
            let n = Program.plain(d.baseName.text)
            prop = owner?.property(n) ?? global(n)
        }
        guard let p = prop, p.kind == .computed, let accessors = p.binding.accessorBlock?.accessors else { return nil }
        let body: CodeBlockItemListSyntax?
        switch accessors {
        case .getter(let list): body = list
        case .accessors(let list): body = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) })?.body?.statements
        }
        guard let body else { return nil }
        let only = items(body)
        guard only.count == 1 else { return nil }
        let value = only[0].item.as(ReturnStmtSyntax.self)?.expression ?? only[0].item.as(ExprSyntax.self)
        guard let literal = value?.as(BooleanLiteralExprSyntax.self) else { return nil }
        return literal.literal.tokenKind == .keyword(.true)
    }
}
