// Expressions (SPEC 18.3, 18.7.8): literals and string interpolation, names (locals, `self`'s
// properties, statics, globals, types), member access (translated types directly, built-in
// values and unknown receivers through the runtime, which also answers for stubs), optionals
// (`?.` chains, `!`, `??`), Swift's operators with Swift's semantics, casts, closures (capture
// lists are strong references, 18.7.9), collections, tuples, subscripts (0-based), `try`,
// `await`, and `if`/`switch` used as values.
import SwiftSyntax

extension Translator {
    /// Translates an expression. `expect`: the type the context wants (implicit members);
    /// `optionalUse`: its value is used as an optional (a stub's result may then be nil under
    /// explore); `statement`: its value is not used.
    func expr(_ e: ExprSyntax, expect: TypeName? = nil, optionalUse: Bool = false, statement: Bool = false,
              lvalue: Bool = false, awaited: Bool = false) -> LuaExpr {
        if let i = e.as(IntegerLiteralExprSyntax.self) {
            return LuaExpr(Literals.integer(i.literal.text) ?? Literals.float(i.literal.text), TypeName(expect?.name == "Double" ? "Double" : "Int"))
        }
        if let f = e.as(FloatLiteralExprSyntax.self) { return LuaExpr(Literals.float(f.literal.text), TypeName("Double")) }
        if let b = e.as(BooleanLiteralExprSyntax.self) { return LuaExpr(b.literal.text, TypeName("Bool")) }
        if e.is(NilLiteralExprSyntax.self) { return LuaExpr("nil") }
        if let s = e.as(StringLiteralExprSyntax.self) { return stringLiteral(s) }
        if let d = e.as(DeclReferenceExprSyntax.self) { return resolveIdentifier(d.baseName.text, node: Syntax(d)) }
        if let m = e.as(MemberAccessExprSyntax.self) { return memberAccess(m, expect: expect, optionalUse: optionalUse) }
        if let c = e.as(FunctionCallExprSyntax.self) { return call(c, expect: expect, optionalUse: optionalUse, awaited: awaited) }
        if let c = e.as(ClosureExprSyntax.self) { return closure(c) }
        if let infix = e.as(InfixOperatorExprSyntax.self) {
            if let a = assignment(infix) {
                // An assignment used as a value (rare in Swift: it is Void).
                return LuaExpr("(function() \(a) end)()")
            }
            if let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
                let opText = op.operator.text
                if opText == "??" {
                    let a = expr(infix.leftOperand, optionalUse: true)
                    if let stub = a.stubName { stubs.markOptional(stub) }
                    let b = expr(infix.rightOperand, expect: a.type)
                    return LuaExpr("swift.coalesce(\(a.code), function() return \(b.code) end)", b.type ?? a.type.map { var t = $0; t.optional = false; return t })
                }
                if opText == "==" || opText == "!=" {
                    if infix.rightOperand.is(NilLiteralExprSyntax.self) || infix.leftOperand.is(NilLiteralExprSyntax.self) {
                        let other = infix.rightOperand.is(NilLiteralExprSyntax.self) ? infix.leftOperand : infix.rightOperand
                        let x = expr(other, optionalUse: true)
                        if let stub = x.stubName { stubs.markOptional(stub) }
                        return LuaExpr("\(x.code) \(opText == "==" ? "==" : "~=") nil", TypeName("Bool"))
                    }
                }
                let left = expr(infix.leftOperand)
                let right = expr(infix.rightOperand, expect: left.type)
                return binary(opText, left, right, node: Syntax(infix))
            }
            if let a = infix.operator.as(AsExprSyntax.self) { return cast(expr(infix.leftOperand), a.type, mark: a.questionOrExclamationMark?.text) }
            if infix.operator.is(IsExprSyntax.self), let t = infix.rightOperand.as(TypeExprSyntax.self) {
                return LuaExpr(typeTest(t.type, expr(infix.leftOperand).code), TypeName("Bool"))
            }
            return LuaExpr(unsupportedCall("operator \(infix.operator.trimmedDescription)", infix))
        }
        if let a = e.as(AsExprSyntax.self) { return cast(expr(a.expression), a.type, mark: a.questionOrExclamationMark?.text) }
        if let i = e.as(IsExprSyntax.self) {
            let x = expr(i.expression)
            return LuaExpr(typeTest(i.type, x.code), TypeName("Bool"))
        }
        if let p = e.as(PrefixOperatorExprSyntax.self) {
            let x = expr(p.expression)
            switch p.operator.text {
            case "!":
                var inner = p.expression
                while let t = inner.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first { inner = only.expression }
                if let double = inner.as(PrefixOperatorExprSyntax.self), double.operator.text == "!" { return expr(double.expression) }
                return LuaExpr("not \(wrap(x.code))", TypeName("Bool"))
            case "-":
                if p.expression.is(IntegerLiteralExprSyntax.self) || p.expression.is(FloatLiteralExprSyntax.self) { return LuaExpr("-" + x.code, x.type) }
                return LuaExpr(x.type?.name == "Double" ? "-\(wrap(x.code))" : "swift.neg(\(x.code))", x.type)
            case "+": return x
            case "~": return LuaExpr("~\(wrap(x.code))", x.type)
            case "..<": return LuaExpr("swift.range(-math.huge, \(x.code), false)")
            case "...": return LuaExpr("swift.range(-math.huge, \(x.code), true)")
            default: return LuaExpr(unsupportedCall("prefix operator \(p.operator.text)", p))
            }
        }
        if let p = e.as(PostfixOperatorExprSyntax.self) {
            if p.operator.text == "..." { return LuaExpr("swift.range(\(expr(p.expression).code), math.huge, false)") }
            return LuaExpr(unsupportedCall("postfix operator \(p.operator.text)", p))
        }
        if let f = e.as(ForceUnwrapExprSyntax.self) {
            var x = expr(f.expression)
            x.code = "swift.unwrap(\(x.code))"
            x.type?.optional = false
            return x
        }
        if let o = e.as(OptionalChainingExprSyntax.self) {
            var x = expr(o.expression, optionalUse: true)
            if let stub = x.stubName { stubs.markOptional(stub) }
            x.chained = true
            return x
        }
        if let t = e.as(TryExprSyntax.self) {
            let mark = t.questionOrExclamationMark?.text
            // `try!` says the call cannot throw: explore does not draw a throw for it.
            pendingTry = mark != "!"
            var inner = expr(t.expression, expect: expect, optionalUse: optionalUse || mark == "?", statement: statement, awaited: awaited)
            pendingTry = false
            if mark == "?" {
                inner.code = "swift.tryOpt(function() return \(inner.code) end)"
                inner.type?.optional = true
            } else if mark == "!" {
                inner.code = "swift.tryForce(function() return \(inner.code) end)"
            }
            return inner
        }
        if let a = e.as(AwaitExprSyntax.self) {
            return expr(a.expression, expect: expect, optionalUse: optionalUse, statement: statement, awaited: true)
        }
        if let t = e.as(TernaryExprSyntax.self) {
            let c = expr(t.condition).code
            let a = expr(t.thenExpression, expect: expect), b = expr(t.elseExpression, expect: expect)
            return LuaExpr("(function() if \(c) then return \(a.code) end return \(b.code) end)()", a.type ?? b.type)
        }
        if let a = e.as(ArrayExprSyntax.self) {
            let items = a.elements.map { expr($0.expression).code }
            let elementType = a.elements.first.flatMap { expr($0.expression).type?.name }
            return LuaExpr("swift.array({ \(items.joined(separator: ", ")) })", TypeName("Array", element: elementType))
        }
        if let d = e.as(DictionaryExprSyntax.self) {
            switch d.content {
            case .colon: return LuaExpr("swift.dict({})", TypeName("Dictionary"))
            case .elements(let list):
                let items = list.map { "[\(expr($0.key).code)] = \(expr($0.value).code)" }
                return LuaExpr("swift.dict({ \(items.joined(separator: ", ")) })", TypeName("Dictionary"))
            }
        }
        if let t = e.as(TupleExprSyntax.self) {
            if t.elements.count == 1, let only = t.elements.first, only.label == nil {
                var x = expr(only.expression, expect: expect, optionalUse: optionalUse)
                x.code = "(\(x.code))"
                return x
            }
            var parts: [String] = []
            var labelled: [String] = []
            for el in t.elements {
                let x = expr(el.expression).code
                parts.append(x)
                if let l = el.label?.text { labelled.append("\(Naming.field(l)) = \(x)") }
            }
            if labelled.isEmpty { return LuaExpr("{ \(parts.joined(separator: ", ")) }", TypeName("Tuple")) }
            // A labelled tuple: by position and by label (evaluated once).
            let tmp = temp("t")
            let fields = t.elements.enumerated().compactMap { i, el in el.label.map { "\(tmp).\(Naming.field($0.text)) = \(tmp)[\(i + 1)]" } }
            return LuaExpr("(function() local \(tmp) = { \(parts.joined(separator: ", ")) } \(fields.joined(separator: " ")) return \(tmp) end)()", TypeName("Tuple"))
        }
        if let s = e.as(SubscriptCallExprSyntax.self) {
            let base = expr(s.calledExpression)
            let args = Array(s.arguments)
            if args.count == 2, args[1].label?.text == "default" {
                return LuaExpr("swift.indexDefault(\(base.code), \(expr(args[0].expression).code), \(expr(args[1].expression).code))", base.type?.element.map { TypeName($0) })
            }
            guard let first = args.first else { return LuaExpr("nil") }
            var t = base.type?.element.map { TypeName($0) }
            if base.type?.name == "Dictionary" { t?.optional = true }
            let code = base.chained ? "swift.opt(\(base.code), function(c) return swift.index(c, \(expr(first.expression).code)) end)"
                                    : "swift.index(\(base.code), \(expr(first.expression).code))"
            var r = LuaExpr(base.chained ? "(function() local c = \(base.code) if c == nil then return nil end return swift.index(c, \(expr(first.expression).code)) end)()" : code, t)
            r.chained = base.chained
            return r
        }
        if let k = e.as(KeyPathExprSyntax.self) {
            // `\.a.b` (or `\Root.a.b`): a function reading the path, as Swift lets a key path
            // stand for a function (`map(\.name)`, `sorted(by: \.date)` with a comparator).
            let names = k.components.map { $0.component.trimmedDescription.trimmingCharacters(".") }
                .filter { !$0.isEmpty && $0 != "self" && !$0.contains("[") && !$0.contains("?") && !$0.contains("!") }
            guard !names.isEmpty else { return LuaExpr("function(__v) return __v end", TypeName("KeyPath")) }
            let body = names.reduce("__v") { "swift.get(0, \($0), \(Literals.quote($1)))" }
            return LuaExpr("function(__v) return \(body) end", TypeName("KeyPath"))
        }
        if let mx = e.as(MacroExpansionExprSyntax.self) { return macro(mx) }
        if let i = e.as(IfExprSyntax.self) { return valueOf { ifStmt(i) } }
        if let s = e.as(SwitchExprSyntax.self) { return valueOf { switchStmt(s) } }
        if let g = e.as(GenericSpecializationExprSyntax.self) { return expr(g.expression, expect: expect) }
        if let t = e.as(TypeExprSyntax.self) {
            let name = TypeName(t.type)?.name ?? t.type.trimmedDescription
            return typeReference(name, node: Syntax(t))
        }
        if e.is(SuperExprSyntax.self) {
            return LuaExpr(currentType?.superclass?.lua ?? "swift.opaque(\"super\")")
        }
        if let i = e.as(InOutExprSyntax.self) { return expr(i.expression) }
        if e.is(DiscardAssignmentExprSyntax.self) { return LuaExpr("nil") }
        if let p = e.as(PatternExprSyntax.self) { return LuaExpr(Literals.quote(p.trimmedDescription)) }
        if let c = e.as(CopyExprSyntax.self) { return expr(c.expression) }
        if let c = e.as(ConsumeExprSyntax.self) { return expr(c.expression) }
        return LuaExpr(unsupportedCall(String(e.trimmedDescription.prefix(40)), e))
    }

    func wrap(_ code: String) -> String {
        let simple = code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        return simple || (code.hasSuffix(")") && !code.hasPrefix("(") && !code.contains(" ")) ? code : "(\(code))"
    }

    /// An `if` or `switch` used as a value: its branches' last expressions are returned from a
    /// closure called on the spot.
    func valueOf(_ body: () -> Void) -> LuaExpr {
        control.append(.function)
        valueBranch = true
        let lines = nested(body)
        valueBranch = false
        control.removeLast()
        return LuaExpr("(function()\n" + lines.joined(separator: "\n") + "\n" + pad + "end)()")
    }

    // MARK: - Strings

    func stringLiteral(_ s: StringLiteralExprSyntax) -> LuaExpr {
        if let text = Literals.plainString(s) {
            noteURLHost(text)
            return LuaExpr(Literals.quote(text), TypeName("String"))
        }
        var parts: [String] = []
        let raw = s.openingPounds != nil, multiline = s.openingQuote.text == "\"\"\""
        for seg in s.segments {
            switch seg {
            case .stringSegment(let t):
                let text = Literals.unescape(t.content.text, raw: raw, multiline: multiline)
                if !text.isEmpty { parts.append(Literals.quote(text)) }
            case .expressionSegment(let x):
                for a in x.expressions { parts.append(expr(a.expression).code) }
            }
        }
        if let first = s.segments.first, case .stringSegment(let t) = first { noteURLHost(t.content.text) }
        return LuaExpr("swift.interp(\(parts.joined(separator: ", ")))", TypeName("String"))
    }

    /// A URL literal's host gets a fake server in the default world (18.2).
    func noteURLHost(_ text: String) {
        for scheme in ["https://", "http://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            let host = String(rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "\\" && $0 != "(" })
            if !host.isEmpty, host.contains("."), !hosts.contains(host), host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
                hosts.append(host)
            }
        }
    }

    // MARK: - Names

    /// What a name means here: a local, `self`'s property or method, a static of the type, a
    /// global, a free function, a type, or (unknown) an opaque value.
    func resolveIdentifier(_ name: String, node: Syntax, outerOnly: Bool = false) -> LuaExpr {
        // An operator used as a function (`reduce(0, +)`, `sorted(by: <)`).
        let operators = ["+": "swift.add", "-": "swift.sub", "*": "swift.mul", "/": "swift.div", "%": "swift.mod", "<": "swift.lt",
                         ">": "swift.gt", "<=": "swift.le", ">=": "swift.ge", "==": "swift.eq", "!=": "swift.ne"]
        if let fn = operators[name] { return LuaExpr(fn, TypeName("Function")) }
        if name == "self" {
            if inStatic, let t = currentType { var r = LuaExpr(t.lua); r.typeRef = t; return r }
            var r = LuaExpr("self", currentType.map { TypeName($0.qualified) })
            r.typeRef = nil
            return r
        }
        if name == "Self", let t = currentType { var r = LuaExpr(t.lua); r.typeRef = t; return r }
        let searched = outerOnly ? Array(scopes.dropLast()) : scopes
        for s in searched.reversed() {
            if let v = s[name] {
                var r = LuaExpr(v.inoutBox ? "\(v.lua).v" : v.lua, v.type)
                r.stubName = v.stubName
                return r
            }
        }
        if let t = currentType {
            if let p = t.property(name) {
                if p.isStatic { return LuaExpr("\(staticOwner(p, t)).\(Naming.field(name))", p.type) }
                if !inStatic && t.external { return LuaExpr("swift.extGet(\(t.lua), \(Literals.quote(Naming.field(name))), self)", p.type) }
                if !inStatic { return LuaExpr("self.\(Naming.field(name))", p.type) }
            }
            // In an extension of an iOS or Swift type, a bare name is the type's own member
            // (in a static method, a static: `shared`).
            if t.external, inStatic, name.first?.isLowercase == true, t.methods(name).isEmpty,
               program.globals[name] == nil, program.functions[name] == nil {
                var typeRef = LuaExpr("swift.opaque(\(Literals.quote(t.qualified)))", TypeName(t.qualified))
                typeRef.apiType = t.qualified
                if let v = APIs.member(t.qualified, name, translator: self, base: typeRef, node: node) { return v }
            }
            if t.external, !inStatic, name.first?.isLowercase == true, t.methods(name).isEmpty,
               program.globals[name] == nil, program.functions[name] == nil {
                if let v = APIs.member(t.qualified, name, translator: self, base: LuaExpr("self", TypeName(t.qualified)), node: node) { return v }
                return LuaExpr("swift.get(0, self, \(Literals.quote(name)))", APIs.builtinMemberType(TypeName(t.qualified), name))
            }
            let ms = t.methods(name)
            if let m = ms.first {
                if m.isStatic || inStatic { return LuaExpr("function(...) return \(t.lua).\(m.lua)(...) end", TypeName("Function")) }
                if t.external { return LuaExpr("function(...) return \(t.lua).\(m.lua)(self, ...) end", TypeName("Function")) }
                return LuaExpr("function(...) return self:\(m.lua)(...) end", TypeName("Function"))
            }
            if t.kind == .enum, inStatic == false, t.cases.contains(where: { $0.name == name }) {
                return LuaExpr("\(t.lua).\(Naming.field(name))", TypeName(t.qualified))
            }
        }
        // A member inherited from a base class the files do not define (`isCancelled` in an
        // `Operation` subclass): read from the instance at run time.
        if let t = currentType, !inStatic, let base = t.inheritedOpaqueBase, base == "Operation" || base == "BlockOperation",
           name.first?.isLowercase == true,
           Self.operationMembers.contains(name) || (program.globals[name] == nil && program.functions[name] == nil && !["max", "min"].contains(name)) {
            return LuaExpr("self.\(Naming.field(name))", Self.operationMembers.contains(name) ? TypeName("Bool") : nil)
        }
        if name == "max" || name == "min" { return LuaExpr("math.\(name)", TypeName("Function")) }
        if let g = program.globals[name] {
            return LuaExpr("swift.global(\(Literals.quote(name)), T.__global_\(Naming.field(name)))", g.type)
        }
        if let f = program.functions[name]?.first {
            return LuaExpr("T.\(f.lua)", TypeName("Function"))
        }
        return typeReference(name, node: node)
    }

    /// Operation's state flags, read from the instance in a subclass.
    static let operationMembers: Set<String> = ["isCancelled", "isFinished", "isExecuting", "isReady", "isAsynchronous", "isConcurrent"]

    /// Where a static property lives: the type that declares it.
    func staticOwner(_ p: PropertyInfo, _ t: TypeDecl) -> String {
        var c: TypeDecl? = t
        while let x = c {
            if x.properties[p.name] != nil { return x.lua }
            c = x.superclass
        }
        return t.lua
    }

    /// A type's name used as a value: a translated type, a known API, or an unknown type.
    func typeReference(_ name: String, node: Syntax) -> LuaExpr {
        if let t = program.type(named: name, from: currentType) {
            var r = LuaExpr(t.lua, TypeName(t.qualified))
            r.typeRef = t
            return r
        }
        if let v = APIs.globalValue(name) { return LuaExpr(v.code, v.type) }
        if APIs.knownTypes.contains(name) {
            var r = LuaExpr("swift.opaque(\(Literals.quote(name)))", TypeName(name))
            r.apiType = name
            return r
        }
        // An unknown name: a type or a value of code the files do not define.
        var r = LuaExpr("swift.opaque(\(Literals.quote(name)))", name.first?.isUppercase == true ? TypeName(name) : nil)
        if name.first?.isUppercase == true { r.apiType = "?" + name } else { r.stubName = name }
        return r
    }

    // MARK: - Members

    func memberAccess(_ m: MemberAccessExprSyntax, expect: TypeName?, optionalUse: Bool) -> LuaExpr {
        let name = m.declName.baseName.text
        guard let baseSyntax = m.base else { return implicitMember(name, expect: expect, node: Syntax(m)) }
        if name == "self" { return expr(baseSyntax) }
        let base = expr(baseSyntax)
        // A translated type: its statics, enum cases and nested types.
        if let t = base.typeRef {
            if let nested = t.nested[name] { var r = LuaExpr(nested.lua, TypeName(nested.qualified)); r.typeRef = nested; return r }
            if let c = t.cases.first(where: { $0.name == name }) { _ = c; return LuaExpr("\(t.lua).\(Naming.field(name))", TypeName(t.qualified)) }
            let p = t.property(name)
            if name == "init" { return LuaExpr("function(...) return swift.new(\(t.lua), \"init\", ...) end") }
            if let m = t.methods(name).first { return LuaExpr("\(t.lua).\(m.lua)", TypeName("Function")) }
            return LuaExpr("\(p.map { staticOwner($0, t) } ?? t.lua).\(Naming.field(name))", p?.type)
        }
        // A type the files extend (`Notification.Name.syncDone`), or a type nested in an API's.
        if let api = base.apiType {
            let typeName = api.hasPrefix("?") ? String(api.dropFirst()) : api
            if let v = extensionStatics["\(typeName).\(name)"] { return LuaExpr(v) }
            if name.first?.isUppercase == true { return typeReference("\(typeName).\(name)", node: Syntax(m)) }
        }
        // A known API: mapped values (`UIApplication.shared`, `DispatchQueue.main`, `Date.distantFuture`).
        if let api = base.apiType ?? base.type?.name, let v = APIs.member(api.hasPrefix("?") ? String(api.dropFirst()) : api, name, translator: self, base: base, node: Syntax(m)) {
            counts.map("\(api.hasPrefix("?") ? String(api.dropFirst()) : api).\(name)")
            var r = v
            r.chained = base.chained && !v.code.hasPrefix("swift.opaque")
            if base.chained && !v.code.hasPrefix("swift.opaque") && v.code.hasPrefix(base.code + ".") {
                r.code = "swift.opt(\(base.code), \(Literals.quote(String(v.code.dropFirst(base.code.count + 1)))))"
            }
            return r
        }
        // A computed property an extension of the files adds to an iOS or Swift type.
        if let ext = externalType(for: base), let p = ext.property(name), p.kind == .computed {
            if p.isStatic { return LuaExpr("\(ext.lua).\(Naming.field(name))", p.type) }
            var r = LuaExpr(base.chained ? "swift.optApply(\(base.code), function(__r) return swift.extGet(\(ext.lua), \(Literals.quote(Naming.field(name))), __r) end)"
                                         : "swift.extGet(\(ext.lua), \(Literals.quote(Naming.field(name))), \(base.code))", p.type)
            r.chained = base.chained
            return r
        }
        // An unknown type's `shared`/`default`/`standard`/`current` is a value of that type (18.7.5).
        if let api = base.apiType, api.hasPrefix("?") {
            let typeName = String(api.dropFirst())
            if ["shared", "default", "standard", "current", "instance", "sharedInstance", "main"].contains(name) {
                var r = LuaExpr("swift.opaque(\(Literals.quote(typeName)))", TypeName(typeName))
                r.stubName = typeName
                return r
            }
            return stubMember(base, receiverName: typeName, name: name, node: Syntax(m), optionalUse: optionalUse)
        }
        // An instance of a translated type.
        if let tn = base.type, let t = program.type(named: tn.name, from: currentType) {
            let p = t.property(name)
            var r: LuaExpr
            if base.chained || tn.optional && base.chained {
                r = LuaExpr("swift.opt(\(base.code), \(Literals.quote(Naming.field(name))))", p?.type)
            } else {
                r = LuaExpr("\(wrapBase(base.code)).\(Naming.field(name))", p?.type)
            }
            if p == nil, let mth = t.methods(name).first {
                r = LuaExpr("function(...) return \(wrapBase(base.code)):\(mth.lua)(...) end", TypeName("Function"))
            }
            r.chained = base.chained
            return r
        }
        // Tuples: `.0`, `.1`.
        if let idx = Int(name) { return LuaExpr("\(wrapBase(base.code))[\(idx + 1)]") }
        // A built-in value or an unknown one: found at run time (a stub when it is opaque).
        if let tn = base.type, APIs.builtinValueTypes.contains(tn.name) {
            var r = LuaExpr("swift.\(base.chained ? "optGet" : "get")(0, \(base.code), \(Literals.quote(name)))", APIs.builtinMemberType(tn, name))
            r.chained = base.chained
            return r
        }
        return stubMember(base, receiverName: receiverName(baseSyntax, base), name: name, node: Syntax(m), optionalUse: optionalUse)
    }

    func wrapBase(_ code: String) -> String {
        if code.hasPrefix("swift.opaque(") || code.hasPrefix("(") { return code }
        if code.contains(" ") && !code.hasSuffix(")") { return "(\(code))" }
        if code.hasPrefix("\"") { return "(\(code))" }
        return code
    }

    /// A property of a value the files do not define: read at run time; when the receiver is
    /// opaque, the stub `Receiver.name` answers (and explore may draw nil where it is used as an
    /// optional).
    func stubMember(_ base: LuaExpr, receiverName: String, name: String, node: Syntax, optionalUse: Bool) -> LuaExpr {
        let stubName = "\(receiverName).\(name)"
        let site = stubs.site(stubName, where: location(node), optional: optionalUse, node: node)
        var r = LuaExpr("swift.\(base.chained ? "optGet" : "get")(\(site), \(base.code), \(Literals.quote(name)))")
        r.stubName = stubName
        r.chained = base.chained
        r.type = APIs.builtinMemberType(TypeName(""), name)
        return r
    }

    /// The receiver's name for a stub (18.7.5): its type where the code says it, the name of the
    /// stub that produced it, else the receiver as written without `self.`.
    func receiverName(_ syntax: ExprSyntax, _ base: LuaExpr) -> String {
        if let s = base.stubName { return s }
        if let t = base.type, !t.name.isEmpty, !["Function", "Tuple", "KeyPath"].contains(t.name) { return t.name }
        var text = syntax.trimmedDescription
        if text.hasPrefix("self.") { text = String(text.dropFirst(5)) }
        text = text.filter { $0 != "?" && $0 != "!" && $0 != " " && $0 != "\n" }
        if let paren = text.firstIndex(of: "(") { text = String(text[..<paren]) }
        return text.isEmpty ? "value" : text
    }

    /// `.name` where the type is implied: the expected type's case or static, a known API's
    /// constant, else an enum token that compares equal to any enum case of that name.
    func implicitMember(_ name: String, expect: TypeName?, node: Syntax) -> LuaExpr {
        if let e = expect, let t = program.type(named: e.name, from: currentType) {
            if t.cases.contains(where: { $0.name == name }) { return LuaExpr("\(t.lua).\(Naming.field(name))", TypeName(t.qualified)) }
            if t.property(name)?.isStatic == true { return LuaExpr("\(t.lua).\(Naming.field(name))", t.property(name)?.type) }
        }
        if let v = implicitConstant(name) { return LuaExpr(v) }
        // `.now`, `.distantPast`, `.distantFuture`: Date's (unless an enum of the app has such a case).
        let dates = ["now": "swift.now()", "distantPast": "-math.huge", "distantFuture": "math.huge"]
        if let v = dates[name], !program.typeOrder.contains(where: { $0.cases.contains { $0.name == name } }) {
            return LuaExpr(v, TypeName("Date"))
        }
        if let v = extensionStatics[name] { return LuaExpr(v) }
        if let e = expect, let v = APIs.member(e.name, name, translator: self, base: LuaExpr(""), node: node) { return v }
        return LuaExpr("swift.case(\(Literals.quote(name)))")
    }

    /// Implicit members with one meaning whatever the type (`.invalid` task identifiers).
    func implicitConstant(_ name: String) -> String? {
        switch name {
        case "invalid": return "UIBackgroundTaskInvalid"
        default: return nil
        }
    }

    // MARK: - Constants

    /// The text of a string the code names as a constant (a literal, a property, static or global
    /// initialized with a literal, an enum case's raw value: `Self.refreshID`, `TaskID.sync.rawValue`),
    /// for what import can tell before any run (18.6); nil when it is computed.
    func constantString(_ e: ExprSyntax, depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        if let s = e.as(StringLiteralExprSyntax.self) { return Literals.plainString(s) }
        func fromProperty(_ p: PropertyInfo?) -> String? {
            guard let p, p.kind == .stored, let v = p.binding.initializer?.value else { return nil }
            return constantString(v, depth: depth + 1)
        }
        if let d = e.as(DeclReferenceExprSyntax.self) {
            let name = d.baseName.text
            if let v = local(name) { return v.constant }
            if let t = currentType, let s = fromProperty(t.property(name)) { return s }
            return fromProperty(program.globals[name])
        }
        if let m = e.as(MemberAccessExprSyntax.self) {
            let name = m.declName.baseName.text
            guard let base = m.base else { return nil }
            if name == "rawValue" {
                // `TaskID.sync.rawValue`, `.sync.rawValue` is not Swift; `Type.case.rawValue`.
                if let inner = base.as(MemberAccessExprSyntax.self), let tb = inner.base,
                   let t = typeNamed(tb), let c = t.cases.first(where: { $0.name == inner.declName.baseName.text }), let raw = c.raw,
                   raw.hasPrefix("\"") {
                    return String(raw.dropFirst().dropLast())
                }
                return nil
            }
            if let t = typeNamed(base) { return fromProperty(t.property(name)) }
            if base.as(DeclReferenceExprSyntax.self)?.baseName.text == "self", let t = currentType { return fromProperty(t.property(name)) }
            return nil
        }
        return nil
    }

    /// The translated type an expression names (`Foo`, `Self`, `Outer.Inner`).
    private func typeNamed(_ e: ExprSyntax) -> TypeDecl? {
        if let d = e.as(DeclReferenceExprSyntax.self) {
            let n = d.baseName.text
            if n == "Self" { return currentType }
            if local(n) != nil { return nil }
            return program.type(named: n, from: currentType)
        }
        if let m = e.as(MemberAccessExprSyntax.self), let b = m.base, let outer = typeNamed(b) { return outer.nested[m.declName.baseName.text] }
        return nil
    }

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
            if mark == "!" { return LuaExpr("swift.unwrap(swift.as(\(x.code), \(t.lua)), \"as!\")", TypeName(t.qualified)) }
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
        case "function": return LuaExpr(Literals.quote(currentFunction?.base ?? ""), TypeName("String"))
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
                let x = expr(only)
                emit(x.code.isEmpty || x.code == "nil" ? "return" : "return \(x.code)", at: only)
            }
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

extension String {
    func trimmingCharacters(_ c: Character) -> String {
        var s = Substring(self)
        while s.first == c { s = s.dropFirst() }
        while s.last == c { s = s.dropLast() }
        return String(s)
    }
}
