// Statements, conditions (SPEC 18.3): `if` and `guard` with their optional bindings, `case`
// patterns and availability conditions, and `switch` (Patterns.swift makes each case's
// condition). Uses the Translator's scopes and Expressions.
import SwiftSyntax

extension Translator {
    // MARK: - if / guard

    func ifStmt(_ i: IfExprSyntax) {
        let line = file.line(i)
        // Plain boolean conditions: `if a and b then`.
        if i.conditions.allSatisfy({ if case .expression = $0.condition { return true } else { return $0.condition.is(AvailabilityConditionSyntax.self) } }) {
            let cond = i.conditions.map { conditionExpr($0) }.joined(separator: " and ")
            ifThen(i, cond, line: line, inBinding: false)
            return
        }
        // One binding: `local x = e; if x ~= nil then`.
        if i.conditions.count == 1, case .optionalBinding(let b)? = i.conditions.first?.condition,
           let id = b.pattern.as(IdentifierPatternSyntax.self) {
            emit("do", line)
            indent += 1
            pushScope()
            let source: LuaExpr = b.initializer.map { expr($0.value, optionalUse: true) }
                ?? resolveIdentifier(id.identifier.text, node: Syntax(b))
            markOptionalUse(source, b.initializer?.value)
            let name = declare(id.identifier.text, type: source.type.map { var t = $0; t.optional = false; return t } ?? TypeName(b.typeAnnotation?.type),
                               stub: source.stubName)
            noteBundled(id.identifier.text, b.initializer?.value)
            emit("local \(name) = \(source.code)", line)
            ifThen(i, "\(name) ~= nil", line: line, inBinding: true)
            return
        }
        // Bindings: evaluated in order, each only if the ones before held.
        let ok = temp("ok")
        emit("do", line)
        indent += 1
        pushScope()
        emit("local \(ok) = false", line)
        conditionChain(i.conditions, then: { emit("\(ok) = true", line) })
        ifThen(i, ok, line: line, inBinding: true)
    }

    /// `if <cond> then <body> [else ...] end`. `inBinding`: inside the `do` block (and scope) of the
    /// bound names, which close before the else branch (it must not see them) and after the `end`.
    private func ifThen(_ i: IfExprSyntax, _ cond: String, line: Int, inBinding: Bool) {
        emit("if \(cond) then", line)
        // A branch the release build never takes (Program+Constants) does not widen the slice.
        let known = inBinding ? nil : program.constantCondition(i, owner: currentType)
        indent += 1; unwidened(known == false) { block(i.body) }; indent -= 1
        if inBinding { popScope() }
        unwidened(known == true) { elseBranch(i) }
        out.append(pad + "end" + endMarker(i))
        guard inBinding else { return }
        indent -= 1
        out.append(pad + "end" + endMarker(i))
    }

    /// Runs `body` with the slice's widening off when `off` (Translator.widening).
    func unwidened(_ off: Bool, _ body: () -> Void) {
        let outer = widening
        if off { widening = false }
        body()
        widening = outer
    }

    private func elseBranch(_ i: IfExprSyntax) {
        guard let e = i.elseBody else { return }
        out.append(pad + "else" + marker(e))
        indent += 1
        switch e {
        case .ifExpr(let inner): ifStmt(inner)
        case .codeBlock(let b): block(b)
        }
        indent -= 1
    }

    /// Emits the nested checks of a condition list, declaring bound names in the current scope
    /// (declared first so the body sees them), then `then()` innermost.
    func conditionChain(_ conditions: ConditionElementListSyntax, then: () -> Void) {
        // The bound names get their Lua names first (one `local` line, so the body sees them);
        // each joins the scope only once its own initializer was read (`if let x = x` reads the
        // outer x).
        var reserved: [String: String] = [:]
        var order: [String] = []
        func reserve(_ n: String) {
            guard reserved[n] == nil else { return }
            reserved[n] = freshName(n, avoiding: Set(reserved.values))
            order.append(n)
        }
        for c in conditions {
            if case .optionalBinding(let b) = c.condition, let id = b.pattern.as(IdentifierPatternSyntax.self) {
                reserve(id.identifier.text)
            } else if case .matchingPattern(let m) = c.condition {
                for name in patternNames(m.pattern) { reserve(name) }
            }
        }
        if !order.isEmpty { emit("local \(order.map { reserved[$0]! }.joined(separator: ", "))", at: conditions) }
        var opened = 0
        for c in conditions {
            switch c.condition {
            case .optionalBinding(let b):
                guard let id = b.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let swiftName = id.identifier.text
                // `if let x` (no initializer) reads x itself.
                let source: LuaExpr = b.initializer.map { expr($0.value, optionalUse: true) }
                    ?? resolveIdentifier(swiftName, node: Syntax(b))
                markOptionalUse(source, b.initializer?.value)
                let name = reserved[swiftName]!
                bind(swiftName, lua: name, type: source.type.map { var t = $0; t.optional = false; return t } ?? TypeName(b.typeAnnotation?.type),
                     stub: source.stubName)
                noteBundled(swiftName, b.initializer?.value)
                emit("\(name) = \(source.code)", at: c)
                emit("if \(name) ~= nil then", at: c)
                indent += 1; opened += 1
            case .matchingPattern(let m):
                let subject = temp("s")
                emit("local \(subject) = \(expr(m.initializer.value).code)", at: c)
                for n in patternNames(m.pattern) { bind(n, lua: reserved[n]!, type: nil, stub: nil) }
                let test = patternTest(m.pattern, subject: subject, bind: false)
                emit("if \(test.condition) then", at: c)
                indent += 1; opened += 1
                // The pattern's bindings assign the reserved locals.
                for b in test.bindings { emit(b.replacingOccurrences(of: "local ", with: ""), at: c) }
            case .expression(let e):
                emit("if \(condition(e).code) then", at: c)
                indent += 1; opened += 1
            case .availability(let a):
                emit("if \(availability(a)) then", at: c)
                indent += 1; opened += 1
            }
        }
        then()
        for _ in 0..<opened { indent -= 1; out.append(pad + "end" + marker(conditions)) }
    }

    func conditionExpr(_ c: ConditionElementSyntax) -> String {
        switch c.condition {
        case .expression(let e): return wrapCondition(condition(e).code)
        case .availability(let a): return availability(a)
        default: return "true"
        }
    }

    private func wrapCondition(_ code: String) -> String {
        code.contains(" or ") || code.contains(" and ") ? "(\(code))" : code
    }

    /// `#available(iOS N, *)`: true when N is at most the profile's version (18.7.14).
    func availability(_ a: AvailabilityConditionSyntax) -> String {
        let version = profile == "ios26" ? 26 : 13
        var result = true
        for arg in a.availabilityArguments {
            if case .availabilityVersionRestriction(let r) = arg.argument, r.platform.text == "iOS",
               let v = r.version?.major.text, let n = Int(v) {
                result = n <= version
            }
        }
        if a.availabilityKeyword.text == "#unavailable" { result.toggle() }
        return result ? "true" : "false"
    }

    /// `not e`, written the way a reader would (`a ~= b` for `not (a == b)`).
    func negated(_ e: ExprSyntax) -> String {
        let inner = Self.withoutParens(e)
        if let p = inner.as(PrefixOperatorExprSyntax.self), p.operator.text == "!" { return condition(p.expression).code }
        if let infix = inner.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
            let flipped = ["==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<"][op.operator.text]
            if let flipped, !(["<", ">", "<=", ">="].contains(flipped) && expr(infix.leftOperand).type?.name != "Int") {
                let swapped = InfixOperatorExprSyntax(leftOperand: infix.leftOperand,
                                                      operator: ExprSyntax(BinaryOperatorExprSyntax(operator: .binaryOperator(flipped))),
                                                      rightOperand: infix.rightOperand)
                return expr(ExprSyntax(swapped)).code
            }
        }
        return "not \(wrap(condition(e).code))"
    }

    func guardStmt(_ g: GuardStmtSyntax) {
        let line = file.line(g)
        // A guard whose `else` leaves a `while`/`repeat` is that loop's condition too: over a stub
        // it holds for a drawn number of iterations only (SPEC 18.9.5; deltachat's
        // `while true { guard let event = nextEvent() else { break } ... }`).
        let loop = loopLeft(by: g.body)
        if let loop { emit("swift.loopEnter(\(loop))", line) }
        if g.conditions.allSatisfy({ if case .expression = $0.condition { return true } else { return false } }) {
            var cond: String
            if g.conditions.count == 1, case .expression(let e)? = g.conditions.first?.condition {
                cond = negated(e)
            } else {
                cond = "not (" + g.conditions.map { conditionExpr($0) }.joined(separator: " and ") + ")"
            }
            if let loop { cond = "(\(cond)) or not swift.loopCondition(\(loop), true)" }
            emit("if \(cond) then", line)
            indent += 1; block(g.body); indent -= 1
            out.append(pad + "end" + endMarker(g))
            return
        }
        let ok = temp("ok")
        emit("local \(ok) = false", line)
        conditionChain(g.conditions, then: { emit("\(ok) = true", line) })
        if let loop { emit("\(ok) = \(ok) and swift.loopCondition(\(loop), true)", line) }
        emit("if not \(ok) then", line)
        indent += 1; block(g.body); indent -= 1
        out.append(pad + "end" + endMarker(g))
    }

    /// The `swift.loop()` state of the `while` or `repeat` that a guard's `else` leaves: it ends in
    /// `break` (of that loop, with no `switch` or other loop between), or in `return` or `throw`
    /// from inside it. Nil for a `for` loop (it ends by itself) and outside loops.
    func loopLeft(by body: CodeBlockSyntax) -> String? {
        guard let last = body.statements.last?.item else { return nil }
        let brk = last.as(BreakStmtSyntax.self)
        guard brk != nil || last.is(ReturnStmtSyntax.self) || last.is(ThrowStmtSyntax.self) else { return nil }
        let label = brk?.label?.text
        for frame in control.reversed() {
            switch frame {
            case .function: return nil
            case .wrapper: continue
            case .switchCase(let l, _):
                if brk != nil && (label == nil || label == l) { return nil }
            case .loop(let l, _, _, let state):
                if brk == nil || label == nil || label == l { return state }
            }
        }
        return nil
    }

    // MARK: - switch

    func switchStmt(_ s: SwitchExprSyntax, label: String? = nil) {
        let line = file.line(s)
        loopCounter += 1
        let exit = "sw_\(loopCounter)"
        let subject = temp("s")
        let subjectExpr = expr(s.subject)
        emit("do", line)
        indent += 1
        emit("local \(subject) = \(subjectExpr.code)", line)
        control.append(.switchCase(label: label, exitLabel: exit))
        var first = true
        var cases: [SwitchCaseSyntax] = []
        for c in s.cases {
            switch c {
            case .switchCase(let sc): cases.append(sc)
            case .ifConfigDecl(let ic):
                if case .switchCases(let inner)? = program.active(ic) {
                    for x in inner { if case .switchCase(let sc) = x { cases.append(sc) } }
                }
            }
        }
        for c in cases {
            pushScope()
            var bindings: [String] = []
            switch c.label {
            case .default:
                out.append(pad + (first ? "if true then" : "else") + marker(c))
            case .case(let labels):
                var tests: [String] = []
                // Every name the items bind, declared once in the case's scope.
                var names: [String] = []
                for item in labels.caseItems { for n in patternNames(item.pattern) where !names.contains(n) { names.append(n) } }
                for n in names { declare(n) }
                for item in labels.caseItems {
                    var t = patternTest(item.pattern, subject: subject, bind: false, enumType: subjectExpr.type)
                    if let w = item.whereClause {
                        // `where` sees the bindings: evaluated in a closure that binds them.
                        let inner = t.bindings.joined(separator: " ")
                        t.condition = "(\(t.condition) and (function() \(inner) return \(expr(w.condition).code) end)())"
                    }
                    tests.append(t.condition)
                    bindings += t.bindings
                }
                emit("\(first ? "if" : "elseif") \(tests.joined(separator: " or ")) then", at: c)
            }
            first = false
            indent += 1
            for b in bindings { emit(b, at: c) }
            statements(c.statements)
            indent -= 1
            popScope()
        }
        if !first { out.append(pad + "end" + endMarker(s)) }
        control.removeLast()
        indent -= 1
        out.append(pad + "end" + endMarker(s))
        placeLabel(exit, endMarker(s))
    }

}
