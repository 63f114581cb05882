// The imported app as the translation sees it before writing a line (SPEC 18.3, 18.7.4): every
// type (class, struct, enum, protocol, actor) with its extensions, properties, methods and
// initializers, every free function and global, each with its Lua name (overloads get their
// first argument label; Lua keywords and luafetch globals a `_` suffix), the app's entry points,
// and the `#if` branches an iOS release build compiles. Built by one pass over the parsed files
// (after Program+Aliases.swift's); what it records of each declaration is TypeDecl.swift's.
import SwiftSyntax
import SwiftIfConfig

/// Every declaration of the imported files.
final class Program {
    var files: [ParsedFile] = []
    /// Types by qualified name, and in declaration order.
    var types: [String: TypeDecl] = [:]
    var typeOrder: [TypeDecl] = []
    var functions: [String: [FuncInfo]] = [:]
    var globals: [String: PropertyInfo] = [:]
    var globalOrder: [(ParsedFile, VariableDeclSyntax)] = []
    var extensionsOfUnknown: [(ParsedFile, ExtensionDeclSyntax)] = []
    /// Those extensions' members, one external type per extended type (apart from `types`).
    var externals: [String: TypeDecl] = [:]
    var externalOrder: [TypeDecl] = []
    var build = ReleaseBuild()

    /// The active clause's items of an `#if`, in place of the `#if`.
    func active(_ ifConfig: IfConfigDeclSyntax) -> IfConfigClauseSyntax.Elements? {
        ifConfig.activeClause(in: build).clause?.elements
    }

    /// Members of a block, with `#if` resolved.
    func members(_ block: MemberBlockSyntax) -> [DeclSyntax] {
        var out: [DeclSyntax] = []
        func add(_ items: MemberBlockItemListSyntax) {
            for item in items {
                if let ic = item.decl.as(IfConfigDeclSyntax.self) {
                    if case .decls(let inner)? = active(ic) { add(inner) }
                } else {
                    out.append(item.decl)
                }
            }
        }
        add(block.members)
        return out
    }

    /// Top-level items of a file, with `#if` resolved.
    func items(_ list: CodeBlockItemListSyntax) -> [CodeBlockItemSyntax] {
        var out: [CodeBlockItemSyntax] = []
        for item in list {
            if let ic = item.item.as(IfConfigDeclSyntax.self) {
                if case .statements(let inner)? = active(ic) { out += items(inner) }
                else if case .decls(let decls)? = active(ic) {
                    for d in decls { out.append(CodeBlockItemSyntax(item: .decl(d.decl))) }
                }
            } else {
                out.append(item)
            }
        }
        return out
    }

    /// A declared name as the code refers to it: `` `default` `` is `default`.
    static func plain(_ name: String) -> String {
        name.count > 2 && name.hasPrefix("`") && name.hasSuffix("`") ? String(name.dropFirst().dropLast()) : name
    }

    func type(named name: String, from scope: TypeDecl? = nil) -> TypeDecl? {
        // Nested types of the scope, of its superclasses (a subclass sees them: owncloud's
        // `FeatureKeys.runOnWifi` in a subclass of the class that nests `FeatureKeys`), then of
        // the enclosing types.
        var s = scope
        while let c = s {
            var k: TypeDecl? = c
            var depth = 0
            while let x = k, depth < 64 {
                if let n = x.nested[name] { return n }
                k = x.superclass
                depth += 1
            }
            s = c.outer
        }
        // The file's private types, then the module's own (18.9.6: same names in two modules
        // are two things; a `private enum Const` in each of two files, two things too).
        if let t = typesByFile[scope?.file.source.path ?? filePath]?[name] { return t }
        if let t = typesByModule[scope?.file.source.module ?? module]?[name] { return t }
        // `Outer.Inner`: the outer as this code sees it (its file's, its module's), then inward.
        // (`...`, the unbounded range of `a[...]`, has no component.)
        if name.contains(".") {
            let parts = name.split(separator: ".").map(String.init)
            if let head = parts.first, head != name, var t = type(named: head, from: scope) {
                var found = true
                for p in parts.dropFirst() {
                    guard let n = t.nested[p] else { found = false; break }
                    t = n
                }
                if found { return t }
            }
        }
        if let t = types[name] { return t }
        // `Module.Type` or an outer type the lookup does not know: the last component.
        if let dot = name.lastIndex(of: ".") { return type(named: String(name[name.index(after: dot)...]), from: scope) }
        return nil
    }

    // MARK: - Modules (18.9.6)

    /// The module of the code being read or translated now (the translator and the slice set
    /// it with the file they are in): its own types, functions and globals win.
    var module = "App"
    /// Types by name in each module (the file-private ones only where no other has the name).
    var typesByModule: [String: [String: TypeDecl]] = [:]
    /// The file being read or translated now (set with `module`): its private types win.
    var filePath = ""
    /// Top-level `private`/`fileprivate` types by name in each file (by path).
    var typesByFile: [String: [String: TypeDecl]] = [:]
    /// Globals by name in each module (`globals` keeps the first of each name).
    var globalsByModule: [String: [String: PropertyInfo]] = [:]

    /// The free functions of that name: the current module's, else every module's.
    func freeFunctions(_ name: String) -> [FuncInfo]? {
        guard let all = functions[name] else { return nil }
        let own = all.filter { $0.file.source.module == module }
        return own.isEmpty ? all : own
    }

    /// The global of that name: the current module's, else another's.
    func global(_ name: String) -> PropertyInfo? {
        globalsByModule[module]?[name] ?? globals[name]
    }

    /// The Lua name of a global: its Swift name, with its module's prefix when two modules
    /// declare one of that name.
    func globalKey(_ p: PropertyInfo) -> String {
        let modules = globalsByModule.filter { $0.value[p.name] != nil }.count
        return modules > 1 ? "\(p.file.source.module)_\(p.name)" : p.name
    }

    // MARK: - Collecting

    func collect(_ file: ParsedFile) {
        files.append(file)
        for item in items(file.tree.statements) {
            guard case .decl(let decl) = item.item else { continue }
            collectDecl(decl, file: file, outer: nil)
        }
    }

    private func collectDecl(_ decl: DeclSyntax, file: ParsedFile, outer: TypeDecl?) {
        if let c = decl.as(ClassDeclSyntax.self) {
            addType(c.name.text, .class, c.memberBlock, c.inheritanceClause, c.attributes, file, outer, Syntax(c))
        } else if let s = decl.as(StructDeclSyntax.self) {
            addType(s.name.text, .struct, s.memberBlock, s.inheritanceClause, s.attributes, file, outer, Syntax(s))
        } else if let e = decl.as(EnumDeclSyntax.self) {
            let t = addType(e.name.text, .enum, e.memberBlock, e.inheritanceClause, e.attributes, file, outer, Syntax(e))
            t.rawType = e.inheritanceClause?.inheritedTypes.first.map { $0.type.trimmedDescription }
        } else if let p = decl.as(ProtocolDeclSyntax.self) {
            addType(p.name.text, .protocol, p.memberBlock, p.inheritanceClause, p.attributes, file, outer, Syntax(p))
        } else if let a = decl.as(ActorDeclSyntax.self) {
            addType(a.name.text, .actor, a.memberBlock, a.inheritanceClause, a.attributes, file, outer, Syntax(a))
        } else if let f = decl.as(FunctionDeclSyntax.self), outer == nil {
            let info = funcInfo(f, file: file, isStatic: true, mainActor: hasMainActor(f.attributes))
            functions[info.base, default: []].append(info)
        } else if let v = decl.as(VariableDeclSyntax.self), outer == nil {
            globalOrder.append((file, v))
            for b in v.bindings {
                guard let id = b.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let info = PropertyInfo(name: Program.plain(id.identifier.text), type: TypeName(b.typeAnnotation?.type) ?? inferLiteral(b.initializer?.value),
                                                           isStatic: true, kind: .stored, isLet: v.bindingSpecifier.text == "let",
                                                           binding: b, decl: v, file: file)
                if globals[info.name] == nil { globals[info.name] = info }
                globalsByModule[file.source.module, default: [:]][info.name] = info
            }
        } else if let x = decl.as(ExtensionDeclSyntax.self) {
            pendingExtensions.append((file, x))
        } else if let a = decl.as(TypeAliasDeclSyntax.self), outer == nil {
            // `typealias CRUD = Readable & Deletable`: a type adopting CRUD adopts both.
            let value = a.initializer.value
            let parts = value.as(CompositionTypeSyntax.self)?.elements.map { $0.type } ?? [value]
            let names = parts.compactMap { $0.as(IdentifierTypeSyntax.self)?.name.text }
            if names.count == parts.count { typeAliases[a.name.text] = names }
        } else if let ic = decl.as(IfConfigDeclSyntax.self), case .decls(let inner)? = active(ic) {
            for d in inner { collectDecl(d.decl, file: file, outer: outer) }
        }
    }
    private var pendingExtensions: [(ParsedFile, ExtensionDeclSyntax)] = []
    /// Types by their own name (`Category` for `Log.Category`), built after collection.
    private(set) lazy var typesBySimpleName: [String: [TypeDecl]] = Dictionary(grouping: typeOrder, by: \.name)
    /// Function-type aliases by name, at any level (Program+Aliases.swift).
    var closureAliases: [String: FunctionTypeSyntax] = [:]
    /// Top-level type aliases of named types and their compositions, by name (for adoption).
    private var typeAliases: [String: [String]] = [:]

    @discardableResult
    private func addType(_ name: String, _ kind: TypeDecl.Kind, _ block: MemberBlockSyntax, _ inheritance: InheritanceClauseSyntax?,
                         _ attributes: AttributeListSyntax, _ file: ParsedFile, _ outer: TypeDecl?, _ node: Syntax) -> TypeDecl {
        let qualified = outer.map { "\($0.qualified).\(name)" } ?? name
        let t = TypeDecl(name: name, qualified: qualified, kind: kind, file: file, line: file.line(node))
        t.outer = outer
        t.inherited = inheritance?.inheritedTypes.map { TypeName($0.type)?.name ?? $0.type.trimmedDescription } ?? []
        t.mainActor = hasMainActor(attributes) || t.inherited.contains { ["UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate", "App", "View", "UIViewController", "UIResponder", "ObservableObject"].contains($0) } && kind != .actor
        if let other = types[qualified], other.file.source.module != file.source.module {
            // The same name in another module: a table of its own.
            t.lua = "T." + Naming.field(file.source.module) + "_" + qualified.split(separator: ".").map { Naming.field(String($0)) }.joined(separator: "_")
        }
        if let outer, outer.lua != "T." + outer.qualified.split(separator: ".").map({ Naming.field(String($0)) }).joined(separator: ".") {
            t.lua = outer.lua + "." + Naming.field(name)  // inside a renamed type
        }
        if let outer { outer.nested[name] = t } else if types[name] == nil { types[name] = t }
        if outer == nil { addTopLevel(t, file: file, isPrivate: Self.isFilePrivate(node)) }
        if types[qualified] == nil { types[qualified] = t }
        typeOrder.append(t)
        t.parts.append((file, block))
        for m in members(block) { collectDecl(m, file: file, outer: t) }
        return t
    }

    /// `private` or `fileprivate` (at the top level, both mean: this file's).
    static func isFilePrivate(_ node: Syntax) -> Bool {
        guard let group = node.asProtocol(WithModifiersSyntax.self) else { return false }
        return group.modifiers.contains { $0.name.text == "private" || $0.name.text == "fileprivate" }
    }

    /// Files whose private type took a name another top-level type of the module has.
    private var privateNameCount: [String: Int] = [:]

    /// A top-level type joins its module's names; a file-private one joins its file's, and when
    /// another top-level type of its module has the name (before or after it), the private one
    /// gets a table of its own, `T.Name__File` (two files' `private enum Const` are two tables).
    private func addTopLevel(_ t: TypeDecl, file: ParsedFile, isPrivate: Bool) {
        let module = file.source.module
        let existing = typesByModule[module]?[t.name]
        if isPrivate {
            typesByFile[file.source.path, default: [:]][t.name] = t
            if existing != nil { rename(t, privateLua(t, file)) } else { typesByModule[module, default: [:]][t.name] = t }
            return
        }
        if let existing, typesByFile[existing.file.source.path]?[t.name] === existing {
            // A private type had the name first: it moves to a table of its own.
            rename(existing, privateLua(existing, existing.file))
            if types[t.name] === existing { types[t.name] = t }
        }
        typesByModule[module, default: [:]][t.name] = t
    }

    private func privateLua(_ t: TypeDecl, _ file: ParsedFile) -> String {
        let base = String(file.source.shown.split(separator: "/").last ?? "file").split(separator: ".").first.map(String.init) ?? "file"
        let key = t.lua + "__" + Naming.field(base)
        let n = privateNameCount[key, default: 0]
        privateNameCount[key] = n + 1
        return n == 0 ? key : key + "_\(n + 1)"
    }

    /// Gives `t` (and the types nested in it) the table `lua`.
    private func rename(_ t: TypeDecl, _ lua: String) {
        t.lua = lua
        for (name, n) in t.nested { rename(n, lua + "." + Naming.field(name)) }
    }

    /// After every file: extensions join their types, members are read, names given.
    func finish() {
        for (file, x) in pendingExtensions {
            let name = TypeName(x.extendedType)?.name ?? x.extendedType.trimmedDescription
            if let t = typesByFile[file.source.path]?[name] ?? typesByModule[file.source.module]?[name] ?? types[name] {
                t.parts.append((file, x.memberBlock))
                t.inherited += x.inheritanceClause?.inheritedTypes.map { TypeName($0.type)?.name ?? $0.type.trimmedDescription } ?? []
                for m in members(x.memberBlock) { collectDecl(m, file: file, outer: t) }
            } else {
                extensionsOfUnknown.append((file, x))
                let ext: TypeDecl
                if let e = externals[name] { ext = e } else {
                    ext = TypeDecl(name: name, qualified: name, kind: .struct, file: file, line: file.line(Syntax(x)), external: true)
                    externals[name] = ext
                    externalOrder.append(ext)
                }
                ext.parts.append((file, x.memberBlock))
                ext.inherited += x.inheritanceClause?.inheritedTypes.map { TypeName($0.type)?.name ?? $0.type.trimmedDescription } ?? []
            }
        }
        for t in externalOrder {
            for (file, block) in t.parts { readMembers(t, block, file) }
        }
        for t in typeOrder {
            for (file, block) in t.parts { readMembers(t, block, file) }
            if t.kind == .class {
                if let first = t.inherited.first, let s = types[first], s.kind == .class { t.superclass = s }
                else if let first = t.inherited.first, first.first?.isUppercase == true, !isProtocolName(first) { t.opaqueBase = first }
            }
        }
        for t in typeOrder {
            t.protocols = t.inherited.flatMap { typeAliases[$0] ?? [$0] }.compactMap { types[$0] }.filter { $0.kind == .protocol && $0 !== t }
        }
        for t in typeOrder + externalOrder { nameOverloads(t) }
        alignWithDeclarations(typeOrder + externalOrder)
        for (name, list) in functions where list.count > 1 {
            functions[name] = Self.disambiguate(list)
            // Free functions of one name in two modules are two functions.
            let modules = Set(list.map { $0.file.source.module })
            if modules.count > 1 {
                functions[name] = functions[name]!.map { var f = $0; f.lua = Naming.field(f.file.source.module) + "_" + f.lua; return f }
            }
        }
    }

    /// Types the files do not define but extend to adopt `proto` (`extension BGTaskScheduler:
    /// TaskScheduling {}`), in the order met.
    func adopters(of proto: String) -> [String] {
        var out: [String] = []
        for (_, x) in extensionsOfUnknown {
            let adopted = x.inheritanceClause?.inheritedTypes.map { TypeName($0.type)?.name ?? $0.type.trimmedDescription } ?? []
            guard adopted.contains(proto) else { continue }
            let name = TypeName(x.extendedType)?.name ?? x.extendedType.trimmedDescription
            if !out.contains(name) { out.append(name) }
        }
        return out
    }

    /// Names Swift's protocols commonly adopted first in an inheritance list.
    func isProtocolName(_ name: String) -> Bool {
        if let t = types[name] { return t.kind == .protocol }
        return name.hasSuffix("Delegate") || name.hasSuffix("Protocol") || name.hasSuffix("able") || name.hasSuffix("DataSource")
            || ["App", "View", "Scene", "Error", "Equatable", "Hashable", "Codable", "Identifiable", "Sendable", "CaseIterable", "Comparable",
                "ObservableObject", "CustomStringConvertible", "LocalizedError"].contains(name)
    }

    private func readMembers(_ t: TypeDecl, _ block: MemberBlockSyntax, _ file: ParsedFile) {
        for decl in members(block) {
            if let v = decl.as(VariableDeclSyntax.self) {
                let isStatic = v.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                let isLazy = v.modifiers.contains { $0.name.text == "lazy" }
                let attr = v.attributes.compactMap { $0.as(AttributeSyntax.self) }.first
                let wrapper = attr.map { $0.attributeName.trimmedDescription }
                let wrapperArg = attr?.arguments?.trimmedDescription
                for b in v.bindings {
                    guard let id = b.pattern.as(IdentifierPatternSyntax.self) else { continue }
                    let name = Program.plain(id.identifier.text)
                    var kind = PropertyInfo.Kind.stored
                    if let acc = b.accessorBlock {
                        switch acc.accessors {
                        case .getter: kind = .computed
                        case .accessors(let list):
                            let names = list.map { $0.accessorSpecifier.text }
                            if names.contains("get") || names.contains("set") || names.contains("_read") || names.contains("_modify") { kind = .computed }
                            else if names.contains("didSet") || names.contains("willSet") { kind = .observed }
                        }
                    }
                    if isLazy { kind = .lazy }
                    var type = TypeName(b.typeAnnotation?.type) ?? inferLiteral(b.initializer?.value)
                    if wrapper == "UIApplicationDelegateAdaptor", let arg = wrapperArg {
                        type = TypeName(arg.replacingOccurrences(of: ".self", with: "").trimmingSpaces())
                    }
                    let info = PropertyInfo(name: name, type: type, isStatic: isStatic, kind: kind, isLet: v.bindingSpecifier.text == "let",
                                            wrapper: wrapper, wrapperArgument: wrapperArg, binding: b, decl: v, file: file)
                    if t.properties[name] == nil { t.propertyOrder.append(name) }
                    t.properties[name] = info
                }
            } else if let f = decl.as(FunctionDeclSyntax.self) {
                let isStatic = f.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                let info = funcInfo(f, file: file, isStatic: isStatic, mainActor: t.mainActor || hasMainActor(f.attributes))
                t.methods[info.base, default: []].append(info)
            } else if let i = decl.as(InitializerDeclSyntax.self) {
                t.inits.append(initInfo(i, file: file, mainActor: t.mainActor))
            } else if let c = decl.as(EnumCaseDeclSyntax.self) {
                for e in c.elements {
                    let arity = e.parameterClause?.parameters.count ?? 0
                    let labels = e.parameterClause?.parameters.map { $0.firstName?.text } ?? []
                    var raw: String?
                    if let v = e.rawValue?.value { raw = Literals.lua(v) }
                    t.cases.append(EnumCase(name: Program.plain(e.name.text), raw: raw, arity: arity, labels: labels))
                }
            } else if decl.is(SubscriptDeclSyntax.self) {
                continue
            }
        }
        // Int raw values count up from the last one given, as Swift's do.
        if t.kind == .enum, let raw = t.rawType, ["Int", "Int32", "Int64", "UInt", "Int16", "Int8"].contains(raw) {
            var next = 0
            for i in t.cases.indices {
                if let r = t.cases[i].raw, let n = Int(r) { next = n }
                t.cases[i] = EnumCase(name: t.cases[i].name, raw: String(next), arity: t.cases[i].arity, labels: t.cases[i].labels)
                next += 1
            }
        } else if t.kind == .enum, t.rawType == "String" {
            for i in t.cases.indices where t.cases[i].raw == nil {
                t.cases[i] = EnumCase(name: t.cases[i].name, raw: Literals.quote(t.cases[i].name), arity: t.cases[i].arity, labels: t.cases[i].labels)
            }
        }
    }

    /// The type of a literal initializer (`= 0`, `= ""`, `= [:]`), when it is one.
    func inferLiteral(_ e: ExprSyntax?) -> TypeName? {
        guard let e else { return nil }
        if e.is(IntegerLiteralExprSyntax.self) { return TypeName("Int") }
        if e.is(FloatLiteralExprSyntax.self) { return TypeName("Double") }
        if e.is(StringLiteralExprSyntax.self) { return TypeName("String") }
        if e.is(BooleanLiteralExprSyntax.self) { return TypeName("Bool") }
        if e.is(ArrayExprSyntax.self) { return TypeName("Array") }
        if e.is(DictionaryExprSyntax.self) { return TypeName("Dictionary") }
        // `T(...)!`: a T (home-assistant's `let prefs = UserDefaults(suiteName: group)!`).
        if let f = e.as(ForceUnwrapExprSyntax.self) { return inferLiteral(f.expression).map { var t = $0; t.optional = false; return t } }
        // `a ?? b`: a's type (b is its fallback).
        if let infix = e.as(InfixOperatorExprSyntax.self), infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
            return inferLiteral(infix.leftOperand).map { var t = $0; t.optional = false; return t }
        }
        if let call = e.as(FunctionCallExprSyntax.self), call.calledExpression.is(ArrayExprSyntax.self) { return TypeName("Array") }
        if let call = e.as(FunctionCallExprSyntax.self), call.calledExpression.is(DictionaryExprSyntax.self) { return TypeName("Dictionary") }
        if let call = e.as(FunctionCallExprSyntax.self) {
            var callee = call.calledExpression.trimmedDescription
            if let lt = callee.firstIndex(of: "<") { callee = String(callee[..<lt]) }
            if callee.hasSuffix(".init") { callee = String(callee.dropLast(5)) }
            if callee.first?.isUppercase == true, !callee.contains("("), !callee.contains(" ") { return TypeName(callee) }
        }
        if let m = e.as(MemberAccessExprSyntax.self), let base = m.base?.trimmedDescription, base.first?.isUppercase == true,
           ["shared", "default", "standard", "current", "main"].contains(m.declName.baseName.text) {
            return TypeName(base)
        }
        return nil
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\n" { s = s.dropFirst() }
        while s.last == " " || s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
    func replacingOccurrences(of a: String, with b: String) -> String {
        guard !a.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.range(of: a) {
            out += rest[..<r.lowerBound]
            out += b
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of needle: String) -> Range<Substring.Index>? {
        guard !needle.isEmpty, needle.count <= count else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
