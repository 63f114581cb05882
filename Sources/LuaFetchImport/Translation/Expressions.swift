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
        if let m = e.as(MemberAccessExprSyntax.self) { return enumDefault(memberAccess(m, expect: expect, optionalUse: optionalUse), expect) }
        if let c = e.as(FunctionCallExprSyntax.self) { return enumDefault(call(c, expect: expect, optionalUse: optionalUse, awaited: awaited), expect) }
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
                    markOptionalUse(a, infix.leftOperand)
                    let unwrapped = a.type.map { var t = $0; t.optional = false; return t }
                    // `x ?? .init()`: the fallback has the type of the whole (the context's when x's is unknown).
                    let b = expr(infix.rightOperand, expect: unwrapped ?? expect)
                    return LuaExpr("swift.coalesce(\(a.code), function() return \(b.code) end)", b.type ?? unwrapped)
                }
                if opText == "==" || opText == "!=" {
                    if infix.rightOperand.is(NilLiteralExprSyntax.self) || infix.leftOperand.is(NilLiteralExprSyntax.self) {
                        let other = infix.rightOperand.is(NilLiteralExprSyntax.self) ? infix.leftOperand : infix.rightOperand
                        let x = expr(other, optionalUse: true)
                        markOptionalUse(x, other)
                        return LuaExpr("\(x.code) \(opText == "==" ? "==" : "~=") nil", TypeName("Bool"))
                    }
                }
                if opText == "&&" || opText == "||" {
                    return binary(opText, condition(infix.leftOperand), condition(infix.rightOperand), node: Syntax(infix))
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
            let x = p.operator.text == "!" ? condition(p.expression) : expr(p.expression)
            switch p.operator.text {
            case "!":
                let inner = Self.withoutParens(p.expression)
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
            // A forced property of an object the import cannot see (`feature.localizedName!`) says
            // it is there; it is no operation that fails (18.9.3 fails calls): never nil, unless
            // the SDK's signatures declare it optional. `if let` on one still takes both ways.
            let forcedProperty = Self.withoutParens(f.expression).is(MemberAccessExprSyntax.self)
            var x = expr(f.expression, optionalUse: !forcedProperty)
            if !forcedProperty { markOptionalUse(x, f.expression) }
            x.code = "swift.unwrap(\(x.code))"
            x.type?.optional = false
            return x
        }
        if let o = e.as(OptionalChainingExprSyntax.self) {
            var x = expr(o.expression, optionalUse: true)
            markOptionalUse(x, o.expression)
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
            let c = condition(t.condition).code
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
            // `x[...]`, the unbounded range: the whole collection, its indices the same
            // (nightguard's `var slice = self[...]` was an opaque index, and every launch crashed).
            if args.count == 1, first.label == nil, first.expression.trimmedDescription == "...", !base.chained {
                return LuaExpr("swift.copy(\(base.code))", base.type)
            }
            if let label = first.label?.text, label != "_" {
                // `x[safeIndex: i]`: the labelled subscript an extension of the files declares.
                let values = args.map { expr($0.expression).code }.joined(separator: ", ")
                return LuaExpr("swift.labelledIndex(\(base.code), \(Literals.quote("subscript_" + Naming.field(label))), \(values))")
            }
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
    func resolveIdentifier(_ rawName: String, node: Syntax, outerOnly: Bool = false) -> LuaExpr {
        let name = Program.plain(rawName)
        // An operator used as a function (`reduce(0, +)`, `sorted(by: <)`).
        let operators = ["+": "swift.add", "-": "swift.sub", "*": "swift.mul", "/": "swift.div", "%": "swift.mod", "<": "swift.lt",
                         ">": "swift.gt", "<=": "swift.le", ">=": "swift.ge", "==": "swift.eq", "!=": "swift.ne"]
        if let fn = operators[name] { return LuaExpr(fn, TypeName("Function")) }
        if name == "self" || name == "Self", selfIsAdopter, inStatic, let t = currentType {
            var r = LuaExpr("self"); r.typeRef = t; return r
        }
        if name == "self" {
            if inStatic, let t = currentType { var r = LuaExpr(t.lua); r.typeRef = t; return r }
            var r = LuaExpr("self", currentType.map { TypeName($0.qualified) })
            r.typeRef = nil
            return r
        }
        if name == "Self", let t = currentType { var r = LuaExpr(t.lua); r.typeRef = t; return r }
        // `$name` of an @Published property of self (18.9.6).
        if name.hasPrefix("$"), !inStatic, let t = currentType, t.property(String(name.dropFirst()))?.wrapper == "Published" {
            return LuaExpr("swift.publishedSubject(self, \(Literals.quote(Naming.field(String(name.dropFirst())))))", TypeName("Publisher"))
        }
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
                // A `class var` read in a class's static getter: the class it was read on (a
                // subclass overrides it: owncloud's `taskExtension` reads each action's `identifier`).
                if p.isStatic, selfIsAdopter, inStatic, t.kind == .class, p.decl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.class) }) {
                    return LuaExpr("self.\(Naming.field(name))", p.type)
                }
                if p.isStatic { return LuaExpr("\(staticOwner(p, t)).\(Naming.field(name))", p.type) }
                if !inStatic && t.external { return LuaExpr("swift.extGet(\(t.lua), \(Literals.quote(Naming.field(name))), self)", p.type) }
                if !inStatic { return LuaExpr("self.\(Naming.field(name))", p.type) }
            }
            // In an extension of an iOS or Swift type, a bare name is the type's own member
            // (in a static method, a static: `shared`).
            if t.external, inStatic, name.first?.isLowercase == true, t.methods(name).isEmpty,
               program.global(name) == nil, program.freeFunctions(name) == nil {
                var typeRef = LuaExpr("swift.opaque(\(Literals.quote(t.qualified)))", TypeName(t.qualified))
                typeRef.apiType = t.qualified
                if let v = APIs.member(t.qualified, name, translator: self, base: typeRef, node: node) { return v }
            }
            if t.external, !inStatic, name.first?.isLowercase == true, t.methods(name).isEmpty,
               program.global(name) == nil, program.freeFunctions(name) == nil {
                if let v = APIs.member(t.qualified, name, translator: self, base: LuaExpr("self", TypeName(t.qualified)), node: node) { return v }
                return LuaExpr("swift.get(0, self, \(Literals.quote(name)))", APIs.builtinMemberType(TypeName(t.qualified), name))
            }
            let ms = t.methods(name)
            // A delegate callback's name (`tabBar(_ tabBar:didSelect:)`, `tableView(_ tableView:...)`)
            // as a bare value in a subclass of an iOS class is the inherited view it is named after
            // (pocket-casts's `view.insertSubview(mini, belowSubview: tabBar)` passed the callback,
            // which a stub then called with nil).
            if !inStatic, t.inheritedOpaqueBase != nil, !ms.isEmpty, ms.allSatisfy({ $0.params.first?.name == name }) {
                return LuaExpr("self.\(Naming.field(name))")
            }
            if let m = ms.first {
                if m.isStatic || inStatic { return LuaExpr("function(...) return \(t.lua).\(m.lua)(...) end", TypeName("Function")) }
                if t.external { return LuaExpr("function(...) return \(t.lua).\(m.lua)(self, ...) end", TypeName("Function")) }
                return LuaExpr("function(...) return self:\(m.lua)(...) end", TypeName("Function"))
            }
            if t.kind == .enum, inStatic == false, t.cases.contains(where: { $0.name == name }) {
                return LuaExpr("\(t.lua).\(Naming.field(name))", TypeName(t.qualified))
            }
            // `rawValue` inside an enum's own members: the case's raw value (18.9.6).
            if t.kind == .enum, !inStatic, name == "rawValue" {
                return LuaExpr("self.rawValue", t.rawType.map { TypeName($0) })
            }
        }
        // A view controller's view is loaded when a window showing it is made key and visible
        // (`swift.makeKeyAndVisible`), never otherwise: luafetch draws nothing (mastodon-ios's
        // `willSet { precondition(!isViewLoaded) }` failed on an opaque value at every launch; its
        // base is a library's `TabmanViewController`, so any base class named `...Controller`).
        if let t = currentType, !inStatic, name == "isViewLoaded", let base = t.inheritedOpaqueBase, base.hasSuffix("Controller") {
            return LuaExpr("swift.isViewLoaded(self)", TypeName("Bool"))
        }
        // A member inherited from a base class the files do not define (`isCancelled` in an
        // `Operation` subclass): read from the instance at run time.
        if let t = currentType, !inStatic, let base = t.inheritedOpaqueBase, base == "Operation" || base == "BlockOperation",
           name.first?.isLowercase == true,
           Self.operationMembers.contains(name) || (program.global(name) == nil && program.freeFunctions(name) == nil && !["max", "min"].contains(name)) {
            return LuaExpr("self.\(Naming.field(name))", Self.operationMembers.contains(name) ? TypeName("Bool") : nil)
        }
        // A member of an iOS base class that the type itself writes (`selectedIndex = 1` in a
        // `UITabBarController` subclass): the instance's, so it reads back what was written
        // (pocket-casts's tab bar indexed its tabs by an opaque value, matched no case, and
        // passed a nil event on at launch). Members never written stay stubs' values.
        if let t = currentType, !inStatic, t.inheritedOpaqueBase != nil, name.first?.isLowercase == true,
           program.global(name) == nil, program.freeFunctions(name) == nil, writtenMembers(t).contains(name) {
            return LuaExpr("self.\(Naming.field(name))")
        }
        if name == "max" || name == "min" { return LuaExpr("math.\(name)", TypeName("Function")) }
        if let g = program.global(name) {
            let key = program.globalKey(g)
            // A computed global runs its getter on every read (no value is kept).
            if g.binding.accessorBlock != nil { return LuaExpr("T.__global_\(Naming.field(key))()", g.type) }
            return LuaExpr("swift.global(\(Literals.quote(key)), T.__global_\(Naming.field(key)))", g.type)
        }
        if let f = program.freeFunctions(name)?.first {
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

    /// `syntax`, translated as `x`, is used as an optional: when that is the code's own proof that
    /// the stub call it is can be nil (18.9.2), the call's site may be nil.
    /// An expression Swift takes as a Bool (a condition, an operand of `!`, `&&`, `||`),
    /// translated; a stub's property read there is a Bool (Swift has no truthiness), so its site
    /// says so (`bool = true`) and explore draws it both ways instead of taking it as true
    /// (issue 38.3). A call's result is not drawn: only a property read is.
    func condition(_ e: ExprSyntax) -> LuaExpr {
        let x = expr(e)
        if let stub = x.stubName, Self.withoutParens(e).is(MemberAccessExprSyntax.self) { stubs.markBool(stub) }
        return x
    }

    func markOptionalUse(_ x: LuaExpr, _ syntax: ExprSyntax?) {
        if let stub = x.stubName, let syntax, provesOptional(syntax) { stubs.markOptional(stub) }
    }

    /// Whether `e`'s use as an optional is the code's own proof that the call it is can be nil
    /// (18.9.2): the call itself (through parentheses and `try`), not a variable that holds its
    /// result.
    func provesOptional(_ e: ExprSyntax) -> Bool {
        var e = Self.withoutParens(e)
        while let t = e.as(TryExprSyntax.self) { e = Self.withoutParens(t.expression) }
        return !e.is(DeclReferenceExprSyntax.self)
    }

    /// `e` without the parentheses around it (`((x))` is `x`).
    static func withoutParens(_ e: ExprSyntax) -> ExprSyntax {
        var e = e
        while let t = e.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first { e = only.expression }
        return e
    }
}

// Members and constants are Expressions+Members.swift's; operators, casts, macros and closures
// are Expressions+Closures.swift's.

extension String {
    func trimmingCharacters(_ c: Character) -> String {
        var s = Substring(self)
        while s.first == c { s = s.dropFirst() }
        while s.last == c { s = s.dropLast() }
        return String(s)
    }
}
