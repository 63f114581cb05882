// Expressions, operators and closures (SPEC 18.3, 18.7.8): binary operators, casts (`as`,
// `as?`, `as!`, `is`), macros (`#selector`, `#file`...), closures with their parameters and what
// consumes them (a Task, a detached task), and functions written as Lua expressions. Uses the
// Translator's scopes and Statements (a closure's body).
import SwiftSyntax

extension Translator {
    // MARK: - Operators

    func binary(_ op: String, _ a: LuaExpr, _ b: LuaExpr, node: Syntax) -> LuaExpr {
        let numeric: Set<String> = ["Int", "Double", "Float", "CGFloat", "TimeInterval", "Int64", "Int32", "UInt", "Date", "UIBackgroundTaskIdentifier"]
        let aNum = a.type.map { numeric.contains($0.name) && !$0.optional } ?? false
        let bNum = b.type.map { numeric.contains($0.name) && !$0.optional } ?? false
        let floats = (a.type?.name == "Double" || a.type?.name == "TimeInterval" || a.type?.name == "Date" || a.type?.name == "CGFloat")
            || (b.type?.name == "Double" || b.type?.name == "TimeInterval" || b.type?.name == "CGFloat")
        let strings = a.type?.name == "String" && b.type?.name == "String"
        let A = wrap(a.code), B = wrap(b.code)
        let bool = TypeName("Bool")
        switch op {
        case "+":
            if strings { return LuaExpr("\(A) .. \(B)", TypeName("String")) }
            if aNum && bNum && floats { return LuaExpr("\(A) + \(B)", TypeName(a.type?.name == "Date" ? "Date" : "Double")) }
            return LuaExpr("swift.add(\(a.code), \(b.code))", a.type ?? b.type)
        case "-":
            if aNum && bNum && floats { return LuaExpr("\(A) - \(B)", TypeName("Double")) }
            return LuaExpr("swift.sub(\(a.code), \(b.code))", a.type ?? b.type)
        case "*":
            if aNum && bNum && floats { return LuaExpr("\(A) * \(B)", TypeName("Double")) }
            return LuaExpr("swift.mul(\(a.code), \(b.code))", a.type ?? b.type)
        case "/":
            if aNum && bNum && floats { return LuaExpr("\(A) / \(B)", TypeName("Double")) }
            return LuaExpr("swift.div(\(a.code), \(b.code))", a.type ?? b.type)
        case "%": return LuaExpr("swift.mod(\(a.code), \(b.code))", a.type)
        case "&+", "&-", "&*": return LuaExpr("\(A) \(op.dropFirst()) \(B)", a.type)
        case "==":
            if aNum && bNum || strings || (a.type?.name == "Bool" && b.type?.name == "Bool") { return LuaExpr("\(A) == \(B)", bool) }
            return LuaExpr("swift.eq(\(a.code), \(b.code))", bool)
        case "!=":
            if aNum && bNum || strings || (a.type?.name == "Bool" && b.type?.name == "Bool") { return LuaExpr("\(A) ~= \(B)", bool) }
            return LuaExpr("swift.ne(\(a.code), \(b.code))", bool)
        case "===": return LuaExpr("swift.same(\(a.code), \(b.code))", bool)
        case "!==": return LuaExpr("not swift.same(\(a.code), \(b.code))", bool)
        case "<", "<=", ">", ">=":
            if (aNum && bNum) || strings { return LuaExpr("\(A) \(op) \(B)", bool) }
            let fn = ["<": "lt", "<=": "le", ">": "gt", ">=": "ge"][op]!
            return LuaExpr("swift.\(fn)(\(a.code), \(b.code))", bool)
        case "&&": return LuaExpr("\(A) and \(B)", bool)
        case "||": return LuaExpr("\(A) or \(B)", bool)
        case "..<": return LuaExpr("swift.range(\(a.code), \(b.code), false)", TypeName("Range"))
        case "...": return LuaExpr("swift.range(\(a.code), \(b.code), true)", TypeName("Range"))
        case "&": return LuaExpr("\(A) & \(B)", a.type)
        case "|": return LuaExpr("\(A) | \(B)", a.type)
        case "^": return LuaExpr("\(A) ~ \(B)", a.type)
        case "<<": return LuaExpr("\(A) << \(B)", a.type)
        case ">>": return LuaExpr("\(A) >> \(B)", a.type)
        case "~=": return LuaExpr("swift.eq(\(a.code), \(b.code))", bool)
        default: return LuaExpr(unsupportedCall("operator \(op)", node))
        }
    }

    func cast(_ x: LuaExpr, _ type: TypeSyntax, mark: String?) -> LuaExpr {
        let tn = TypeName(type)
        let name = tn?.name ?? type.trimmedDescription
        if let t = program.type(named: name, from: currentType) {
            if mark == "?" { return LuaExpr("swift.as(\(x.code), \(t.lua))", TypeName(t.qualified, optional: true)) }
            if mark == "!" { return LuaExpr("swift.unwrap(swift.as(\(x.code), \(t.lua), true), \"as!\")", TypeName(t.qualified)) }
            return LuaExpr(x.code, TypeName(t.qualified))
        }
        var r = x
        r.type = tn ?? x.type
        if mark == "?" {
            r.type?.optional = true
            switch name {
            case "String": r.code = "(function(v) if type(v) == \"string\" then return v end end)(\(x.code))"
            case "Int", "Double", "TimeInterval": r.code = "(function(v) if type(v) == \"number\" then return v end end)(\(x.code))"
            case "Bool": r.code = "(function(v) if type(v) == \"boolean\" then return v end end)(\(x.code))"
            default: break
            }
        }
        return r
    }

    // MARK: - Macros

    /// The property whose accessor holds `node` (`#function` there is the property's name:
    /// `var count: Int { get { integer(forKey: #function) } }` reads "count").
    func enclosingProperty(_ node: some SyntaxProtocol) -> String? {
        var n = node.parent
        while let x = n {
            if x.is(FunctionDeclSyntax.self) || x.is(InitializerDeclSyntax.self) { return nil }
            if let b = x.as(PatternBindingSyntax.self) { return b.pattern.as(IdentifierPatternSyntax.self).map { Program.plain($0.identifier.text) } }
            n = x.parent
        }
        return nil
    }

    func macro(_ m: MacroExpansionExprSyntax) -> LuaExpr {
        switch m.macroName.text {
        case "selector":
            guard let arg = m.arguments.first?.expression else { return LuaExpr("nil") }
            var target = arg
            if let mm = arg.as(MemberAccessExprSyntax.self) { target = ExprSyntax(mm.declName) }
            let name = target.as(DeclReferenceExprSyntax.self)?.baseName.text ?? arg.trimmedDescription
            if let t = currentType, let method = t.methods(name).first {
                return LuaExpr(method.isStatic ? "function(...) return \(t.lua).\(method.lua)(...) end"
                                               : "function(...) return self:\(method.lua)(...) end", TypeName("Function"))
            }
            return LuaExpr("function() end", TypeName("Function"))
        case "file", "fileID", "filePath": return LuaExpr(Literals.quote(file.source.shown), TypeName("String"))
        case "line": return LuaExpr(String(file.line(m)), TypeName("Int"))
        case "function": return LuaExpr(Literals.quote(currentFunction?.base ?? enclosingProperty(m) ?? ""), TypeName("String"))
        case "column": return LuaExpr("1", TypeName("Int"))
        case "Preview": return LuaExpr("nil")
        default: return LuaExpr(unsupportedCall("#\(m.macroName.text)", m))
        }
    }

    // MARK: - Closures

    /// A closure: `function(params) ... end` (a single expression returns its value). Capture
    /// lists keep strong references (18.7.9).
    func closure(_ c: ClosureExprSyntax, paramTypes: [TypeName?] = [], inoutParams: Set<Int> = []) -> LuaExpr {
        if let capture = c.signature?.capture, capture.items.contains(where: { $0.specifier?.specifier.text == "weak" || $0.specifier?.specifier.text == "unowned" }) {
            weakCaptures += 1
        }
        var names: [(String, TypeName?)] = []
        switch c.signature?.parameterClause {
        case .simpleInput(let list)?:
            for (i, p) in list.enumerated() { names.append((p.name.text, i < paramTypes.count ? paramTypes[i] : nil)) }
        case .parameterClause(let clause)?:
            for (i, p) in clause.parameters.enumerated() {
                names.append(((p.secondName ?? p.firstName).text, TypeName(p.type) ?? (i < paramTypes.count ? paramTypes[i] : nil)))
            }
        case nil:
            // `$0`, `$1`: as many as the body uses.
            let used = Self.anonymousParameters(c.statements)
            for i in 0..<used { names.append(("$\(i)", i < paramTypes.count ? paramTypes[i] : nil)) }
        }
        pushScope()
        control.append(.function)
        closureResults.append(nextClosureResult)
        nextClosureResult = nil
        defer { closureResults.removeLast() }
        let savedIndent = indent
        let savedValueBranch = valueBranch
        valueBranch = false
        defer { valueBranch = savedValueBranch }
        let lua = names.map { declare($0.0, type: $0.1) }
        // `reduce(into:)`'s accumulator is inout: a box (`swift.inoutBox`), read and written as `.v`.
        for i in inoutParams where i < names.count {
            for j in scopes.indices.reversed() where scopes[j][names[i].0] != nil { scopes[j][names[i].0]!.inoutBox = true; break }
        }
        let items = program.items(c.statements)
        let body: [String]
        if items.count == 1, case .expr(let only) = items[0].item, !isStatementExpression(only) {
            body = nested {
                let x = expr(only, expect: closureResults.last ?? nil)
                emit(x.code.isEmpty || x.code == "nil" ? "return" : "return \(x.code)", at: only)
            }
        } else if let only = soleConditional(items) {
            body = nested { valueConditional(only) }
        } else {
            body = nested { statements(c.statements) }
        }
        indent = savedIndent
        control.removeLast()
        popScope()
        let header = "function(\(lua.map { $0 == "_" ? "_" : $0 }.joined(separator: ", ")))"
        if body.isEmpty { return LuaExpr(header + " end", TypeName("Function")) }
        let fn = header + "\n" + body.joined(separator: "\n") + "\n" + pad + "end" + endMarker(c)
        // A closure that awaits, handed to code that calls it outside a task (a stub, an
        // observer): its body runs as a task of its own (`swift.asyncClosure`).
        if Self.awaits(c), !Self.taskMakers.contains(closureConsumer(c) ?? "") {
            let main = onMainActor || c.signature?.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }) == true
            return LuaExpr("swift.asyncClosure(" + fn + ", \(main))", TypeName("Function"))
        }
        return LuaExpr(fn, TypeName("Function"))
    }

    /// Calls that run the closure they are given as a task already.
    static let taskMakers: Set<String> = ["Task", "detached", "addTask", "addTaskUnlessCancelled", "withTaskGroup", "withThrowingTaskGroup",
                                          "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup", "backgroundTask", "task",
                                          "withTaskCancellationHandler", "run"]

    /// The name of the call a closure is an argument of (`Task`, `addTask`, `sink`).
    func closureConsumer(_ c: ClosureExprSyntax) -> String? {
        var node: Syntax? = c.parent
        for _ in 0..<3 {
            guard let n = node else { return nil }
            if let call = n.as(FunctionCallExprSyntax.self) {
                let callee = call.calledExpression
                if let d = callee.as(DeclReferenceExprSyntax.self) { return d.baseName.text }
                if let m = callee.as(MemberAccessExprSyntax.self) { return m.declName.baseName.text }
                if let g = callee.as(GenericSpecializationExprSyntax.self) { return g.expression.trimmedDescription }
                return nil
            }
            node = n.parent
        }
        return nil
    }

    /// Whether a closure awaits in its own body (not in closures inside it), or is declared async.
    static func awaits(_ c: ClosureExprSyntax) -> Bool {
        if c.signature?.effectSpecifiers?.asyncSpecifier != nil { return true }
        final class Finder: SyntaxVisitor {
            var found = false
            override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind { found = true; return .skipChildren }
            override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
                if node.awaitKeyword != nil { found = true }
                return .visitChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let f = Finder(viewMode: .sourceAccurate)
        f.walk(c.statements)
        return f.found
    }

    /// An `if` or `switch` whose every branch is one expression (or a `throw`): Swift's `if`
    /// and `switch` expressions, whose value a function, getter or closure of one such
    /// statement returns (18.9.6).
    func isValueConditional(_ e: ExprSyntax) -> Bool {
        func single(_ items: CodeBlockItemListSyntax) -> Bool {
            let list = program.items(items)
            guard list.count == 1 else { return false }
            switch list[0].item {
            case .expr(let x): return !isStatementExpression(x) || isValueConditional(x)
            case .stmt(let st):
                if let x = st.as(ExpressionStmtSyntax.self)?.expression { return isValueConditional(x) }
                return st.is(ThrowStmtSyntax.self)
            default: return false
            }
        }
        if let i = e.as(IfExprSyntax.self) {
            guard single(i.body.statements) else { return false }
            switch i.elseBody {
            case .codeBlock(let b)?: return single(b.statements)
            case .ifExpr(let x)?: return isValueConditional(ExprSyntax(x))
            case nil: return false
            }
        }
        if let sw = e.as(SwitchExprSyntax.self) {
            return !sw.cases.isEmpty && sw.cases.allSatisfy { c in
                guard let sc = c.as(SwitchCaseSyntax.self) else { return false }
                return single(sc.statements)
            }
        }
        return false
    }

    /// The `if` or `switch` expression a body of one item is (an `if` at the start of a statement
    /// is an expression statement in the syntax tree).
    func soleConditional(_ items: [CodeBlockItemSyntax]) -> ExprSyntax? {
        guard items.count == 1 else { return nil }
        var e: ExprSyntax?
        switch items[0].item {
        case .expr(let x): e = x
        case .stmt(let st): e = st.as(ExpressionStmtSyntax.self)?.expression
        default: e = nil
        }
        guard let e, isValueConditional(e) else { return nil }
        return e
    }

    /// Writes such an `if` or `switch` so that each branch returns its value.
    func valueConditional(_ e: ExprSyntax) {
        let saved = valueBranch
        valueBranch = true
        exprStatement(e)
        valueBranch = saved
    }

    /// An expression that is a statement of its own (no value to return from a closure).
    func isStatementExpression(_ e: ExprSyntax) -> Bool {
        if let infix = e.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) { return true }
        if let infix = e.as(InfixOperatorExprSyntax.self), let b = infix.operator.as(BinaryOperatorExprSyntax.self), b.operator.text.hasSuffix("="),
           !["==", "!=", "<=", ">=", "===", "!=="].contains(b.operator.text) { return true }
        return e.is(IfExprSyntax.self) || e.is(SwitchExprSyntax.self)
    }

    /// How many `$N` parameters a closure body uses.
    static func anonymousParameters(_ items: CodeBlockItemListSyntax) -> Int {
        final class Finder: SyntaxVisitor {
            var maxIndex = -1
            override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
                let t = node.baseName.text
                if t.hasPrefix("$"), let n = Int(t.dropFirst()) { maxIndex = max(maxIndex, n) }
                return .visitChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let f = Finder(viewMode: .sourceAccurate)
        f.walk(items)
        return f.maxIndex + 1
    }

    /// A function value for a local function or a method body.
    func functionExpr(params: [FuncInfo.Param], body: CodeBlockSyntax?, node: Syntax, selfParam: Bool) -> String {
        pushScope()
        control.append(.function)
        let names = params.map { declare($0.name, type: $0.type) }
        let boxes = markInout(params, names)
        let lines = nested {
            for line in boxes { emit(line, file.line(node)) }
            for (p, n) in zip(params, names) {
                if let d = p.defaultValue { emit("if \(n) == nil then \(n) = \(expr(d, expect: p.type).code) end", file.line(node)) }
            }
            if let body { statements(body.statements) }
        }
        control.removeLast()
        popScope()
        let header = "function(\(names.joined(separator: ", ")))"
        if lines.isEmpty { return header + " end" }
        return header + "\n" + lines.joined(separator: "\n") + "\n" + pad + "end" + marker(file.endLine(body.map(Syntax.init) ?? node))
    }
}
