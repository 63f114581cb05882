// Statements (SPEC 18.3): declarations of locals, assignments, `if`/`guard` with their optional
// bindings and `case` patterns, `switch`, `for`/`while`/`repeat`, `do`/`try`/`catch`/`throw`,
// `defer` (last-in first-out at every exit of its scope, 18.7.10), `return`, `break`,
// `continue` and labels, in the Swift code's own order, each line marked with its Swift line.
import SwiftSyntax

extension Translator {
    /// Translates a list of statements (a function body, a block) in the current scope.
    func statements(_ list: CodeBlockItemListSyntax) {
        let items = program.items(list)
        // A scope with `defer` runs inside a closure that can run the deferred blocks at every exit.
        if items.contains(where: { $0.item.as(DeferStmtSyntax.self) != nil }) {
            deferScope(items)
            return
        }
        for item in items { statement(item) }
    }

    func block(_ b: CodeBlockSyntax) {
        pushScope()
        statements(b.statements)
        popScope()
    }

    func statement(_ item: CodeBlockItemSyntax) {
        counts.statements += 1
        switch item.item {
        case .decl(let d): localDecl(d)
        case .stmt(let s): stmt(s)
        case .expr(let e): exprStatement(e)
        }
    }

    private func deferScope(_ items: [CodeBlockItemSyntax]) {
        guard let first = items.first else { return }
        let line = file.line(first)
        let c = temp("c"), v = temp("r")
        control.append(.wrapper)
        let body = nested {
            for item in items {
                if let d = item.item.as(DeferStmtSyntax.self) {
                    counts.statements += 1
                    let inner = nested {
                        control.append(.function)
                        block(d.body)
                        control.removeLast()
                    }
                    emit("defer(function()", at: d)
                    out += inner
                    out.append(pad + "end)" + endMarker(d))
                } else {
                    statement(item)
                }
            }
        }
        control.removeLast()
        emit("local \(c), \(v) = swift.scope(function(defer)", line)
        out += body
        out.append(pad + "end)" + marker(file.endLine(items.last!)))
        propagate(c, v, line: line)
    }

    // MARK: - Declarations inside functions

    func localDecl(_ d: DeclSyntax) {
        if let v = d.as(VariableDeclSyntax.self) {
            localVariable(v)
        } else if let f = d.as(FunctionDeclSyntax.self) {
            let name = declare(f.name.text, type: TypeName("Function"))
            emit("local \(name)", at: f)
            let info = program.funcInfo(f, file: file, isStatic: true, mainActor: onMainActor)
            emit("\(name) = " + functionExpr(params: info.params, body: f.body, node: Syntax(f), selfParam: false), at: f)
        } else if d.is(ClassDeclSyntax.self) || d.is(StructDeclSyntax.self) || d.is(EnumDeclSyntax.self) {
            emit(unsupportedCall("a type declared inside a function", d), at: d)
        } else if let ic = d.as(IfConfigDeclSyntax.self) {
            if case .statements(let inner)? = program.active(ic) { statements(inner) }
        } else {
            emit(unsupportedCall(String(d.trimmedDescription.prefix(40)), d), at: d)
        }
    }

    func localVariable(_ v: VariableDeclSyntax) {
        // `async let x = f()`: awaited where it is declared (the child task runs to its end
        // before the next statement: simpler than Swift's concurrent child, same results).
        let asyncLet = v.modifiers.contains { $0.name.tokenKind == .keyword(.async) }
        for b in v.bindings {
            let declared = TypeName(b.typeAnnotation?.type)
            if let id = b.pattern.as(IdentifierPatternSyntax.self) {
                if let initial = b.initializer?.value {
                    var e = expr(initial, expect: declared, optionalUse: declared?.optional ?? false, awaited: asyncLet)
                    if declared?.optional == true, let stub = e.stubName { stubs.markOptional(stub) }
                    e.code = valueCopy(e, initial)
                    let name = declare(id.identifier.text, type: declared ?? e.type, stub: e.stubName)
                    if v.bindingSpecifier.tokenKind == .keyword(.let), let text = constantString(initial) { setLocalConstant(id.identifier.text, text) }
                    emit("local \(name) = \(e.code)", at: b)
                } else {
                    let name = declare(id.identifier.text, type: declared)
                    emit("local \(name)", at: b)
                }
            } else if let tuple = b.pattern.as(TuplePatternSyntax.self) {
                let t = temp("t")
                let e = b.initializer.map { expr($0.value, awaited: asyncLet) } ?? LuaExpr("{}")
                emit("local \(t) = \(e.code)", at: b)
                var names: [String] = [], values: [String] = []
                for (i, el) in tuple.elements.enumerated() {
                    guard let id = el.pattern.as(IdentifierPatternSyntax.self) else { continue }
                    names.append(declare(id.identifier.text))
                    values.append("\(t)[\(i + 1)]")
                }
                if !names.isEmpty { emit("local \(names.joined(separator: ", ")) = \(values.joined(separator: ", "))", at: b) }
            } else if b.pattern.is(WildcardPatternSyntax.self), let initial = b.initializer?.value {
                exprStatement(initial)
            }
        }
    }

    /// Struct, array, dictionary and set values are copied when assigned from a name (18.7.8).
    func valueCopy(_ e: LuaExpr, _ syntax: ExprSyntax) -> String {
        guard syntax.is(DeclReferenceExprSyntax.self) || syntax.is(MemberAccessExprSyntax.self) else { return e.code }
        guard let t = e.type else { return e.code }
        if ["Array", "Dictionary", "Set"].contains(t.name) || program.type(named: t.name, from: currentType)?.kind == .struct {
            return "swift.copy(\(e.code))"
        }
        return e.code
    }

    // MARK: - Statements

    func stmt(_ s: StmtSyntax) {
        if let e = s.as(ExpressionStmtSyntax.self) {
            exprStatement(e.expression)
        } else if let r = s.as(ReturnStmtSyntax.self) {
            if let value = r.expression {
                if value.is(NilLiteralExprSyntax.self), isFailableInit { emit(returnCode("false"), at: r); return }
                emit(returnCode(expr(value).code), at: r)
            } else {
                emit(returnCode(nil), at: r)
            }
        } else if let g = s.as(GuardStmtSyntax.self) {
            guardStmt(g)
        } else if let f = s.as(ForStmtSyntax.self) {
            forStmt(f, label: nil)
        } else if let w = s.as(WhileStmtSyntax.self) {
            whileStmt(w, label: nil)
        } else if let r = s.as(RepeatStmtSyntax.self) {
            repeatStmt(r, label: nil)
        } else if let l = s.as(LabeledStmtSyntax.self) {
            let label = l.label.text
            if let f = l.statement.as(ForStmtSyntax.self) { forStmt(f, label: label) }
            else if let w = l.statement.as(WhileStmtSyntax.self) { whileStmt(w, label: label) }
            else if let r = l.statement.as(RepeatStmtSyntax.self) { repeatStmt(r, label: label) }
            else { stmt(l.statement) }
        } else if let b = s.as(BreakStmtSyntax.self) {
            emit(jumpCode("break", label: b.label?.text), at: b)
        } else if let c = s.as(ContinueStmtSyntax.self) {
            emit(jumpCode("continue", label: c.label?.text), at: c)
        } else if let t = s.as(ThrowStmtSyntax.self) {
            emit("swift.throw(\(expr(t.expression).code))", at: t)
        } else if let d = s.as(DoStmtSyntax.self) {
            doStmt(d)
        } else if let d = s.as(DeferStmtSyntax.self) {
            // A defer outside a scope `statements` wrapped (the last statement of a block): runs now.
            block(d.body)
        } else if s.is(FallThroughStmtSyntax.self) {
            emit(unsupportedCall("fallthrough", s), at: s)
        } else if s.is(DiscardStmtSyntax.self) {
            return
        } else {
            emit(unsupportedCall(String(s.trimmedDescription.prefix(40)), s), at: s)
        }
    }

    var isFailableInit: Bool { currentFunction?.failable ?? false }

    /// An expression used as a statement: calls, assignments, `if`, `switch`.
    func exprStatement(_ e: ExprSyntax) {
        if let i = e.as(IfExprSyntax.self) { ifStmt(i); return }
        if let s = e.as(SwitchExprSyntax.self) { switchStmt(s); return }
        if let infix = e.as(InfixOperatorExprSyntax.self), let code = assignment(infix) {
            emit(code, at: e)
            return
        }
        if let t = e.as(TryExprSyntax.self), t.questionOrExclamationMark?.text == "?" {
            emit("swift.tryOpt(function() \(expr(t.expression).code) end)", at: e)
            return
        }
        if valueBranch {
            emit(returnCode(expr(e).code), at: e)
            return
        }
        let x = expr(e, statement: true)
        let code = x.code
        // Lua accepts only calls as statements.
        if code.hasSuffix(")") && !code.hasPrefix("(") || code.hasPrefix("swift.") || code.hasPrefix("unsupported(") {
            emit(code, at: e)
        } else if code.isEmpty || code == "nil" {
            return
        } else {
            emit("local _ = \(code)", at: e)
        }
    }

    // MARK: - if / guard

    func ifStmt(_ i: IfExprSyntax) {
        let line = file.line(i)
        // Plain boolean conditions: `if a and b then`.
        if i.conditions.allSatisfy({ if case .expression = $0.condition { return true } else { return $0.condition.is(AvailabilityConditionSyntax.self) } }) {
            let cond = i.conditions.map { conditionExpr($0) }.joined(separator: " and ")
            emit("if \(cond) then", line)
            indent += 1; block(i.body); indent -= 1
            elseBranch(i)
            out.append(pad + "end" + endMarker(i))
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
            if let stub = source.stubName { stubs.markOptional(stub) }
            let name = declare(id.identifier.text, type: source.type.map { var t = $0; t.optional = false; return t } ?? TypeName(b.typeAnnotation?.type),
                               stub: source.stubName)
            emit("local \(name) = \(source.code)", line)
            emit("if \(name) ~= nil then", line)
            indent += 1; block(i.body); indent -= 1
            popScope()
            elseBranch(i)
            out.append(pad + "end" + endMarker(i))
            indent -= 1
            out.append(pad + "end" + endMarker(i))
            return
        }
        // Bindings: evaluated in order, each only if the ones before held.
        let ok = temp("ok")
        emit("do", line)
        indent += 1
        pushScope()
        emit("local \(ok) = false", line)
        conditionChain(i.conditions, then: { emit("\(ok) = true", line) })
        emit("if \(ok) then", line)
        indent += 1; block(i.body); indent -= 1
        popScope()
        elseBranch(i)
        out.append(pad + "end" + endMarker(i))
        indent -= 1
        out.append(pad + "end" + endMarker(i))
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
                if let stub = source.stubName { stubs.markOptional(stub) }
                let name = reserved[swiftName]!
                bind(swiftName, lua: name, type: source.type.map { var t = $0; t.optional = false; return t } ?? TypeName(b.typeAnnotation?.type),
                     stub: source.stubName)
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
                emit("if \(expr(e).code) then", at: c)
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
        case .expression(let e): return wrapCondition(expr(e).code)
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
        var inner = e
        while let t = inner.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first { inner = only.expression }
        if let p = inner.as(PrefixOperatorExprSyntax.self), p.operator.text == "!" { return expr(p.expression).code }
        if let infix = inner.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
            let flipped = ["==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<"][op.operator.text]
            if let flipped, !(["<", ">", "<=", ">="].contains(flipped) && expr(infix.leftOperand).type?.name != "Int") {
                let swapped = InfixOperatorExprSyntax(leftOperand: infix.leftOperand,
                                                      operator: ExprSyntax(BinaryOperatorExprSyntax(operator: .binaryOperator(flipped))),
                                                      rightOperand: infix.rightOperand)
                return expr(ExprSyntax(swapped)).code
            }
        }
        return "not \(wrap(expr(e).code))"
    }

    func guardStmt(_ g: GuardStmtSyntax) {
        let line = file.line(g)
        if g.conditions.allSatisfy({ if case .expression = $0.condition { return true } else { return false } }) {
            let cond: String
            if g.conditions.count == 1, case .expression(let e)? = g.conditions.first?.condition {
                cond = negated(e)
            } else {
                cond = "not (" + g.conditions.map { conditionExpr($0) }.joined(separator: " and ") + ")"
            }
            emit("if \(cond) then", line)
            indent += 1; block(g.body); indent -= 1
            out.append(pad + "end" + endMarker(g))
            return
        }
        let ok = temp("ok")
        emit("local \(ok) = false", line)
        conditionChain(g.conditions, then: { emit("\(ok) = true", line) })
        emit("if not \(ok) then", line)
        indent += 1; block(g.body); indent -= 1
        out.append(pad + "end" + endMarker(g))
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

    func forStmt(_ f: ForStmtSyntax, label: String?) {
        let line = file.line(f)
        let (id, cont) = newLoop()
        pushScope()
        var header: String
        // `for i in a..<b` / `a...b` as a numeric for.
        if let range = f.sequence.as(InfixOperatorExprSyntax.self), let op = range.operator.as(BinaryOperatorExprSyntax.self),
           op.operator.text == "..<" || op.operator.text == "...", let id0 = f.pattern.as(IdentifierPatternSyntax.self) {
            let lo = expr(range.leftOperand).code, hi = expr(range.rightOperand).code
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
                names = ["_"]
            }
            header = "for _, \(names[0]) in swift.iter(\(seq.code)) do"
        }
        emit(header, line)
        indent += 1
        if let tb = tupleBind { emit(tb, line); tupleBind = nil }
        control.append(.loop(label: label, continueLabel: cont, id: id))
        if let w = f.whereClause {
            emit("if \(expr(w.condition).code) then", at: w)
            indent += 1; block(f.body); indent -= 1
            out.append(pad + "end" + endMarker(f.body))
        } else {
            block(f.body)
        }
        control.removeLast()
        placeLabel(cont, endMarker(f.body))
        indent -= 1
        popScope()
        endLoop(cont, f)
    }

    func whileStmt(_ w: WhileStmtSyntax, label: String?) {
        let line = file.line(w)
        let (id, cont) = newLoop()
        emit("while true do", line)
        indent += 1
        pushScope()
        control.append(.loop(label: label, continueLabel: cont, id: id))
        // The conditions (bindings too) run each time round; the body in a block of its own, so
        // that `continue` jumps over no local.
        let ok = temp("ok")
        emit("local \(ok) = false", line)
        emit("do", line)
        indent += 1
        conditionChain(w.conditions, then: {
            emit("\(ok) = true", line)
            emit("do", line)
            indent += 1
            block(w.body)
            indent -= 1
            emit("end", file.endLine(w.body))
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
        emit("while true do", line)
        indent += 1
        control.append(.loop(label: label, continueLabel: cont, id: id))
        emit("do", line)
        indent += 1
        block(r.body)
        indent -= 1
        out.append(pad + "end" + endMarker(r.body))
        control.removeLast()
        placeLabel(cont, endMarker(r.body))
        emit("if not (\(expr(r.condition).code)) then break end", at: r.condition)
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
        let handler = nested {
            var first = true
            var catchAll = false
            for clause in d.catchClauses {
                pushScope()
                var test: String?
                var binds: [String] = []
                if let item = clause.catchItems.first, let pattern = item.pattern {
                    let t = patternTest(pattern, subject: "__e", bind: true, catchClause: true)
                    if t.condition != "true" { test = t.condition }
                    binds = t.bindings
                } else {
                    binds = ["local \(declare("error")) = __e"]
                }
                if let test {
                    emit("\(first ? "if" : "elseif") \(test) then", at: clause)
                } else {
                    // A clause that catches everything: the last one Swift allows.
                    catchAll = true
                    if !first { emit("else", at: clause) }
                }
                if !first || test != nil { indent += 1 }
                for b in binds { emit(b, at: clause) }
                block(clause.body)
                if !(out.last ?? "").trimmingSpaces().hasPrefix("do return") {
                    emit("do return nil end", file.endLine(clause.body))  // handled: nothing more to do
                }
                if !first || test != nil { indent -= 1 }
                popScope()
                let opened = !first || test != nil
                first = false
                if !opened { break }
            }
            if !(catchAll && d.catchClauses.count == 1) {
                out.append(pad + "end" + endMarker(d))
            }
            if !catchAll { emit("return false", file.endLine(d)) }
        }
        control.removeLast()
        emit("local \(c), \(v) = swift.doCatch(function()", line)
        out += body
        out.append(pad + "end, function(__e)" + marker(d.catchClauses.first!))
        out += handler
        out.append(pad + "end)" + endMarker(d))
        propagate(c, v, line: line)
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
        var rhs = expr(infix.rightOperand, expect: targetType, optionalUse: targetType?.optional ?? false)
        if targetType?.optional == true, let stub = rhs.stubName { stubs.markOptional(stub) }
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

    /// Assigns `value` to the place `target` names.
    func store(_ target: ExprSyntax, _ value: String, node: Syntax) -> String {
        if let id = target.as(DeclReferenceExprSyntax.self) {
            let r = resolveIdentifier(id.baseName.text, node: Syntax(id))
            if r.code.hasPrefix("swift.global(") {
                return "swift.setGlobal(\(Literals.quote(id.baseName.text)), \(value))"
            }
            // A name the files never declare (a variable of code they do not have): the value
            // is computed and dropped (Lua cannot assign to a call's result).
            if r.code.hasSuffix(")") || r.code.hasPrefix("function") { return "local _ = \(value)" }
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
            // `a?.b = v`: nothing happens when `a` is nil (the value is not even computed).
            if b.chained {
                let o = temp("o")
                let set = direct ? "\(o).\(Naming.field(name)) = \(value)" : "swift.setMember(\(o), \(Literals.quote(name)), \(value))"
                return "do local \(o) = \(b.code) if \(o) ~= nil then \(set) end end"
            }
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
}
