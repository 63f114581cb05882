// Calls (SPEC 18.3, 18.4, 18.7.5): a call is resolved, in this order, to a closure in a local,
// a method, static method or initializer of a translated type (overloads by their argument
// labels, arguments put in parameter order, defaults left to the callee), an iOS or Foundation
// API of the table in APIs.swift, a free function of the files, or else a stub: a call site
// named `Type.member` after the receiver's syntactic type, recorded with what its closures take
// and whether its result is used as an optional, awaited or tried.
import SwiftSyntax

/// One argument as written.
struct CallArg {
    let label: String?
    let syntax: ExprSyntax
    /// A closure already translated into a local (the API table treats it as a closure argument).
    var closureLike = false
    var closure: ClosureExprSyntax? { syntax.as(ClosureExprSyntax.self) }
}

extension Translator {
    /// The arguments of a call, trailing closures included (the first unlabelled, as Swift has it).
    func callArgs(_ c: FunctionCallExprSyntax) -> [CallArg] {
        var out = c.arguments.map { CallArg(label: $0.label?.text, syntax: $0.expression) }
        if let t = c.trailingClosure { out.append(CallArg(label: nil, syntax: ExprSyntax(t))) }
        for extra in c.additionalTrailingClosures { out.append(CallArg(label: extra.label.text, syntax: ExprSyntax(extra.closure))) }
        return out
    }

    func call(_ c: FunctionCallExprSyntax, expect: TypeName?, optionalUse: Bool, awaited: Bool) -> LuaExpr {
        // `f(&x)`: x goes in a box, and the box's value is written back after the call.
        let savedBoxes = inoutBoxes
        inoutBoxes = []
        var r = plainCall(c, expect: expect, optionalUse: optionalUse, awaited: awaited)
        let boxes = inoutBoxes
        inoutBoxes = savedBoxes
        guard !boxes.isEmpty else { return r }
        let make = boxes.map { "local \($0.box) = swift.inoutBox(\($0.initial))" }.joined(separator: " ")
        let back = boxes.map(\.store).joined(separator: " ")
        r.code = "(function() \(make) local __res = table.pack(\(r.code)) \(back) return table.unpack(__res, 1, __res.n) end)()"
        return r
    }

    private func plainCall(_ c: FunctionCallExprSyntax, expect: TypeName?, optionalUse: Bool, awaited: Bool) -> LuaExpr {
        let args = callArgs(c)
        let tried = pendingTry
        pendingTry = false
        let callee = c.calledExpression
        // `x?(args)`: a function in an optional.
        if let oc = callee.as(OptionalChainingExprSyntax.self) {
            let f = expr(oc.expression)
            return LuaExpr("swift.callOpt(\(([f.code] + args.map { expr($0.syntax).code }).joined(separator: ", ")))")
        }
        if let m = callee.as(MemberAccessExprSyntax.self) {
            return memberCall(m, args: args, call: c, expect: expect, optionalUse: optionalUse, awaited: awaited, tried: tried)
        }
        if let d = callee.as(DeclReferenceExprSyntax.self) {
            return nameCall(d.baseName.text, args: args, call: c, expect: expect, optionalUse: optionalUse, awaited: awaited, tried: tried)
        }
        if let g = callee.as(GenericSpecializationExprSyntax.self), let d = g.expression.as(DeclReferenceExprSyntax.self) {
            return nameCall(d.baseName.text, args: args, call: c, expect: expect, optionalUse: optionalUse, awaited: awaited, tried: tried)
        }
        if let t = callee.as(TypeExprSyntax.self) {
            let name = TypeName(t.type)?.name ?? t.type.trimmedDescription
            return nameCall(name, args: args, call: c, expect: expect, optionalUse: optionalUse, awaited: awaited, tried: tried)
        }
        if callee.is(SuperExprSyntax.self) { return LuaExpr("nil") }
        // `[T]()`, `[K: V]()`, `[T](repeating:count:)`: a collection type's initializer.
        if let a = callee.as(ArrayExprSyntax.self), a.elements.count == 1, let el = a.elements.first {
            let element = typeNameOfTypeExpr(el.expression)
            if let r = args.first(where: { $0.label == "repeating" }), let n = args.first(where: { $0.label == "count" }) {
                return LuaExpr("swift.repeating(\(expr(r.syntax).code), \(expr(n.syntax).code))", TypeName("Array", element: element))
            }
            if let first = args.first { return LuaExpr("swift.toArray(\(expr(first.syntax).code))", TypeName("Array", element: element)) }
            return LuaExpr("swift.array({})", TypeName("Array", element: element))
        }
        if let d = callee.as(DictionaryExprSyntax.self), case .elements(let list) = d.content, list.count == 1 {
            let value = list.first.flatMap { typeNameOfTypeExpr($0.value) }
            return LuaExpr("swift.dict({})", TypeName("Dictionary", element: value))
        }
        // `{ ... }()`: the closure's result is the expected type.
        let immediate = callee.is(ClosureExprSyntax.self)
        if immediate { nextClosureResult = expect }
        let f = expr(callee)
        return LuaExpr("\(wrap(f.code))(\(args.map { expr($0.syntax).code }.joined(separator: ", ")))", immediate ? expect : nil)
    }

    /// The type an expression names when it is written as a type inside `[T]()` (`String`,
    /// `[String: Any]`, `Foo.Bar`): its name, or nil when it names none.
    func typeNameOfTypeExpr(_ e: ExprSyntax) -> String? {
        if let d = e.as(DeclReferenceExprSyntax.self) { return d.baseName.text }
        if e.is(ArrayExprSyntax.self) { return "Array" }
        if e.is(DictionaryExprSyntax.self) { return "Dictionary" }
        if let t = e.as(TypeExprSyntax.self) { return TypeName(t.type)?.name }
        if let m = e.as(MemberAccessExprSyntax.self) { return m.trimmedDescription }
        if let g = e.as(GenericSpecializationExprSyntax.self) { return typeNameOfTypeExpr(g.expression) }
        return nil
    }

    // MARK: - foo(args)

    func nameCall(_ name: String, args: [CallArg], call c: FunctionCallExprSyntax, expect: TypeName?, optionalUse: Bool,
                  awaited: Bool, tried: Bool) -> LuaExpr {
        // A local holding a closure.
        if let v = local(name) {
            return LuaExpr("\(v.lua)(\(args.map { expr($0.syntax).code }.joined(separator: ", ")))")
        }
        // A method of the current type (self implied).
        if let t = currentType {
            let candidates = t.methods(name)
            if let m = pick(candidates, args, isStatic: inStatic, labelsMustFit: t.external) {
                let codeArgs = ordered(m, args)
                let r = resultType(m, args)
                let callee = t.callee(of: m)
                if callee !== t {
                    if m.isStatic || inStatic { return LuaExpr("\(callee.lua).\(m.lua)(\(codeArgs))", r) }
                    return LuaExpr("\(callee.lua).\(m.lua)(self\(trailingArgs(codeArgs)))", r)
                }
                if m.isStatic || inStatic { return LuaExpr("\(t.lua).\(m.lua)(\(codeArgs))", r) }
                if t.external { return LuaExpr("\(t.lua).\(m.lua)(self\(codeArgs.isEmpty ? "" : ", " + codeArgs))", r) }
                return LuaExpr("self:\(m.lua)(\(codeArgs))", r)
            }
            // In an extension of an iOS or Swift type, `name(args)` is the type's own method (a
            // capitalised name is a type's initializer: `TimeInterval(self * 60)` in brave-ios's
            // `extension Int` was called as a method of the number, an opaque value).
            if t.external, !inStatic, name.first?.isUppercase != true {
                var selfValue = LuaExpr("self", TypeName(t.qualified))
                if APIs.knownTypes.contains(t.qualified) { selfValue.apiType = nil }
                let ctx = CallContext(t: self, args: args, node: Syntax(c), base: selfValue, awaited: awaited, tried: tried, expect: expect)
                if let v = APIs.call(t.qualified, name, ctx) {
                    counts.map("\(t.qualified).\(name)")
                    return v
                }
                if APIs.builtinValueTypes.contains(t.qualified) || ["Collection", "Sequence", "Array", "Dictionary", "Set", "String", "StringProtocol"].contains(t.qualified) {
                    let labelled = args.first?.label.map { "\(name)_\($0)" } ?? (onlyBuiltinTakes(name, args) ? "\(name)_" : nil)
                    let argCodes = args.map { a -> String in a.closure.map { closure($0).code } ?? expr(a.syntax).code }
                    return LuaExpr("swift.call(0, \((["self", Literals.quote(name), labelled.map(Literals.quote) ?? "nil"] + argCodes).joined(separator: ", ")))",
                                   APIs.builtinCallType(TypeName(t.qualified), name))
                }
            }
            // A property holding a closure.
            if let p = t.property(name) {
                let owner = p.isStatic ? staticOwner(p, t) : "self"
                return LuaExpr("\(owner).\(Naming.field(name))(\(args.map { expr($0.syntax).code }.joined(separator: ", ")))")
            }
        }
        // A translated type: its initializer.
        if let t = program.type(named: name, from: currentType) { return construct(t, args: args) }
        // A free function of the files.
        if let list = program.freeFunctions(name), let f = pick(list, args) {
            return LuaExpr("T.\(f.lua)(\(ordered(f, args)))", resultType(f, args))
        }
        // iOS, Foundation, Swift's library.
        let ctx = CallContext(t: self, args: args, node: Syntax(c), base: nil, awaited: awaited, tried: tried, expect: expect)
        if let mapped = APIs.globalCall(name, ctx) {
            counts.map(name)
            return mapped
        }
        // A method inherited from a base class the files do not define (`cancel()` in an
        // `Operation` subclass): the instance answers at run time, else the stub `Type.name`.
        if let t = currentType, !inStatic, ["Operation", "BlockOperation"].contains(t.inheritedOpaqueBase ?? ""), name.first?.isLowercase == true {
            let labelled = args.first?.label.map { "\(name)_\($0)" } ?? (onlyBuiltinTakes(name, args) ? "\(name)_" : nil)
            var r = stubCall("\(t.name).\(name)", recv: "self", args: args, node: Syntax(c), optionalUse: optionalUse, awaited: awaited,
                             tried: tried, dynamic: (name, labelled))
            r.stubName = "\(t.name).\(name)"
            return r
        }
        // A stub: an unknown function, or an unknown type's initializer.
        let isType = name.first?.isUppercase == true
        let stubName = isType ? "\(name).init" : name
        var r = stubCall(stubName, recv: "nil", args: args, node: Syntax(c), optionalUse: optionalUse, awaited: awaited, tried: tried)
        if isType { r.type = TypeName(name); r.stubName = name }
        return r
    }

    /// `Type(args)` for a translated type: its initializer, an enum's `init(rawValue:)`, or a
    /// struct's memberwise initializer.
    func construct(_ t: TypeDecl, args: [CallArg]) -> LuaExpr {
        if widening { madeTypes.append(t) }
        let type = TypeName(t.qualified)
        // `Self(...)` in a protocol extension's static: the adopting type's initializer.
        let made = selfIsAdopter && inStatic && t === currentType ? "self" : t.lua
        if t.kind == .enum, args.count == 1, args[0].label == "rawValue", t.inits.isEmpty {
            var r = LuaExpr("swift.fromRaw(\(made), \(expr(args[0].syntax).code))", type)
            r.type?.optional = true
            return r
        }
        // Labels that name the struct's stored properties, which no written initializer takes:
        // its memberwise initializer (kept when all the written ones are in extensions).
        // Only a struct's: a class of 7,447 `static let x = Icons(name:...)` (home-assistant's
        // generated icon list) listed its properties at each, 55 million copies, 40 s of import.
        let stored = t.kind == .struct && !args.isEmpty ? t.storedInstanceProperties : []
        let memberwise = t.kind == .struct && !args.isEmpty && Self.labelsNameStored(args, stored)
        // A class that declares no initializer inherits its superclass's (Loop's
        // `CriticalEventLogHistoricalExporter(manager: self)` is its base class's `init(manager:)`).
        var inits = t.inits
        var sup = t.kind == .class ? t.superclass : nil
        while inits.isEmpty, let c = sup { inits = c.inits; sup = c.superclass }
        if let i = pick(inits, args), !memberwise || i.accepts(args.map(\.label)) {
            var r = LuaExpr("swift.new(\(made), \(Literals.quote(i.lua))\(trailingArgs(ordered(i, args))))", type)
            if i.failable { r.type?.optional = true }
            return r
        }
        if t.kind == .struct && !args.isEmpty {
            // A struct whose initializers are all declared in extensions keeps its memberwise one
            // (zotero's `PDFSettings(transition: ...)` beside a Codable `init(from:)`, which took
            // the values as its decoder and crashed every launch): named so that theirs is not it.
            let name = t.inits.contains { $0.lua == "init" } ? "memberwise" : "init"
            return LuaExpr("swift.new(\(made), \"\(name)\"\(memberwiseArgs(args, stored)))", type)
        }
        return LuaExpr("swift.new(\(made), \"init\")", type)
    }

    /// Whether each argument's label names one of a struct's stored properties.
    static func labelsNameStored(_ args: [CallArg], _ stored: [PropertyInfo]) -> Bool {
        args.allSatisfy { a in a.label.map { l in stored.contains { $0.name == l } } ?? false }
    }

    /// A memberwise initializer's arguments in the stored properties' declaration order (a label
    /// places its value, an unlabelled one takes the next place, nil fills a gap), as Lua after a
    /// comma: empty when there are none.
    func memberwiseArgs(_ args: [CallArg], _ stored: [PropertyInfo]) -> String {
        var values = [String](repeating: "nil", count: stored.count)
        var next = 0
        for a in args {
            if let l = a.label, let i = stored.firstIndex(where: { $0.name == l }) { values[i] = expr(a.syntax, expect: stored[i].type).code; next = i + 1 }
            else if next < values.count { values[next] = expr(a.syntax).code; next += 1 }
        }
        while values.last == "nil" { values.removeLast() }
        return values.isEmpty ? "" : ", " + values.joined(separator: ", ")
    }

    // MARK: - base.name(args)

    func memberCall(_ m: MemberAccessExprSyntax, args: [CallArg], call c: FunctionCallExprSyntax, expect: TypeName?, optionalUse: Bool,
                    awaited: Bool, tried: Bool) -> LuaExpr {
        let name = m.declName.baseName.text
        guard let baseSyntax = m.base else {
            // `.name(args)`: an enum case with values, or a static of the expected type.
            if let e = expect, let t = program.type(named: e.name, from: currentType) {
                // `.init(args)`: the expected type's initializer (`static let main: Settings = .init()`, `state ?? .init()`).
                if name == "init", t.kind != .protocol { return construct(t, args: args) }
                if isCaseCall(t, name, args) {
                    return LuaExpr("\(t.lua).\(Naming.field(name))(\(args.map { expr($0.syntax).code }.joined(separator: ", ")))", TypeName(t.qualified))
                }
                if let f = pick(t.methods(name).filter(\.isStatic), args) { return LuaExpr("\(t.lua).\(f.lua)(\(ordered(f, args)))", resultType(f, args)) }
            }
            let ctx = CallContext(t: self, args: args, node: Syntax(c), base: nil, awaited: awaited, tried: tried, expect: expect)
            if let v = APIs.implicitCall(name, ctx) { return v }
            return LuaExpr("swift.case(\(([Literals.quote(name)] + args.map { expr($0.syntax).code }).joined(separator: ", ")))")
        }
        // super.name(args)
        if baseSyntax.is(SuperExprSyntax.self) {
            guard let sup = currentType?.superclass else {
                if currentType?.opaqueBase == "Operation" || currentType?.opaqueBase == "BlockOperation" {
                    return LuaExpr("swift.Operation.\(Naming.field(name))(self\(args.isEmpty ? "" : ", " + args.map { expr($0.syntax).code }.joined(separator: ", ")))")
                }
                return superStub(name, args, c, optionalUse: optionalUse, awaited: awaited, tried: tried)
            }
            if name == "init" {
                if let i = pick(sup.inits, args) { return LuaExpr("\(sup.lua).\(i.lua)(self\(trailingArgs(ordered(i, args))))") }
                return LuaExpr("nil")
            }
            if let f = pick(sup.methods(name), args, isStatic: inStatic) { return LuaExpr("\(sup.lua).\(f.lua)(self\(trailingArgs(ordered(f, args))))", resultType(f, args)) }
            return superStub(name, args, c, optionalUse: optionalUse, awaited: awaited, tried: tried)
        }
        // self.init(...) in a convenience initializer.
        if name == "init", let t = currentType, baseSyntax.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
            // Only an initializer whose labels fit: `self.init()` in a convenience initializer of
            // a class whose only written initializer is that one calls the implicit one (its
            // stored properties' defaults, already set by swift.new), never itself (openHAB).
            let labels = args.map { $0.label }
            if let i = t.inits.first(where: { $0.accepts(labels) }) { return LuaExpr("self:\(i.lua)(\(ordered(i, args)))") }
            if args.isEmpty { return LuaExpr("nil") }
            // A struct's memberwise initializer, from an initializer its extension adds
            // (pocket-casts's `init?(from resultSet:)` calling `self.init(uuid:title:...)` called
            // itself until the watchdog: an app-hang at launch).
            if t.kind == .struct, case let stored = t.storedInstanceProperties, Self.labelsNameStored(args, stored) {
                return LuaExpr("swift.memberwiseInit(self, \(t.lua)\(memberwiseArgs(args, stored)))")
            }
        }
        let base = expr(baseSyntax, optionalUse: false)
        // A translated type: static methods, enum cases with values, initializers.
        if let t = base.typeRef {
            if name == "init" { return construct(t, args: args) }
            if isCaseCall(t, name, args) {
                return LuaExpr("\(t.lua).\(Naming.field(name))(\(args.map { expr($0.syntax).code }.joined(separator: ", ")))", TypeName(t.qualified))
            }
            if let nested = t.nested[name] { return construct(nested, args: args) }
            if let f = pick(t.methods(name), args, isStatic: true) { return LuaExpr("\(t.callee(of: f).lua).\(f.lua)(\(ordered(f, args)))", resultType(f, args)) }
        }
        // An API (UIApplication, DispatchQueue, BGTaskScheduler, ...).
        let apiName = base.apiType ?? base.type?.name
        if let api = apiName, !api.isEmpty {
            // After `?.` the receiver may be nil: the mapped call runs only when it is not.
            let receiver = base.chained ? { var r = LuaExpr("__r", base.type); r.apiType = base.apiType; return r }() : base
            let ctx = CallContext(t: self, args: args, node: Syntax(c), base: receiver, awaited: awaited, tried: tried, expect: expect)
            if var v = APIs.call(api.hasPrefix("?") ? String(api.dropFirst()) : api, name, ctx) {
                counts.map("\(api.hasPrefix("?") ? String(api.dropFirst()) : api).\(name)")
                if base.chained {
                    v.code = "swift.optApply(\(base.code), function(__r) return \(v.code) end)"
                    v.chained = true
                }
                return v
            }
        }
        // A method an extension of the files adds to an iOS or Swift type.
        if let ext = externalType(for: base), let f = pick(ext.methods(name), args, labelsMustFit: true) {
            let argsCode = ordered(f, args)
            let isTypeName = base.apiType != nil && base.code.hasPrefix("swift.opaque(")
            if f.isStatic || isTypeName { return LuaExpr("\(ext.lua).\(f.lua)(\(argsCode))", resultType(f, args)) }
            let tail = argsCode.isEmpty ? "" : ", " + argsCode
            if base.chained {
                return LuaExpr("swift.optApply(\(base.code), function(__r) return \(ext.lua).\(f.lua)(__r\(tail)) end)", resultType(f, args).map { var r = $0; r.optional = true; return r })
            }
            return LuaExpr("\(ext.lua).\(f.lua)(\(base.code)\(tail))", resultType(f, args))
        }
        // A value typed by a protocol of the files that an iOS type adopts (`let scheduler:
        // TaskScheduling = BGTaskScheduler.shared`): the API's mapping when the value is not a
        // translated instance, the protocol's method otherwise (decided at run time).
        if let tn = base.type, let proto = program.type(named: tn.name, from: currentType), proto.kind == .protocol, !base.chained,
           let v = protocolAPICall(proto, name: name, base: base, args: args, call: c, expect: expect, awaited: awaited, tried: tried) {
            return v
        }
        // An instance of a translated type.
        if let tn = base.type, let t = program.type(named: tn.name, from: currentType) {
            if let f = pick(t.methods(name), args, isStatic: false) {
                if base.chained {
                    var r = LuaExpr("swift.optCall(0, \(base.code), \(Literals.quote(f.lua)), nil\(trailingArgs(ordered(f, args))))", resultType(f, args).map { var r = $0; r.optional = true; return r })
                    r.chained = true   // `a?.f().b`: the rest of the chain is skipped too when `a` is nil
                    return r
                }
                return LuaExpr("\(wrapBase(base.code)):\(f.lua)(\(ordered(f, args)))", resultType(f, args))
            }
            if t.property(name) != nil {
                let fnCode = base.chained ? "swift.opt(\(base.code), \(Literals.quote(Naming.field(name))))" : "\(wrapBase(base.code)).\(Naming.field(name))"
                return LuaExpr("swift.callOpt(\(([fnCode] + args.map { expr($0.syntax).code }).joined(separator: ", ")))")
            }
            // A method of an iOS base class (`cancel()` of an `Operation` subclass).
            if let api = t.inheritedOpaqueBase, APIs.knownTypes.contains(api) {
                let receiver = base.chained ? { var r = LuaExpr("__r", TypeName(api)); r.apiType = api; return r }() : LuaExpr(base.code, TypeName(api))
                let ctx = CallContext(t: self, args: args, node: Syntax(c), base: receiver, awaited: awaited, tried: tried, expect: expect)
                if var v = APIs.call(api, name, ctx) {
                    counts.map("\(api).\(name)")
                    if base.chained { v.code = "swift.optApply(\(base.code), function(__r) return \(v.code) end)"; v.chained = true }
                    return v
                }
            }
        }
        // A built-in value or an unknown receiver: at run time (a stub when opaque).
        let labelled = dynamicName(name, args) ?? (onlyBuiltinTakes(name, args) ? "\(name)_" : nil)
        reduceInto = name == "reduce" && args.first?.label == "into"
        defer { reduceInto = false }
        // A write to a file (`data.write(to:)`, `text.write(toFile:...)`) is a stub call with a site,
        // so the path exists after it (Stubs.fileRole).
        let writesFile = StubBook.fileRole(name, labels: args.map { $0.label ?? "_" }).writes != nil
        if let tn = base.type, APIs.builtinValueTypes.contains(tn.name), !writesFile {
            let argCodes = args.map { a -> String in
                if let cl = a.closure { return elementClosure(name, cl, label: a.label) }
                return expr(a.syntax).code
            }
            let fn = base.chained ? "optCall" : "call"
            var r = LuaExpr("swift.\(fn)(0, \(([base.code, Literals.quote(name), labelled.map(Literals.quote) ?? "nil"] + argCodes).joined(separator: ", ")))",
                            APIs.builtinCallType(tn, name))
            r.chained = base.chained
            return r
        }
        // `window.makeKeyAndVisible()`: UIKit loads the root view controller's view (app.lua).
        if name == "makeKeyAndVisible", args.isEmpty {
            counts.map("UIWindow.makeKeyAndVisible")
            if base.chained { return LuaExpr("swift.optApply(\(base.code), swift.makeKeyAndVisible)") }
            return LuaExpr("swift.makeKeyAndVisible(\(base.code))")
        }
        let receiver = receiverName(baseSyntax, base)
        let stubName = "\(receiver).\(name)"
        let apiReceiver = apiName.map { APIs.knownTypes.contains($0) } ?? false
        var r = stubCall(stubName, recv: base.code, args: args, node: Syntax(c), optionalUse: optionalUse, awaited: awaited, tried: tried,
                         dynamic: apiReceiver ? nil : (name, labelled), chained: base.chained)
        r.stubName = stubName
        // `x?.resourceValues(...).volumeAvailableCapacity`: nil all the way when `x` is nil.
        r.chained = base.chained && !apiReceiver
        return r
    }

    /// The external type (extensions of a type the files do not define) of a receiver.
    func externalType(for base: LuaExpr) -> TypeDecl? {
        var name = base.apiType ?? base.type?.name ?? ""
        if name.hasPrefix("?") { name.removeFirst() }
        guard !name.isEmpty, let ext = program.externals[name], ext.hasTranslatedMembers else { return nil }
        return ext
    }

    /// A call on a protocol-typed value whose protocol an iOS type adopts: both translations,
    /// the arguments evaluated once (see memberCall).
    func protocolAPICall(_ proto: TypeDecl, name: String, base: LuaExpr, args: [CallArg], call c: FunctionCallExprSyntax,
                         expect: TypeName?, awaited: Bool, tried: Bool) -> LuaExpr? {
        let apis = program.adopters(of: proto.name).filter { APIs.knownTypes.contains($0) }
        guard let api = apis.first else { return nil }
        let requirement = pick(proto.methods(name), args)
        pushScope()
        defer { popScope() }
        var temps: [String] = [], values: [String] = [], tempArgs: [CallArg] = []
        for a in args {
            let tmp = temp("a")
            let param = a.closure != nil
                ? (requirement?.params.first { $0.label == (a.label ?? "_") } ?? requirement?.params.last { $0.isClosure })
                : requirement?.params.first { $0.label == (a.label ?? "_") }
            if let cl = a.closure {
                values.append(closure(cl, paramTypes: param?.closureParams ?? []).code)
                bind(tmp, lua: tmp, type: TypeName("Function"), stub: nil)
            } else {
                let e = expr(a.syntax, expect: param?.type)
                values.append(e.code)
                bind(tmp, lua: tmp, type: e.type ?? param?.type, stub: e.stubName)
                if let text = constantString(a.syntax) { setLocalConstant(tmp, text) }
            }
            temps.append(tmp)
            var arg = CallArg(label: a.label, syntax: ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(tmp))))
            arg.closureLike = a.closure != nil
            tempArgs.append(arg)
        }
        var receiver = LuaExpr("__r", TypeName(api))
        receiver.apiType = api
        let ctx = CallContext(t: self, args: tempArgs, node: Syntax(c), base: receiver, awaited: awaited, tried: tried, expect: expect)
        let mapped: LuaExpr
        if let m = APIs.call(api, name, ctx) {
            mapped = m
            counts.map("\(api).\(name)")
        } else if let ext = program.externalOrder.first(where: { $0.name == api }), let f = pick(ext.methods(name), tempArgs, labelsMustFit: true) {
            // The app's extension of the iOS type implements the requirement (pocket-casts'
            // `extension URLSession: RequestHandler { func send(request:completion:) }`).
            mapped = LuaExpr("\(ext.lua).\(f.lua)(__r\(trailingArgs(ordered(f, tempArgs))))", resultType(f, tempArgs))
        } else {
            return nil
        }
        let labelled = args.first?.label.map { "\(name)_\($0)" }
        let own = requirement.map { "__r:\($0.lua)(\(temps.joined(separator: ", ")))" }
            ?? "swift.call(0, \(([ "__r", Literals.quote(name), labelled.map(Literals.quote) ?? "nil"] + temps).joined(separator: ", ")))"
        let code = "(function(\((["__r"] + temps).joined(separator: ", "))) if swift.isTranslated(__r) then return \(own) end return \(mapped.code) end)(\(([base.code] + values).joined(separator: ", ")))"
        return LuaExpr(code, mapped.type ?? requirement?.returnType)
    }

    // Overloads, arguments and stub calls are Calls+Arguments.swift's.

    /// `super.name(args)` of a superclass the files do not define (`NSManagedObject`'s
    /// `fetchRequest()`, `UIViewController`'s `viewDidLoad()`): the SDK's method, a stub named after
    /// that class; its `init` does nothing.
    func superStub(_ name: String, _ args: [CallArg], _ c: FunctionCallExprSyntax, optionalUse: Bool, awaited: Bool, tried: Bool) -> LuaExpr {
        if name == "init" { return LuaExpr("nil") }
        let base = currentType.flatMap { t in t.inheritedOpaqueBase ?? t.inherited.first { $0.first?.isUppercase == true && program.type(named: $0) == nil } } ?? "super"
        return stubCall("\(base).\(name)", recv: inStatic ? "nil" : "self", args: args, node: Syntax(c), optionalUse: optionalUse, awaited: awaited, tried: tried)
    }
}
