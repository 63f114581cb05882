// Patterns of `switch`, `if case`, `for case` and `catch` (SPEC 18.3): enum cases with or
// without associated values (`.failure(let error)`, `case let .done(x)`), values and ranges,
// tuples, `let x`, `_`, `nil`, `x?`, `is T` and `let x as T`, each as a Lua condition on a
// subject variable plus the `local` lines that bind its names. An opaque value (a stub's) matches
// no case, so `switch` takes `default` (18.7.1).
import SwiftSyntax

struct PatternTest {
    var condition: String
    var bindings: [String]
}

extension Translator {
    /// The names a pattern binds, in order.
    func patternNames(_ p: PatternSyntax) -> [String] {
        var out: [String] = []
        func walkExpr(_ e: ExprSyntax, binding: Bool) {
            if let pe = e.as(PatternExprSyntax.self) { walk(pe.pattern, binding: binding); return }
            if binding, let d = e.as(DeclReferenceExprSyntax.self) { out.append(d.baseName.text); return }
            if let call = e.as(FunctionCallExprSyntax.self) { for a in call.arguments { walkExpr(a.expression, binding: binding) } }
            if let t = e.as(TupleExprSyntax.self) { for a in t.elements { walkExpr(a.expression, binding: binding) } }
            if let o = e.as(OptionalChainingExprSyntax.self) { walkExpr(o.expression, binding: binding) }
            if let a = e.as(AsExprSyntax.self) { walkExpr(a.expression, binding: binding) }
        }
        func walk(_ p: PatternSyntax, binding: Bool) {
            if let id = p.as(IdentifierPatternSyntax.self) { out.append(id.identifier.text) }
            else if let vb = p.as(ValueBindingPatternSyntax.self) { walk(vb.pattern, binding: true) }
            else if let t = p.as(TuplePatternSyntax.self) { for el in t.elements { walk(el.pattern, binding: binding) } }
            else if let ep = p.as(ExpressionPatternSyntax.self) { walkExpr(ep.expression, binding: binding) }
        }
        walk(p, binding: false)
        return out
    }

    /// The condition that `subject` matches `p`, and the bindings (declared in the current scope
    /// when `bind`).
    func patternTest(_ p: PatternSyntax, subject: String, bind: Bool, enumType: TypeName? = nil,
                     catchClause: Bool = false) -> PatternTest {
        var bindings: [String] = []
        func binding(_ name: String, _ value: String) {
            let lua = bind ? declare(name) : (local(name)?.lua ?? Naming.local(name))
            bindings.append("local \(lua) = \(value)")
        }
        func exprTest(_ e: ExprSyntax, _ s: String, binding isBinding: Bool) -> String {
            if let pe = e.as(PatternExprSyntax.self) { return pat(pe.pattern, s, binding: isBinding) }
            if e.is(DiscardAssignmentExprSyntax.self) { return "true" }
            if isBinding, let d = e.as(DeclReferenceExprSyntax.self) { binding(d.baseName.text, s); return "true" }
            if e.is(NilLiteralExprSyntax.self) { return "\(s) == nil" }
            // `.name` / `Type.name`: a case without values.
            if let m = e.as(MemberAccessExprSyntax.self), m.base == nil || isTypeName(m.base!) {
                let name = m.declName.baseName.text
                if name == "none" && m.base == nil { return "\(s) == nil" }
                if m.base == nil, let v = implicitConstant(name) { return "swift.eq(\(s), \(v))" }
                return "swift.caseOf(\(s)) == \(Literals.quote(name))"
            }
            // `.name(patterns)`: a case with values.
            if let call = e.as(FunctionCallExprSyntax.self), let m = call.calledExpression.as(MemberAccessExprSyntax.self),
               m.base == nil || isTypeName(m.base!) {
                let name = m.declName.baseName.text
                if name == "some" && m.base == nil, let only = call.arguments.first {
                    return "\(s) ~= nil and " + paren(exprTest(only.expression, s, binding: isBinding))
                }
                var parts = ["swift.caseOf(\(s)) == \(Literals.quote(name))"]
                for (i, a) in call.arguments.enumerated() {
                    let t = exprTest(a.expression, "\(s)[\(i + 1)]", binding: isBinding)
                    if t != "true" { parts.append(paren(t)) }
                }
                return parts.joined(separator: " and ")
            }
            if let t = e.as(TupleExprSyntax.self) {
                if t.elements.count == 1, let only = t.elements.first { return exprTest(only.expression, s, binding: isBinding) }
                var parts: [String] = ["type(\(s)) == \"table\""]
                for (i, a) in t.elements.enumerated() {
                    let x = exprTest(a.expression, "\(s)[\(i + 1)]", binding: isBinding)
                    if x != "true" { parts.append(paren(x)) }
                }
                return parts.joined(separator: " and ")
            }
            if let o = e.as(OptionalChainingExprSyntax.self) {
                return "\(s) ~= nil and " + paren(exprTest(o.expression, s, binding: isBinding))
            }
            if let a = e.as(AsExprSyntax.self) {
                let inner = exprTest(a.expression, s, binding: isBinding)
                return paren(typeTest(a.type, s)) + (inner == "true" ? "" : " and " + paren(inner))
            }
            if let r = e.as(InfixOperatorExprSyntax.self), let op = r.operator.as(BinaryOperatorExprSyntax.self),
               op.operator.text == "..." || op.operator.text == "..<" {
                let lo = expr(r.leftOperand).code, hi = expr(r.rightOperand).code
                return "swift.inRange(\(s), swift.range(\(lo), \(hi), \(op.operator.text == "...")))"
            }
            if let r = e.as(PostfixOperatorExprSyntax.self), r.operator.text == "..." {
                return "swift.ge(\(s), \(expr(r.expression).code))"
            }
            if let r = e.as(PrefixOperatorExprSyntax.self), r.operator.text == "..<" || r.operator.text == "..." {
                return "swift.\(r.operator.text == "..<" ? "lt" : "le")(\(s), \(expr(r.expression).code))"
            }
            return "swift.eq(\(s), \(expr(e).code))"
        }
        func pat(_ p: PatternSyntax, _ s: String, binding isBinding: Bool) -> String {
            if let id = p.as(IdentifierPatternSyntax.self) { binding(id.identifier.text, s); return "true" }
            if p.is(WildcardPatternSyntax.self) { return "true" }
            if let vb = p.as(ValueBindingPatternSyntax.self) { return pat(vb.pattern, s, binding: true) }
            if let t = p.as(TuplePatternSyntax.self) {
                var parts: [String] = []
                for (i, el) in t.elements.enumerated() {
                    let x = pat(el.pattern, "\(s)[\(i + 1)]", binding: isBinding)
                    if x != "true" { parts.append(paren(x)) }
                }
                return parts.isEmpty ? "true" : parts.joined(separator: " and ")
            }
            if let isType = p.as(IsTypePatternSyntax.self) { return typeTest(isType.type, s) }
            if let ep = p.as(ExpressionPatternSyntax.self) { return exprTest(ep.expression, s, binding: isBinding) }
            return "false"
        }
        let condition = pat(p, subject, binding: false)
        return PatternTest(condition: condition, bindings: bindings)
    }

    /// `x is T` as a condition: translated types are checked; for types the files do not
    /// define, a value of the matching Lua kind passes, opaque values do not.
    func typeTest(_ type: TypeSyntax, _ s: String) -> String {
        let name = TypeName(type)?.name ?? type.trimmedDescription
        if let t = program.type(named: name, from: currentType) { return "swift.isA(\(s), \(t.lua))" }
        switch name {
        case "String": return "type(\(s)) == \"string\""
        case "Int", "Double", "Float", "CGFloat", "TimeInterval", "Int64", "UInt": return "type(\(s)) == \"number\""
        case "Bool": return "type(\(s)) == \"boolean\""
        case "NSError", "Error", "AnyObject", "Any", "NSObject": return "\(s) ~= nil"
        case "CancellationError": return "swift.caseOf(\(s)) == \"CancellationError\""
        default: return "false"
        }
    }

    func paren(_ s: String) -> String {
        s.contains(" or ") ? "(\(s))" : s
    }

    /// Whether `e` names a type (`Status` in `Status.idle`).
    func isTypeName(_ e: ExprSyntax) -> Bool {
        if let d = e.as(DeclReferenceExprSyntax.self) {
            let n = d.baseName.text
            if local(n) != nil { return false }
            return program.type(named: n, from: currentType) != nil || (n.first?.isUppercase == true && currentType?.property(n) == nil)
        }
        if let m = e.as(MemberAccessExprSyntax.self), let b = m.base { return isTypeName(b) && m.declName.baseName.text.first?.isUppercase == true }
        return e.is(TypeExprSyntax.self)
    }
}
