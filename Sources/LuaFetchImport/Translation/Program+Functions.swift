// Program's functions (SPEC 18.3, 18.7.4): what a function, method or initializer declares
// (FuncInfo: labels, parameters with their defaults, closures and inout, async, throws, main
// actor) and the Lua name of each overload (its first argument label; if that clashes, every
// label; a protocol requirement beside its extension's default is that method). Used by Program's
// collecting pass.
import SwiftSyntax

extension Program {
    func hasMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
    }

    func funcInfo(_ f: FunctionDeclSyntax, file: ParsedFile, isStatic: Bool, mainActor: Bool) -> FuncInfo {
        let params = f.signature.parameterClause.parameters.map(param)
        let effects = f.signature.effectSpecifiers
        let base = Program.plain(f.name.text)
        return FuncInfo(base: base, labels: params.map(\.label), lua: Naming.field(base), isStatic: isStatic,
                        returnType: TypeName(f.signature.returnClause?.type), isAsync: effects?.asyncSpecifier != nil,
                        throwsErrors: effects?.throwsClause != nil, params: params, node: DeclSyntax(f), file: file,
                        mainActor: mainActor, failable: false)
    }

    func initInfo(_ i: InitializerDeclSyntax, file: ParsedFile, mainActor: Bool) -> FuncInfo {
        let params = i.signature.parameterClause.parameters.map(param)
        return FuncInfo(base: "init", labels: params.map(\.label), lua: "init", isStatic: false, returnType: nil,
                        isAsync: i.signature.effectSpecifiers?.asyncSpecifier != nil,
                        throwsErrors: i.signature.effectSpecifiers?.throwsClause != nil, params: params, node: DeclSyntax(i),
                        file: file, mainActor: mainActor, failable: i.optionalMark != nil)
    }

    private func param(_ p: FunctionParameterSyntax) -> FuncInfo.Param {
        let label = p.firstName.text
        let name = p.secondName?.text ?? p.firstName.text
        let type = TypeName(p.type)
        var isClosure = type?.isFunction ?? false
        if let a = p.type.as(AttributedTypeSyntax.self), a.baseType.is(FunctionTypeSyntax.self) { isClosure = true }
        if p.type.trimmedDescription.contains("->") { isClosure = true }
        var closureParams: [TypeName?] = []
        let t = Program.unwrapped(p.type)
        if let f = t.as(FunctionTypeSyntax.self) ?? t.as(IdentifierTypeSyntax.self).flatMap({ closureAliases[$0.name.text] }) {
            isClosure = true
            closureParams = f.parameters.map { TypeName($0.type) }
        }
        var inout_ = p.type.trimmedDescription.hasPrefix("inout")
        if let a = p.type.as(AttributedTypeSyntax.self), a.specifiers.contains(where: { $0.trimmedDescription == "inout" }) { inout_ = true }
        let autoclosure = p.type.as(AttributedTypeSyntax.self)?.attributes.contains {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "autoclosure"
        } ?? false
        return FuncInfo.Param(label: label, name: name, type: type, defaultValue: p.defaultValue?.value, isClosure: isClosure,
                              inout_: inout_, variadic: p.ellipsis != nil, closureParams: closureParams, autoclosure: autoclosure)
    }

    /// Overloads get their first argument label (18.7.4); if that still clashes, every label.
    func nameOverloads(_ t: TypeDecl) {
        for (base, list) in t.methods where list.count > 1 {
            var list = list
            let all = list
            if t.kind == .protocol {
                // A requirement (no body) beside the protocol extension's implementation of the
                // same selector is that method, not an overload of it (NetNewsWire's Container
                // named its default hasAtLeastOneFeed_2, and every call missed it).
                list.removeAll { f in
                    f.node.as(FunctionDeclSyntax.self)?.body == nil
                        && all.contains { $0.selector == f.selector && $0.isStatic == f.isStatic && $0.node.as(FunctionDeclSyntax.self)?.body != nil }
                }
            }
            t.methods[base] = list.count > 1 ? Self.disambiguate(list) : list
        }
        if t.inits.count > 1 {
            t.inits = Self.disambiguate(t.inits)
        }
        // An enum case and a method of one base name are two members: the method takes its labels
        // into its Lua name (session-ios's `case theme(Theme, color:, alpha:)` beside `static func
        // theme(_:color:)`, whose `.theme(t, color: c, alpha: nil)` called itself forever).
        // So are a property and a method of one name (session-ios's files each add a private
        // `static let cat: Log.Category`, and one a `static func cat(_:)`: the property read
        // found the function).
        for base in t.cases.map(\.name) + t.propertyOrder where t.methods[base] != nil {
            for i in t.methods[base]!.indices where t.methods[base]![i].lua == Naming.field(base) {
                let f = t.methods[base]![i]
                var name = Naming.field(([base] + f.labels.filter { $0 != "_" }).joined(separator: "_"))
                if name == f.lua { name += "_\(f.labels.count)" }
                t.methods[base]![i].lua = name
            }
        }
    }

    /// A method that overrides a superclass's or satisfies a protocol's declaration of the same
    /// selector takes that declaration's Lua name, so a call through the base class or the
    /// protocol finds it: Loop's protocol extension called `export(now:completion:)` beside its
    /// own `export(completion:)` (so `export_now`), while the class that implements it has one
    /// `export` (so `export`), and every call missed it. Superclasses and protocols first; a name
    /// another method of the type already has is left alone.
    func alignWithDeclarations(_ types: [TypeDecl]) {
        var done = Set<ObjectIdentifier>()
        func align(_ t: TypeDecl) {
            guard done.insert(ObjectIdentifier(t)).inserted else { return }
            var supers: [TypeDecl] = []
            var c = t.superclass
            while let x = c { supers.append(x); c = x.superclass }
            let sources = supers + t.allProtocols()
            for s in sources { align(s) }
            for (base, list) in t.methods {
                for i in list.indices {
                    let f = list[i]
                    guard let g = sources.lazy.compactMap({ $0.methods[base]?.first { $0.selector == f.selector && $0.isStatic == f.isStatic } }).first else {
                        // A new overload beside a superclass's method of that Lua name (not an
                        // override: other labels) takes a name of its own, or it would hide the
                        // inherited one (pocket-casts' `track(_:currentSettings:properties:)` called
                        // `track(_:properties:)` of its base class, and so itself, forever).
                        if supers.contains(where: { $0.methods[base]?.contains { $0.lua == f.lua && $0.isStatic == f.isStatic } == true }) {
                            var name = Naming.field(([base] + f.labels.filter { $0 != "_" }).joined(separator: "_"))
                            if name == f.lua { name += "_\(f.labels.count)" }
                            t.methods[base]![i].lua = name
                        }
                        continue
                    }
                    guard g.lua != f.lua, !list.contains(where: { $0.lua == g.lua }) else { continue }
                    t.methods[base]![i].lua = g.lua
                }
            }
        }
        for t in types { align(t) }
    }

    static func disambiguate(_ list: [FuncInfo]) -> [FuncInfo] {
        func first(_ f: FuncInfo) -> String {
            if let l = f.labels.first(where: { $0 != "_" }) { return "\(f.base)_\(l)" }
            return f.labels.isEmpty ? f.base : "\(f.base)_\(f.labels.count)"
        }
        var out = list
        let firsts = list.map(first)
        for i in out.indices {
            let clash = firsts.filter { $0 == firsts[i] }.count > 1
            var name = firsts[i]
            if clash {
                name = ([list[i].base] + list[i].labels.filter { $0 != "_" }).joined(separator: "_")
                // A static and an instance method of one name are two members (18.9.6): the
                // instance one keeps the name that dynamic calls on instances look up.
                let kinds = Set(list.indices.filter { firsts[$0] == firsts[i] }.map { list[$0].isStatic })
                if kinds.count == 2 && list[i].isStatic { name += "_static" }
            }
            out[i].lua = Naming.field(name)
        }
        // Still the same (same labels, other types): number them in order, past any name another
        // overload already has (NetNewsWire's second `fetchArticles(_:)` was numbered
        // `fetchArticles_2`, the name of `fetchArticles(_:_:)`, and replaced it).
        var taken = Set(out.map(\.lua))
        var seen: [String: Int] = [:]
        for i in out.indices {
            let n = seen[out[i].lua, default: 0]
            seen[out[i].lua] = n + 1
            guard n > 0 else { continue }
            var k = n + 1
            while taken.contains("\(out[i].lua)_\(k)") { k += 1 }
            out[i].lua += "_\(k)"
            taken.insert(out[i].lua)
        }
        return out
    }
}
