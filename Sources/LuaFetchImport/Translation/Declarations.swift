// Declarations (SPEC 18.3, 18.7.4): each type becomes a table `T.Name` made once at the top
// level (supertypes first); its stored properties' initial values, computed, lazy and observed
// properties, statics (per process, made on first use), methods, initializers and enum cases
// are written file by file, in the Swift code's order; free functions are `T.name`, globals are
// per process. SwiftUI's `body` is not simulated: its `scenePhase` handlers, notification
// observers and `.backgroundTask` registrations are lifted out.
import SwiftSyntax

extension Translator {
    // MARK: - Types

    /// The `T.X = swift.class(...)` lines of every type the slice reached, supertypes first.
    func typeTables() {
        var done = Set<ObjectIdentifier>()   // two modules may each have a type of one name
        func make(_ t: TypeDecl) {
            guard !done.contains(ObjectIdentifier(t)) else { return }
            if let s = t.superclass { make(s) }
            if let o = t.outer { make(o) }
            done.insert(ObjectIdentifier(t))
            setFile(t.file)
            let kind: String
            switch t.kind {
            case .class, .actor: kind = "class"
            case .struct: kind = "struct"
            case .enum: kind = "enum"
            case .protocol: kind = "protocol"
            }
            var superCode = t.superclass?.lua
            if superCode == nil, let b = t.opaqueBase, b == "Operation" || b == "BlockOperation" { superCode = "swift.\(b)" }
            emit("\(t.lua) = swift.type(\(Literals.quote(t.qualified)), \"\(kind)\"\(superCode.map { ", \($0)" } ?? ""))", t.line)
            if let b = t.inheritedOpaqueBase, b != "Operation", b != "BlockOperation" {
                // Members the type and its superclasses declare are its own (nil until set);
                // others are the iOS base's, also through an app superclass (mastodon's
                // `CircleAvatarButton: AvatarButton`, `AvatarButton: UIControl`).
                var names: [String] = []
                var c: TypeDecl? = t
                while let x = c { names += x.propertyOrder.filter { x.properties[$0]?.isStatic == false }; c = x.superclass }
                emit("swift.opaqueBase(\(t.lua), { \(names.map { Literals.quote(Naming.field($0)) }.joined(separator: ", ")) })", t.line)
            }
        }
        for t in program.typeOrder where keeps(type: t) { make(t) }
        // Extensions of types the files do not define: a table of their methods and properties.
        for t in program.externalOrder where hasMembersToTranslate(t) {
            setFile(t.file)
            emit("\(t.lua) = swift.type(\(Literals.quote(t.qualified)), \"extension\")", t.line)
        }
        for t in program.typeOrder where keeps(type: t) {
            let protocols = t.inherited.compactMap { program.type(named: $0, from: t) }.filter { $0.kind == .protocol }
            if !protocols.isEmpty {
                setFile(t.file)
                emit("swift.conform(\(t.lua), \(protocols.map(\.lua).joined(separator: ", ")))", t.line)
            }
        }
        adoptedOutside()
    }

    /// The app's protocols a type the files do not define adopts through the app's own extension
    /// (`extension Library.Builder: Requiring`), and those they refine: a stub's value, whose type
    /// is unknown, may be one of those types, so `is`/`as?` of such a protocol holds for it
    /// (`swift.adoptedOutside`).
    func adoptedOutside() {
        var adopted: [TypeDecl] = []
        var line = 0
        for t in program.externalOrder {
            for name in t.inherited {
                guard let p = program.type(named: name, from: t), p.kind == .protocol else { continue }
                for q in [p] + p.allProtocols() where !adopted.contains(where: { $0 === q }) && keeps(type: q) && program.typeOrder.contains(where: { $0 === q }) {
                    if adopted.isEmpty { setFile(t.file); line = t.line }
                    adopted.append(q)
                }
            }
        }
        guard !adopted.isEmpty else { return }
        emit("swift.adoptedOutside(\(adopted.map(\.lua).joined(separator: ", ")))", line)
    }

    func setFile(_ f: ParsedFile) {
        file = f
        program.module = f.source.module
        program.filePath = f.source.path
        fileIndex = fileNames.firstIndex(of: f.source.shown) ?? {
            fileNames.append(f.source.shown)
            return fileNames.count - 1
        }()
    }

    /// An extension of a type the files do not define has methods, computed properties or
    /// subscripts the slice keeps.
    func hasMembersToTranslate(_ t: TypeDecl) -> Bool {
        t.hasTranslatedMembers || t.parts.contains { _, block in
            program.members(block).contains { $0.as(SubscriptDeclSyntax.self).map { keeps(node: $0) } ?? false }
        }
    }

    /// The methods and computed properties extensions add to a type the files do not define;
    /// Swift's own value types (String, Array, ...) also learn them for receivers whose type
    /// the translation cannot tell (`swift.extendBuiltins`).
    func externalMembers(_ t: TypeDecl) {
        guard hasMembersToTranslate(t) else { return }
        currentType = t
        onMainActor = false
        defer { currentType = nil }
        for (f, block) in t.parts {
            setFile(f)
            for decl in program.members(block) {
                if let v = decl.as(VariableDeclSyntax.self) {
                    for b in v.bindings {
                        // Computed properties, and static stored ones (`private static let factory =
                        // Factory()` in duckduckgo's `extension URL`, read by its static methods).
                        guard let id = b.pattern.as(IdentifierPatternSyntax.self), let p = t.properties[Program.plain(id.identifier.text)],
                              p.kind == .computed || p.isStatic, keeps(p) else { continue }
                        checkedUnit(.property(p, owner: t)) { property(p, t) }
                    }
                } else if decl.is(FunctionDeclSyntax.self) || decl.is(SubscriptDeclSyntax.self) {
                    member(decl, t)
                }
            }
        }
        setFile(t.file)
        // A method whose first argument is labelled (`contains(subSequence:)`) is also known by
        // that label, so the type's own method of the base name (`contains(_:)`) stays.
        let labelled = t.methods.values.flatMap { $0 }.filter { !$0.isStatic }
            .compactMap { f in f.params.first.flatMap { $0.label == "_" ? nil : "\(f.lua) = \(Literals.quote("\(f.base)_\($0.label)"))" } }
            .sorted()
        let extra = labelled.isEmpty ? "" : ", { " + labelled.joined(separator: ", ") + " }"
        emit("swift.extendBuiltins(\(t.lua), \(Literals.quote(t.qualified))\(extra))", t.line)
    }

    /// Everything a type declares, part by part (the type itself, then its extensions).
    func typeMembers(_ t: TypeDecl) {
        currentType = t
        onMainActor = t.mainActor
        defer { currentType = nil; onMainActor = false }
        if t.kind == .enum && !t.cases.isEmpty {
            setFile(t.file)
            let cases = t.cases.map { c -> String in
                var parts = [Literals.quote(c.name), c.raw ?? "nil"]
                // A name Lua cannot spell (`case rosé`) is kept under the field the code uses.
                let field = Naming.field(c.name)
                if c.arity > 0 || field != c.name { parts.append(String(c.arity)) }
                if field != c.name { parts.append(Literals.quote(field)) }
                return "{ \(parts.joined(separator: ", ")) }"
            }
            emit("swift.enum(\(t.lua), { \(cases.joined(separator: ", ")) })", t.line)
        }
        // Stored properties' initial values, in declaration order (the type's own part).
        var fieldLines: [String] = []
        var memberwise: [String] = []
        if let (f, _) = t.parts.first { setFile(f) }
        fieldLines = nested {
            inStatic = false
            pushScope()
            for name in t.propertyOrder {
                guard let p = t.properties[name], !p.isStatic, p.file.source.shown == t.file.source.shown else { continue }
                setFile(p.file)
                if p.kind == .stored && p.wrapper == nil { memberwise.append(name) }
                if keeps(p) { checkedUnit(.stored(p)) { storedInitializer(p, t) } }
            }
            popScope()
        }
        if !fieldLines.isEmpty {
            setFile(t.file)
            emit("swift.fields(\(t.lua), function(self)", t.line)
            out += fieldLines
            emit("end)", t.line)
        }
        // Swift keeps the memberwise initializer of a struct whose written initializers are all in
        // extensions (a Codable `init(from:)`).
        if t.kind == .struct && t.inits.allSatisfy(Self.declaredInExtension) && !memberwise.isEmpty && isMade(t) {
            setFile(t.file)
            emit("swift.memberwise(\(t.lua), { \(memberwise.map { Literals.quote(Naming.field($0)) }.joined(separator: ", ")) })", t.line)
        }
        // The rest, in each part's order.
        for (f, block) in t.parts {
            setFile(f)
            for decl in program.members(block) {
                member(decl, t)
            }
        }
        liftSwiftUI(t)
    }

    private func storedInitializer(_ p: PropertyInfo, _ t: TypeDecl) {
        let field = Naming.field(p.name)
        switch p.wrapper {
        case "UIApplicationDelegateAdaptor":
            if let name = p.type?.name, let d = program.type(named: name, from: t) {
                emit("self.\(field) = swift.adaptor(\(d.lua))", at: p.binding)
            }
            return
        case "Environment", "AppStorage", "SceneStorage":
            return  // computed below
        case "EnvironmentObject":
            emit("self.\(field) = swift.opaque(\(Literals.quote(p.type?.name ?? p.name)))", at: p.binding)
            return
        default: break
        }
        // A property wrapper of the files: its storage `_name` holds the wrapper.
        if let w = wrapperType(p) {
            emit("self.\(Naming.field("_" + p.name)) = \(wrapperInstance(p, w).code)", at: p.binding)
            return
        }
        guard p.kind == .stored || p.kind == .observed else { return }
        guard let initial = p.binding.initializer?.value else {
            // A property wrapper of a library (`@Injected var api: Client`) always holds a value:
            // a stub of the declared type.
            // (`@Dependency(\.database) var database` has no type written: named by the property.)
            // One whose attribute names its starting value (`@UserDefault(key: "k", defaultValue: 0)`)
            // starts at it (issue 38.7): the wrapper's storage is out of sight, its default is not.
            if let w = p.wrapper, Self.libraryWrapper(w) {
                if let d = dependencyValue(Self.wrapperAttribute(p)) {
                    emit("self.\(field) = \(d)", at: p.binding)
                } else if let start = libraryWrapperDefault(p) {
                    emit("self.\(field) = \(expr(start, expect: p.type).code)", at: p.binding)
                } else {
                    emit("self.\(field) = swift.opaque(\(Literals.quote(p.type?.name ?? p.name)))", at: p.binding)
                }
            }
            return
        }
        let value = expr(initial, expect: p.type)
        if p.kind == .observed {
            emit("swift.initStored(self, \(Literals.quote(field)), \(value.code))", at: p.binding)
        } else {
            emit("self.\(field) = \(value.code)", at: p.binding)
        }
    }

    /// A property requirement of a protocol: accessors without bodies (`var x: Int { get }`).
    static func isRequirement(_ b: PatternBindingSyntax) -> Bool {
        guard let acc = b.accessorBlock else { return b.initializer == nil }
        if case .accessors(let list) = acc.accessors { return list.allSatisfy { $0.body == nil } }
        return false
    }

    private func member(_ decl: DeclSyntax, _ t: TypeDecl) {
        if let v = decl.as(VariableDeclSyntax.self) {
            for b in v.bindings {
                guard let id = b.pattern.as(IdentifierPatternSyntax.self), let p = t.properties[Program.plain(id.identifier.text)], keeps(p) else { continue }
                // A protocol's `{ get }` / `{ get set }` requirement has no code: the adopting
                // types' own properties (stored or computed) answer (18.9.6).
                if t.kind == .protocol && Self.isRequirement(b) { continue }
                checkedUnit(.property(p, owner: t)) { property(p, t) }
            }
        } else if let f = decl.as(FunctionDeclSyntax.self) {
            let isStatic = f.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
            let base = f.name.text.trimmingCharacters("`")
            guard let info = t.methods[base]?.first(where: { $0.node.id == DeclSyntax(f).id }), keeps(info) else { return }
            // A protocol's requirement has no body: the adopting types' own methods answer.
            if t.kind == .protocol && f.body == nil { return }
            checkedUnit(.function(info, owner: t, isStatic: isStatic)) { function(info, owner: t, isStatic: isStatic, body: f.body, node: Syntax(f)) }
        } else if let i = decl.as(InitializerDeclSyntax.self) {
            guard let info = t.inits.first(where: { $0.node.id == DeclSyntax(i).id }), keeps(info) else { return }
            checkedUnit(.function(info, owner: t, isStatic: false)) { function(info, owner: t, isStatic: false, body: i.body, node: Syntax(i)) }
        } else if let sd = decl.as(SubscriptDeclSyntax.self) {
            if keeps(node: sd) { checkedUnit(.other(name: "\(t.name) subscript", line: file.line(sd))) { subscriptDecl(sd, t) } }
        } else if decl.is(DeinitializerDeclSyntax.self) {
            return
        } else if decl.is(TypeAliasDeclSyntax.self) || decl.is(AssociatedTypeDeclSyntax.self) || decl.is(EnumCaseDeclSyntax.self) {
            return
        }
    }

    /// `subscript(key: K) -> V { get set }`: methods `subscript` and `setSubscript` that
    /// `swift.index` and `swift.setIndex` call for instances (a static subscript is left out).
    private func subscriptDecl(_ sd: SubscriptDeclSyntax, _ t: TypeDecl) {
        if sd.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) {
            emit("-- " + unsupportedCall("static subscript", sd), at: sd)
            return
        }
        let params = sd.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
        guard let acc = sd.accessorBlock else { return }
        currentType = t
        // `subscript(safeIndex index: Int)`: a labelled subscript is a member of its own,
        // `subscript_safeIndex`, which `x[safeIndex: i]` calls (swift.labelledIndex); only its
        // getter (no assignment through a label reaches it).
        var label = ""
        if let first = sd.parameterClause.parameters.first, first.secondName != nil, first.firstName.text != "_" {
            label = "_" + Naming.field(first.firstName.text)
        }
        switch acc.accessors {
        case .getter(let items):
            let fn = accessorFunction(items, params: ["self"] + params, node: Syntax(acc), implicitReturn: true)
            emit("\(t.lua).subscript\(label) = " + fn, at: sd)
        case .accessors(let list):
            for a in list {
                switch a.accessorSpecifier.text {
                case "get":
                    emit("\(t.lua).subscript\(label) = " + accessorFunction(a.body?.statements, params: ["self"] + params, node: Syntax(a), implicitReturn: true), at: a)
                case "set" where label.isEmpty:
                    let value = a.parameters?.name.text ?? "newValue"
                    emit("\(t.lua).setSubscript = " + accessorFunction(a.body?.statements, params: ["self"] + params + [value], node: Syntax(a)), at: a)
                default: continue
                }
            }
        }
    }

    /// Computed, lazy, observed and static properties (stored ones are in `fields`).
    private func property(_ p: PropertyInfo, _ t: TypeDecl) {
        let field = Naming.field(p.name)
        let q = Literals.quote(field)
        inStatic = p.isStatic
        defer { inStatic = false }
        if let w = wrapperType(p) {
            // `x` reads and writes the wrapper's `wrappedValue`.
            let storage = Literals.quote(Naming.field("_" + p.name))
            let s = Naming.field("_" + p.name)
            if p.isStatic {
                emit("swift.static(\(t.lua), \(storage), function() return \(wrapperInstance(p, w).code) end)", at: p.binding)
                emit("swift.staticComputed(\(t.lua), \(q), function() return \(t.lua).\(s).wrappedValue end, function(v) \(t.lua).\(s).wrappedValue = v end)", at: p.binding)
            } else {
                emit("swift.computed(\(t.lua), \(q), function(self) return self.\(s).wrappedValue end, function(self, v) self.\(s).wrappedValue = v end)", at: p.binding)
            }
            return
        }
        if p.isStatic {
            switch p.kind {
            case .stored, .lazy, .observed:
                let initial = p.binding.initializer.map { expr($0.value, expect: p.type).code } ?? "nil"
                emit("swift.static(\(t.lua), \(q), function() return \(initial) end)", at: p.binding)
            case .computed:
                // A protocol's static (its adopter) or a class's (`class var`: the class it is read
                // on, a subclass's override) is called with the type it was read on as `self`.
                selfIsAdopter = t.kind == .protocol || t.kind == .class
                defer { selfIsAdopter = false }
                emit("swift.staticComputed(\(t.lua), \(q), " + accessorList(getterSetter(p, isStatic: true)) + ")", at: p.binding)
            }
            return
        }
        switch p.wrapper {
        case "Environment":
            if p.wrapperArgument?.contains("scenePhase") == true {
                emit("swift.computed(\(t.lua), \(q), function() return swift.currentScenePhase() end)", at: p.binding)
            } else {
                emit("swift.computed(\(t.lua), \(q), function() return swift.opaque(\(Literals.quote(p.name))) end)", at: p.binding)
            }
            return
        case "Published":
            // `$name` publishes each assignment (18.9.6); the property keeps its own observers.
            let (willSet, didSet) = p.kind == .observed ? observers(p) : ("nil", "nil")
            emit("swift.published(\(t.lua), \(q), \(willSet), \(didSet))", at: p.binding)
            return
        case "AppStorage", "SceneStorage":
            // The key is the attribute's first argument, translated (a literal, or a constant such
            // as `Keys.theme.rawValue`), else the property's name.
            let attr = Self.wrapperAttribute(p)
            let key = attr.flatMap { a -> String? in
                guard case .argumentList(let list)? = a.arguments, let first = list.first else { return nil }
                return expr(first.expression, expect: TypeName("String")).code
            } ?? Literals.quote(p.name)
            let initial = p.binding.initializer.map { expr($0.value, expect: p.type).code } ?? "nil"
            emit("swift.computed(\(t.lua), \(q), function() return swift.coalesce(swift.defaultsGet(\(key), \"object\"), function() return \(initial) end) end, function(self, v) swift.defaultsSet(\(key), v) end)", at: p.binding)
            return
        default: break
        }
        switch p.kind {
        case .stored:
            return
        case .lazy:
            let initial = p.binding.initializer.map { b -> String in
                let lines = nested { pushScope(); control.append(.function); emit("return " + expr(b.value, expect: p.type).code, at: b); control.removeLast(); popScope() }
                return "function(self)\n" + lines.joined(separator: "\n") + "\n" + pad + "end"
            } ?? "function() return nil end"
            emit("swift.lazy(\(t.lua), \(q), \(initial))", at: p.binding)
        case .computed:
            let gs = accessorList(getterSetter(p, isStatic: false))
            emit("swift.computed(\(t.lua), \(q), \(gs))", at: p.binding)
        case .observed:
            guard case .accessors? = p.binding.accessorBlock?.accessors else { return }
            let (willSet, didSet) = observers(p)
            emit("swift.observed(\(t.lua), \(q), \(willSet), \(didSet))", at: p.binding)
        }
    }

    /// A property's `willSet` and `didSet` as Lua functions (`nil` for one it does not have).
    private func observers(_ p: PropertyInfo) -> (String, String) {
        var willSet = "nil", didSet = "nil"
        guard case .accessors(let list)? = p.binding.accessorBlock?.accessors else { return (willSet, didSet) }
        for a in list {
            let param = a.parameters?.name.text ?? (a.accessorSpecifier.text == "willSet" ? "newValue" : "oldValue")
            let fn = accessorFunction(a.body, params: ["self", param], node: Syntax(a))
            if a.accessorSpecifier.text == "willSet" { willSet = fn } else if a.accessorSpecifier.text == "didSet" { didSet = fn }
        }
        return (willSet, didSet)
    }

    /// A computed property's (or global's) getter and setter functions.
    func getterSetter(_ p: PropertyInfo, isStatic: Bool) -> (getter: String, setter: String?) {
        guard let acc = p.binding.accessorBlock else { return ("function() return nil end", nil) }
        let selfParam = isStatic ? [] : ["self"]
        let getterParam = isStatic && selfIsAdopter ? ["self"] : selfParam
        switch acc.accessors {
        case .getter(let items):
            return (accessorFunction(items, params: getterParam, node: Syntax(acc), implicitReturn: true, result: p.type), nil)
        case .accessors(let list):
            var getter = "function() return nil end", setter: String?
            for a in list {
                switch a.accessorSpecifier.text {
                case "get", "_read": getter = accessorFunction(a.body?.statements, params: getterParam, node: Syntax(a), implicitReturn: true, result: p.type)
                case "set", "_modify":
                    let param = a.parameters?.name.text ?? "newValue"
                    let adopter = selfIsAdopter
                    selfIsAdopter = false   // a static setter is called without the adopting type
                    setter = accessorFunction(a.body?.statements, params: selfParam + [param], node: Syntax(a))
                    selfIsAdopter = adopter
                default: continue
                }
            }
            return (getter, setter)
        }
    }

    /// `getter, setter` (or the getter alone), as `swift.computed` and `swift.staticComputed` take them.
    private func accessorList(_ gs: (getter: String, setter: String?)) -> String {
        gs.getter + (gs.setter.map { ", " + $0 } ?? "")
    }

    private func accessorFunction(_ body: CodeBlockSyntax?, params: [String], node: Syntax) -> String {
        accessorFunction(body?.statements, params: params, node: node)
    }

    /// `result`: a getter's type, which its returned value has (`.init(...)` makes one).
    private func accessorFunction(_ items: CodeBlockItemListSyntax?, params: [String], node: Syntax, implicitReturn: Bool = false,
                                  result: TypeName? = nil) -> String {
        pushScope()
        control.append(.function)
        closureResults.append(result)
        defer { closureResults.removeLast() }
        let names = params.map { $0 == "self" ? "self" : declare($0) }
        let lines = nested {
            guard let items else { return }
            let list = program.items(items)
            if implicitReturn, list.count == 1, case .expr(let e) = list[0].item, !isStatementExpression(e) {
                emit("return \(expr(e, expect: result).code)", at: e)
            } else if implicitReturn, let e = soleConditional(list) {
                valueConditional(e)
            } else {
                statements(items)
            }
        }
        control.removeLast()
        popScope()
        let header = "function(\(names.joined(separator: ", ")))"
        if lines.isEmpty { return header + " end" }
        return header + "\n" + lines.joined(separator: "\n") + "\n" + pad + "end" + marker(file.endLine(node))
    }

    // Functions, the top level and SwiftUI are Declarations+Functions.swift's.
}
