// Expressions, member access (SPEC 18.3, 18.7.8): members of translated types, of built-in
// values and of unknown receivers (through the runtime, which also answers for stubs), implicit
// members, and the constants the translation folds (string constants, a type named by an
// expression). Uses the Translator's scopes, Program's types and the API table (APIs.swift).
import SwiftSyntax

extension Translator {
    // MARK: - Members

    func memberAccess(_ m: MemberAccessExprSyntax, expect: TypeName?, optionalUse: Bool) -> LuaExpr {
        let name = Program.plain(m.declName.baseName.text)
        guard let baseSyntax = m.base else { return implicitMember(name, expect: expect, node: Syntax(m)) }
        if name == "self" { return expr(baseSyntax) }
        let base = expr(baseSyntax)
        // A translated type: its statics, enum cases and nested types.
        if let t = base.typeRef {
            if let nested = t.nested[name] { var r = LuaExpr(nested.lua, TypeName(nested.qualified)); r.typeRef = nested; return r }
            if let c = t.cases.first(where: { $0.name == name }) { _ = c; return LuaExpr("\(t.lua).\(Naming.field(name))", TypeName(t.qualified)) }
            let p = t.property(name)
            use(p, of: t)
            if name == "init" { return LuaExpr("function(...) return swift.new(\(t.lua), \"init\", ...) end") }
            // A method as a value, unless a static property has the name (`Category.cat` beside
            // `static func cat(_:)`: the property; a call takes the method in Calls.swift).
            if p?.isStatic != true, let m = t.methods(name).first { return LuaExpr("\(t.lua).\(m.lua)", TypeName("Function")) }
            // A nested type an extension outside the imported files adds (brave-ios's
            // `Preferences.General`, declared in a module the app's target does not compile): an
            // unknown type, whose members are stubs, never a nil field of the known one.
            if p == nil, name.first?.isUppercase == true { return typeReference("\(t.qualified).\(name)", node: Syntax(m)) }
            // A stored static lives on the class that declares it; a computed one (a `class var` a
            // subclass may override) is read on the class named.
            return LuaExpr("\(p.map { $0.kind == .computed ? t.lua : staticOwner($0, t) } ?? t.lua).\(Naming.field(name))", p?.type)
        }
        // A type the files extend (`Notification.Name.syncDone`), or a type nested in an API's.
        if let api = base.apiType {
            let typeName = api.hasPrefix("?") ? String(api.dropFirst()) : api
            if let v = extensionStatics["\(typeName).\(name)"] { return v }
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
        // A computed property an extension of the files adds to an iOS or Swift type, or a static
        // variable (a field of the extension's table; its constants are read where they are used).
        if let ext = externalType(for: base), let p = ext.property(name), p.kind == .computed || p.isStaticVariable {
            if p.isStatic { return LuaExpr("\(ext.lua).\(Naming.field(name))", p.type) }
            var r = LuaExpr(base.chained ? "swift.optApply(\(base.code), function(__r) return swift.extGet(\(ext.lua), \(Literals.quote(Naming.field(name))), __r) end)"
                                         : "swift.extGet(\(ext.lua), \(Literals.quote(Naming.field(name))), \(base.code))", p.type)
            r.chained = base.chained
            return r
        }
        // Any error's `localizedDescription` (a `catch`'s `error`, an SDK's, one of the app's types
        // that does not declare it): a String (errors.lua), never a stub's value or nil.
        if name == "localizedDescription", base.typeRef == nil,
           base.type.flatMap({ program.type(named: $0.name, from: currentType) })?.property(name) == nil {
            counts.map("Error.localizedDescription")
            var r = LuaExpr(base.chained ? "swift.optApply(\(base.code), swift.errorDescription)" : "swift.errorDescription(\(base.code))", TypeName("String"))
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
            // A static of a type the import cannot see (`CloudAccessSecrets.googleDriveRedirectURL!`,
            // a generated secrets file) is a constant, not an operation: it never fails (18.9.3
            // fails calls), whatever `!` or `if let` the code puts on it.
            return stubMember(base, receiverName: typeName, name: name, node: Syntax(m), optionalUse: optionalUse, constant: true)
        }
        // A property the app's `extension Optional` adds, read on an optional without `?`
        // (element-x's `!userSession.isNil`): the extension's, on the optional itself, nil too.
        if let tn = base.type, tn.optional, !base.chained, let ext = program.externals["Optional"],
           let p = ext.property(name), p.kind == .computed, !p.isStatic {
            use(p, of: ext)
            return LuaExpr("swift.extGet(\(ext.lua), \(Literals.quote(Naming.field(name))), \(base.code))", p.type)
        }
        // An instance of a translated type.
        if let tn = base.type, let t = program.type(named: tn.name, from: currentType) {
            if name == "objectWillChange", t.property(name) == nil, t.conforms(to: "ObservableObject") {
                return LuaExpr("swift.objectWillChange(\(base.code))", TypeName("Publisher"))
            }
            if name.hasPrefix("$"), t.property(String(name.dropFirst()))?.wrapper == "Published" {
                return LuaExpr("swift.publishedSubject(\(base.code), \(Literals.quote(Naming.field(String(name.dropFirst())))))", TypeName("Publisher"))
            }
            let p = t.property(name)
            use(p, of: t)
            // Hashable's synthesized `hashValue` (or its own `hash(into:)`): swift.hashValue.
            if name == "hashValue", p == nil {
                return LuaExpr(base.chained ? "swift.optApply(\(base.code), swift.hashValue)" : "swift.hashValue(\(base.code))", TypeName("Int"))
            }
            var r: LuaExpr
            if base.chained || tn.optional && base.chained {
                r = LuaExpr("swift.opt(\(base.code), \(Literals.quote(Naming.field(name))))", p?.type)
            } else {
                r = LuaExpr("\(wrapBase(base.code)).\(Naming.field(name))", p?.type)
            }
            if p == nil, let mth = t.methods(name).first {
                r = LuaExpr("function(...) return \(wrapBase(base.code)):\(mth.lua)(...) end", TypeName("Function"))
            } else if p == nil, Self.undeclaredMember(name, of: t) {
                // Declared where the import cannot see (element-x-ios's `@UserPreference` macro
                // adds `enableNotificationsPublisher` to its settings): a stub, never nil.
                let stubName = "\(t.qualified).\(name)"
                let site = stubs.site(stubName, where: location(Syntax(m)), optional: optionalUse, node: Syntax(m))
                let read = "swift.undeclared(\(site), \(base.chained ? "__r" : base.code), \(Literals.quote(name)))"
                r = LuaExpr(base.chained ? "swift.optApply(\(base.code), function(__r) return \(read) end)" : read)
                r.stubName = stubName
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

    /// A member an instance of `t` has although the files do not declare it: not a property or
    /// method of it, its superclasses or protocols, not a case, not a property wrapper's storage
    /// (`_name`), not one Swift itself provides (`rawValue`, `hashValue`, `description`, ...),
    /// and the type has no base class or protocol of iOS's that could declare it.
    static func undeclaredMember(_ name: String, of t: TypeDecl) -> Bool {
        guard t.kind != .protocol, t.opaqueBase == nil, t.inheritedOpaqueBase == nil, !name.hasPrefix("$"),
              !t.cases.contains(where: { $0.name == name }) else { return false }
        if name.hasPrefix("_"), t.property(String(name.dropFirst())) != nil { return false }
        if ImplicitMembers.names.contains(name) || ["rawValue", "allCases", "id", "count", "isEmpty", "first", "last"].contains(name) { return false }
        // Adopting a protocol the files do not declare (Collection, a library's) brings members
        // of its own; these add none that code reads by name (`id`, `hashValue` are above).
        return t.inherited.allSatisfy { inherited in
            markerProtocols.contains(String(inherited.split(separator: " ").last ?? "")) || t.protocols.contains { $0.name == inherited }
                || t.superclass?.name == inherited
        }
    }

    static let markerProtocols: Set<String> = ["Sendable", "Codable", "Encodable", "Decodable", "Equatable", "Hashable", "Comparable", "AnyObject",
                                               "CustomStringConvertible", "CustomDebugStringConvertible", "ObservableObject", "Identifiable", "Error"]

    func wrapBase(_ code: String) -> String {
        if code.hasPrefix("swift.opaque(") || code.hasPrefix("(") { return code }
        if code.contains(" ") && !code.hasSuffix(")") { return "(\(code))" }
        if code.hasPrefix("\"") { return "(\(code))" }
        return code
    }

    /// A property of a value the files do not define: read at run time; when the receiver is
    /// opaque, the stub `Receiver.name` answers (and explore may draw nil where it is used as an
    /// optional).
    func stubMember(_ base: LuaExpr, receiverName: String, name: String, node: Syntax, optionalUse: Bool, constant: Bool = false) -> LuaExpr {
        let stubName = "\(receiverName).\(name)"
        // A constant is declared non-optional, unless the SDK's signatures say otherwise.
        let fixed = constant && Signatures.lookup(stubName, labels: nil) == nil
        let site = stubs.site(stubName, where: location(node), optional: fixed ? false : optionalUse, node: node, declared: fixed)
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
        if let e = expect {
            // The expected type as the callee wrote it may be nested where the caller cannot see
            // it (`Log.info(_ cat: Category, ...)` called as `Log.info(.cat, ...)` from another
            // type: session-ios's `.cat`, a static of `Log.Category`, was an enum token, a nil
            // dictionary key at launch): then the one type of that name that has the member.
            let scoped = program.type(named: e.name, from: currentType).map { [$0] }
            let named = scoped ?? (program.typesBySimpleName[e.name] ?? []).filter { t in
                t.cases.contains { $0.name == name } || t.property(name)?.isStatic == true
            }
            if named.count == 1, let t = named.first {
                if t.cases.contains(where: { $0.name == name }) { return LuaExpr("\(t.lua).\(Naming.field(name))", TypeName(t.qualified)) }
                if t.property(name)?.isStatic == true { return LuaExpr("\(t.lua).\(Naming.field(name))", t.property(name)?.type) }
            }
        }
        if let v = implicitConstant(name) { return LuaExpr(v) }
        // `.now`, `.distantPast`, `.distantFuture`: Date's (unless an enum of the app has such a case).
        let dates = ["now": "swift.now()", "distantPast": "-math.huge", "distantFuture": "math.huge"]
        if let v = dates[name], !program.typeOrder.contains(where: { $0.cases.contains { $0.name == name } }) {
            return LuaExpr(v, TypeName("Date"))
        }
        if let v = extensionStatics[name] { return v }
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
            return fromProperty(program.global(name))
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

}

extension Translator {
    /// The names a type's own code assigns, bare or through `self.` (its declaration and
    /// extensions, the app superclasses' too), once per type.
    func writtenMembers(_ t: TypeDecl) -> Set<String> {
        if let known = writtenMemberCache[ObjectIdentifier(t)] { return known }
        let v = AssignedNames(viewMode: .sourceAccurate)
        var c: TypeDecl? = t
        while let x = c { for (_, block) in x.parts { v.walk(block) }; c = x.superclass }
        writtenMemberCache[ObjectIdentifier(t)] = v.names
        return v.names
    }
}

/// Names assigned with `=` (or a compound assignment): `name = ...`, `self.name = ...`.
private final class AssignedNames: SyntaxVisitor {
    var names: Set<String> = []
    override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        let op = node.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? ""
        let compound = op.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(op)
        guard node.operator.is(AssignmentExprSyntax.self) || compound else { return .visitChildren }
        var left = node.leftOperand
        if let m = left.as(MemberAccessExprSyntax.self), m.base?.is(DeclReferenceExprSyntax.self) == true,
           m.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            left = ExprSyntax(m.declName)
        }
        if let d = left.as(DeclReferenceExprSyntax.self) { names.insert(Program.plain(d.baseName.text)) }
        return .visitChildren
    }
}

extension Translator {
    /// A stub's value where the code expects one of the app's enums (`activeTheme =
    /// settings.theme`, a member the import cannot see) is, when it is opaque at run time, the
    /// enum's first case: a typed default (issue 38.7), never a value no `switch` matches
    /// (pocket-casts's theme matched no case, and its `old.rawValue` crashed at launch).
    func enumDefault(_ x: LuaExpr, _ expect: TypeName?) -> LuaExpr {
        guard x.stubName != nil, let e = expect, !e.optional, let t = program.type(named: e.name, from: currentType),
              t.kind == .enum, t.cases.contains(where: { $0.arity == 0 }) else { return x }
        var r = LuaExpr("swift.enumDefault(\(x.code), \(t.lua))", TypeName(t.qualified))
        r.stubName = x.stubName
        return r
    }
}
