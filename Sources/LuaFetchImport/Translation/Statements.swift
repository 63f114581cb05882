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
            // Its parameters' types, so a stub handed it calls it with as many values
            // (duckduckgo's `combineLatest(publisher, combine)` of a local two-parameter function).
            var type = TypeName("Function")
            type.isFunction = true
            type.functionParams = f.signature.parameterClause.parameters.map { TypeName($0.type) }
            let name = declare(f.name.text, type: type)
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
                    var e = expr(initial, expect: declared, awaited: asyncLet)
                    e.code = valueCopy(e, initial)
                    let name = declare(id.identifier.text, type: declared ?? e.type, stub: e.stubName)
                    if v.bindingSpecifier.tokenKind == .keyword(.let), let text = constantString(initial) { setLocalConstant(id.identifier.text, text) }
                    if v.bindingSpecifier.tokenKind == .keyword(.let) { noteBundled(id.identifier.text, initial) }
                    emit("local \(name) = \(e.code)", at: b)
                } else if let start = libraryWrapperStart(v, declared: declared, name: id.identifier.text) {
                    let name = declare(id.identifier.text, type: declared)
                    emit("local \(name) = \(start)", at: b)
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

    /// A local a library's property wrapper holds (`@Dependency(\.store) var store` in a
    /// function) starts with a value, as a wrapped property does: the default its attribute
    /// names, else a stub of its type (or named by the variable).
    func libraryWrapperStart(_ v: VariableDeclSyntax, declared: TypeName?, name: String) -> String? {
        for a in v.attributes.compactMap({ $0.as(AttributeSyntax.self) }) {
            let w = a.attributeName.trimmedDescription
            guard Self.libraryWrapper(w), program.type(named: w, from: currentType) == nil else { continue }
            if let d = dependencyValue(a) { return d }
            if case .argumentList(let list)? = a.arguments,
               let start = list.first(where: { Self.wrapperStartLabels.contains($0.label?.text ?? "") })?.expression {
                return expr(start, expect: declared).code
            }
            return "swift.opaque(\(Literals.quote(declared?.name ?? Program.plain(name))))"
        }
        return nil
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
                // The value takes the result type of the function or closure it returns from
                // (`return .forUITesting`).
                let result = closureResults.isEmpty ? currentFunction?.returnType : closureResults.last ?? nil
                emit(returnCode(expr(value, expect: result).code), at: r)
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
        } else if let y = s.as(YieldStmtSyntax.self) {
            yieldStmt(y)
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
        // Lua accepts only calls as statements: a value read for its effect (a result builder's
        // `Color.brand.background` line; element-x-ios's views failed to compile) is assigned.
        if code.hasSuffix(")") && !code.hasPrefix("(") {
            emit(code, at: e)
        } else if code.isEmpty || code == "nil" {
            return
        } else {
            emit("local _ = \(code)", at: e)
        }
    }


    /// `yield` in a `_read` accessor returns its value (the getter); `yield &x` in a `_modify`
    /// accessor stores the setter's new value into `x` (Lua has the property as a get/set pair).
    func yieldStmt(_ y: YieldStmtSyntax) {
        guard case .single(let e) = y.yieldedExpressions else { emit(unsupportedCall("yield (...)", y), at: y); return }
        var node = y.parent
        while let n = node, !n.is(AccessorDeclSyntax.self) { node = n.parent }
        let accessor = node?.as(AccessorDeclSyntax.self)
        if let place = e.as(InOutExprSyntax.self), accessor?.accessorSpecifier.text == "_modify" {
            let value = resolveIdentifier(accessor?.parameters?.name.text ?? "newValue", node: Syntax(y)).code
            emit(store(place.expression, value, node: Syntax(y)), at: y)
        } else {
            emit(returnCode(expr(e.as(InOutExprSyntax.self)?.expression ?? e).code), at: y)
        }
    }
}
