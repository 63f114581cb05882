// Statements, loops and the rest (SPEC 18.3, 18.7.10): `for`/`while`/`repeat` with labels,
// `break` and `continue`, `do`/`try`/`catch`/`throw`, and assignments (compound, to properties,
// subscripts and tuples). Uses the Translator's scopes and Expressions.
import SwiftSyntax

extension Translator {
    // MARK: - Loops

    /// A new loop's number and the label `continue` jumps to (`cont_N`; a labelled `break`
    /// jumps to `cont_N_break`, placed by `endLoop`).
    func newLoop() -> (id: Int, cont: String) {
        loopCounter += 1
        return (loopCounter, "cont_\(loopCounter)")
    }

    /// A loop's `end`, then the label its labelled `break`s jump to.
    func endLoop(_ cont: String, _ node: some SyntaxProtocol) {
        out.append(pad + "end" + endMarker(node))
        placeLabel("\(cont)_break", endMarker(node))
    }

    /// Types whose values are Lua numbers.
    static let numericTypes: Set<String> = ["Int", "Int64", "Int32", "Int16", "Int8", "UInt", "UInt64", "UInt32", "UInt16", "UInt8",
                                            "Double", "Float", "CGFloat", "TimeInterval"]

    func forStmt(_ f: ForStmtSyntax, label: String?) {
        let line = file.line(f)
        let (id, cont) = newLoop()
        pushScope()
        var header: String
        var caseTest: PatternTest?
        // `for i in a..<b` / `a...b` as a numeric for.
        if let range = f.sequence.as(InfixOperatorExprSyntax.self), let op = range.operator.as(BinaryOperatorExprSyntax.self),
           op.operator.text == "..<" || op.operator.text == "...", let id0 = f.pattern.as(IdentifierPatternSyntax.self) {
            let lo = expr(range.leftOperand).code, upper = expr(range.rightOperand)
            var hi = upper.code
            // A bound a stub gave (`0 ..< dc_array_get_cnt(list)`) is a drawn number of iterations
            // (18.9.5), counted from a literal lower bound.
            if !Self.numericTypes.contains(upper.type?.name ?? ""), !range.rightOperand.is(IntegerLiteralExprSyntax.self) {
                let base = Int(lo).map { op.operator.text == "..<" ? $0 : $0 - 1 } ?? 0
                hi = "swift.bound(\(hi), \(base))"
            }
            let name = declare(id0.identifier.text, type: TypeName("Int"))
            header = "for \(name) = \(lo), \(op.operator.text == "..<" ? "(\(hi)) - 1" : hi) do"
        } else {
            let seq = expr(f.sequence)
            var names: [String] = []
            if let id0 = f.pattern.as(IdentifierPatternSyntax.self) {
                names = [declare(id0.identifier.text, type: seq.type?.element.map { TypeName($0) })]
            } else if let tuple = f.pattern.as(TuplePatternSyntax.self) {
                let t = temp("e")
                names = [t]
                header = ""
                var inner: [String] = [], values: [String] = []
                for (i, el) in tuple.elements.enumerated() {
                    if let n = el.pattern.as(IdentifierPatternSyntax.self) {
                        inner.append(declare(n.identifier.text))
                        values.append("\(t)[\(i + 1)]")
                    }
                }
                tupleBind = inner.isEmpty ? nil : "local \(inner.joined(separator: ", ")) = \(values.joined(separator: ", "))"
            } else if let vb = f.pattern.as(ValueBindingPatternSyntax.self), let n = vb.pattern.as(IdentifierPatternSyntax.self) {
                names = [declare(n.identifier.text)]
            } else {
                // `for case let x? in`, `for case .some(let x) in`, ...: the body runs for the
                // elements that match, with the pattern's names bound.
                let t = temp("e")
                names = [t]
                caseTest = patternTest(f.pattern, subject: t, bind: true)
            }
            header = "for _, \(names[0]) in swift.iter(\(seq.code)) do"
        }
        emit(header, line)
        indent += 1
        if let tb = tupleBind { emit(tb, line); tupleBind = nil }
        if let c = caseTest {
            emit("if \(c.condition) then", line)
            indent += 1
            for b in c.bindings { emit(b, line) }
        }
        control.append(.loop(label: label, continueLabel: cont, id: id))
        if let w = f.whereClause {
            emit("if \(expr(w.condition).code) then", at: w)
            indent += 1; block(f.body); indent -= 1
            out.append(pad + "end" + endMarker(f.body))
        } else {
            block(f.body)
        }
        control.removeLast()
        if caseTest != nil { indent -= 1; out.append(pad + "end" + endMarker(f.body)) }
        placeLabel(cont, endMarker(f.body))
        indent -= 1
        popScope()
        endLoop(cont, f)
    }

    func whileStmt(_ w: WhileStmtSyntax, label: String?) {
        let line = file.line(w)
        let (id, cont) = newLoop()
        // Loops over stubs end (SPEC 18.9.5): `swift.loop()` is this entry's state, `loopEnter`
        // marks where the conditions start, and `loopCondition` holds a condition that consulted
        // a stub for a drawn number of iterations only (failures.lua).
        let loop = temp("loop")
        emit("local \(loop) = swift.loop()", line)
        emit("while true do", line)
        indent += 1
        pushScope()
        control.append(.loop(label: label, continueLabel: cont, id: id, state: loop))
        // The conditions (bindings too) run each time round; the body in a block of its own, so
        // that `continue` jumps over no local.
        let ok = temp("ok")
        emit("local \(ok) = false", line)
        emit("swift.loopEnter(\(loop))", line)
        emit("do", line)
        indent += 1
        conditionChain(w.conditions, then: {
            emit("if swift.loopCondition(\(loop), true) then", line)
            indent += 1
            emit("\(ok) = true", line)
            emit("do", line)
            indent += 1
            block(w.body)
            indent -= 1
            emit("end", file.endLine(w.body))
            indent -= 1
            emit("end", line)
        })
        indent -= 1
        emit("end", line)
        emit("if not \(ok) then break end", line)
        control.removeLast()
        popScope()
        placeLabel(cont, endMarker(w))
        indent -= 1
        endLoop(cont, w)
    }

    func repeatStmt(_ r: RepeatStmtSyntax, label: String?) {
        let line = file.line(r)
        let (id, cont) = newLoop()
        let loop = temp("loop")
        emit("local \(loop) = swift.loop()", line)
        emit("while true do", line)
        indent += 1
        control.append(.loop(label: label, continueLabel: cont, id: id, state: loop))
        emit("do", line)
        indent += 1
        block(r.body)
        indent -= 1
        out.append(pad + "end" + endMarker(r.body))
        control.removeLast()
        placeLabel(cont, endMarker(r.body))
        emit("if not swift.loopCondition(swift.loopEnter(\(loop)), \(condition(r.condition).code)) then break end", at: r.condition)
        indent -= 1
        endLoop(cont, r)
    }

    // MARK: - do / catch

    func doStmt(_ d: DoStmtSyntax) {
        let line = file.line(d)
        if d.catchClauses.isEmpty {
            emit("do", line)
            indent += 1; block(d.body); indent -= 1
            out.append(pad + "end" + endMarker(d))
            return
        }
        let c = temp("c"), v = temp("r")
        control.append(.wrapper)
        let body = nested { block(d.body) }
        let handler = nested { catchClauses(d) }
        control.removeLast()
        emit("local \(c), \(v) = swift.doCatch(function()", line)
        out += body
        out.append(pad + "end, function(__e)" + marker(d.catchClauses.first!))
        out += handler
        out.append(pad + "end)" + endMarker(d))
        propagate(c, v, line: line, within: Syntax(d))
    }

    /// The clauses of a `do`/`catch`, one after another in a function of the error `__e`: each
    /// clause's patterns (`catch A, B`), their bindings and `where` condition decide; a clause
    /// that ran its body returns; an error no clause takes is rethrown (`return false`).
    private func catchClauses(_ d: DoStmtSyntax) {
        var catchAll = false
        for clause in d.catchClauses where !catchAll {
            pushScope()
            let items = Array(clause.catchItems)
            var opened = 0
            if items.count <= 1 {
                let item = items.first
                let test = item?.pattern.map { patternTest($0, subject: "__e", bind: true, catchClause: true) }
                let condition = test?.condition ?? "true"
                let binds = test?.bindings ?? ["local \(declare("error")) = __e"]
                emit(condition == "true" ? "do" : "if \(condition) then", at: clause)
                indent += 1; opened += 1
                for b in binds { emit(b, at: clause) }
                if let w = item?.whereClause {
                    emit("if \(expr(w.condition).code) then", at: w)
                    indent += 1; opened += 1
                } else if condition == "true" {
                    catchAll = true
                }
            } else {
                // Several patterns: any of them (with its `where`); `error` is the error.
                var conditions: [String] = []
                for item in items {
                    var c = item.pattern.map { patternTest($0, subject: "__e", bind: false, catchClause: true).condition } ?? "true"
                    if let w = item.whereClause { c = "(\(c)) and (\(expr(w.condition).code))" }
                    conditions.append("(\(c))")
                }
                emit("if \(conditions.joined(separator: " or ")) then", at: clause)
                indent += 1; opened += 1
                emit("local \(declare("error")) = __e", at: clause)
            }
            block(clause.body)
            if !(out.last ?? "").trimmingSpaces().hasPrefix("do return") {
                emit("do return nil end", file.endLine(clause.body))  // handled: nothing more to do
            }
            for _ in 0..<opened {
                indent -= 1
                out.append(pad + "end" + marker(file.endLine(clause)))
            }
            popScope()
        }
        if !catchAll { emit("return false", file.endLine(d)) }
    }

    // MARK: - Assignment

    /// `a = b`, `a += b`, `xs[i] = v`; nil when `infix` is no assignment.
    func assignment(_ infix: InfixOperatorExprSyntax) -> String? {
        var op: String
        if infix.operator.is(AssignmentExprSyntax.self) { op = "=" }
        else if let b = infix.operator.as(BinaryOperatorExprSyntax.self), ["+=", "-=", "*=", "/=", "%=", "&&=", "||=", "??=", "|=", "&=", "^=", "<<=", ">>="].contains(b.operator.text) {
            op = b.operator.text
        } else { return nil }
        let lhs = infix.leftOperand
        // The target is read for its type only: what reading it recorded is taken back.
        let checkpoint = stubs.checkpoint()
        let savedCounts = counts
        let targetType = expr(lhs, lvalue: true).type
        stubs.rollback(to: checkpoint)
        counts = savedCounts
        var rhs = expr(infix.rightOperand, expect: targetType)
        if op == "=" {
            rhs.code = valueCopy(rhs, infix.rightOperand)
        } else {
            let current = expr(lhs).code
            let binop = String(op.dropLast())
            rhs = LuaExpr(binary(binop, LuaExpr(current, targetType), rhs, node: Syntax(infix)).code, targetType)
        }
        if lhs.is(DiscardAssignmentExprSyntax.self) { return "local _ = \(rhs.code)" }
        // A name of the current scope keeps what is known of the new value.
        if let id = lhs.as(DeclReferenceExprSyntax.self), op == "=" {
            setLocalType(id.baseName.text, nil, stub: rhs.stubName)
        }
        return store(lhs, rhs.code, node: Syntax(infix))
    }

    /// The key `swift.appSet` keeps a write under when `owner`'s property `name` has no model in
    /// luafetch (SPEC 18.9.7): a UIApplication property by its name, a scene's (`userActivity`,
    /// `title`, ...) as `UIScene.name`; nil otherwise, or when the files define the type themselves.
    func unmodelledKey(_ owner: String?, _ name: String) -> String? {
        guard let owner, program.type(named: owner) == nil else { return nil }
        if owner == "UIApplication", name.first?.isLowercase == true { return name }
        if ["UIScene", "UIWindowScene"].contains(owner), APIs.unmodelledSceneProperties[name] != nil { return "UIScene.\(name)" }
        return nil
    }

    /// Assigns `value` to the place `target` names.
    func store(_ target: ExprSyntax, _ value: String, node: Syntax) -> String {
        // In the type's own initializer, a property's willSet/didSet do not run (Swift calls
        // them from outside the initializer only).
        if currentFunction?.base == "init", !inStatic, let t = currentType, let name = ownProperty(target),
           let p = t.properties[name], !p.isStatic, p.kind == .observed || p.wrapper == "Published" {
            return "swift.initStored(self, \(Literals.quote(Naming.field(name))), \(value))"
        }
        // `self = Other(...)` in a struct's initializer or mutating method (session's
        // `TypedTableAlias.init()` delegated so, and its table stayed empty): self takes its fields.
        if let id = target.as(DeclReferenceExprSyntax.self), id.baseName.text == "self", !inStatic, currentType?.kind == .struct {
            return "swift.become(self, \(value))"
        }
        if let id = target.as(DeclReferenceExprSyntax.self) {
            let r = resolveIdentifier(id.baseName.text, node: Syntax(id))
            if let g = program.global(id.baseName.text), g.binding.accessorBlock != nil, r.code.hasPrefix("T.__global_") {
                // A computed global's setter (none: the value is computed and dropped).
                let setter = "T.__global_set_" + Naming.field(program.globalKey(g))
                return "if \(setter) then \(setter)(\(value)) end"
            }
            if r.code.hasPrefix("swift.global(") {
                return "swift.setGlobal(\(Literals.quote(id.baseName.text)), \(value))"
            }
            // In an extension of an iOS or Swift type, its own computed property's setter.
            if r.code.hasPrefix("swift.extGet("), let t = currentType {
                return "swift.extSet(\(t.lua), \(Literals.quote(Naming.field(id.baseName.text))), self, \(value))"
            }
            // A name the files never declare (a variable of code they do not have): the value
            // is computed and dropped (Lua cannot assign to a call's result).
            if r.code.hasSuffix(")") || r.code.hasPrefix("function(") || r.code.hasPrefix("function ") { return "local _ = \(value)" }
            return "\(r.code) = \(value)"
        }
        if let s = target.as(SubscriptCallExprSyntax.self) {
            let base = expr(s.calledExpression)
            let key = s.arguments.first.map { expr($0.expression).code } ?? "nil"
            return "swift.setIndex(\(base.code), \(key), \(value))"
        }
        if let m = target.as(MemberAccessExprSyntax.self), let base = m.base {
            let name = m.declName.baseName.text
            let b = expr(base)
            let direct = b.typeRef != nil || b.type.flatMap({ program.type(named: $0.name, from: currentType) }) != nil || b.code == "self" || isAPIValue(b)
            // A UIApplication or UIScene property luafetch does not model: accepted, kept (18.9.7).
            if let key = unmodelledKey(b.type?.name, name) {
                unmodelledAppProperties.insert(key)
                return "swift.appSet(\(Literals.quote(key)), \(value))"
            }
            // A computed property an extension of the files adds to an iOS or Swift type: its setter.
            let ext = externalType(for: b).flatMap { e in e.property(name).map { (e, $0) } }
            let extSet = ext.flatMap { e, p in p.kind == .computed && !p.isStatic ? "swift.extSet(\(e.lua), \(Literals.quote(Naming.field(name))), " : nil }
            // `a?.b = v`: nothing happens when `a` is nil (the value is not even computed).
            if b.chained {
                let o = temp("o")
                let set = extSet.map { "\($0)\(o), \(value))" }
                    ?? (direct ? "\(o).\(Naming.field(name)) = \(value)" : "swift.setMember(\(o), \(Literals.quote(name)), \(value))")
                return "do local \(o) = \(b.code) if \(o) ~= nil then \(set) end end"
            }
            if let extSet { return "\(extSet)\(b.code), \(value))" }
            // A static variable an extension adds to an iOS or Swift type (`URL.made += 1`).
            if let (e, p) = ext, p.isStaticVariable { return "\(e.lua).\(Naming.field(name)) = \(value)" }
            if direct { return "\(b.code).\(Naming.field(name)) = \(value)" }
            return "swift.setMember(\(b.code), \(Literals.quote(name)), \(value))"
        }
        if let t = target.as(TupleExprSyntax.self) {
            let tmp = temp("t")
            var parts = ["local \(tmp) = \(value)"]
            for (i, el) in t.elements.enumerated() { parts.append(store(el.expression, "\(tmp)[\(i + 1)]", node: node)) }
            return parts.joined(separator: " ")
        }
        if let f = target.as(ForceUnwrapExprSyntax.self) { return store(f.expression, value, node: node) }
        if let o = target.as(OptionalChainingExprSyntax.self) { return store(o.expression, value, node: node) }
        return unsupportedCall("assignment to \(target.trimmedDescription.prefix(30))", node)
    }

    /// The name of `self`'s property that `target` is (`x` not shadowed by a local, or `self.x`).
    func ownProperty(_ target: ExprSyntax) -> String? {
        if let m = target.as(MemberAccessExprSyntax.self), m.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            return m.declName.baseName.text
        }
        if let id = target.as(DeclReferenceExprSyntax.self) {
            let name = id.baseName.text
            if scopes.contains(where: { $0[name] != nil }) { return nil }
            return name
        }
        return nil
    }
}
