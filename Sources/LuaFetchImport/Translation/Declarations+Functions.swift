// Declarations, functions and the top level (SPEC 18.3, 18.7.4): methods, initializers and free
// functions as Lua functions (parameters, defaults, `self`), the top-level code, extensions'
// statics, and SwiftUI's `App` and views lifted into the app's entry points. Uses the
// Translator's scopes and Statements.
import SwiftSyntax

extension Translator {
    // MARK: - Functions

    /// `function Owner:name(params)` of a method, `Owner.name` of a static one, `T.name` of a
    /// free function.
    func functionHead(_ f: FuncInfo, owner: TypeDecl?, isStatic: Bool, params: [String]) -> String {
        let list = params.joined(separator: ", ")
        guard let owner else { return "function T.\(f.lua)(\(list))" }
        return "function \(owner.lua)\(isStatic ? "." : ":")\(f.lua)(\(list))"
    }

    /// A method, static method, initializer or free function.
    func function(_ info: FuncInfo, owner: TypeDecl?, isStatic: Bool, body: CodeBlockSyntax?, node: Syntax) {
        // SwiftUI's `body` builds views: not simulated.
        inStatic = isStatic
        onMainActor = info.mainActor || (owner?.mainActor ?? false)
        currentFunction = info
        defer { inStatic = false; currentFunction = nil }
        pushScope()
        control = [.function]
        let params = info.params.map { declare($0.name, type: $0.type) }
        emit(functionHead(info, owner: owner, isStatic: isStatic, params: params), at: node)
        indent += 1
        for line in markInout(info.params, params) { emit(line, at: node) }
        if isStatic, let owner, let body, body.statements.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.self) || $0.tokenKind == .keyword(.Self) }) {
            emit("local self = \(owner.lua)", at: node)
        }
        for (p, n) in zip(info.params, params) {
            // An autoclosure's default, nil included, is a closure that returns it (pocket-casts'
            // `handler()?(error)` with `error handler: @autoclosure () -> ...? = nil` called nil).
            if let d = p.defaultValue, !d.is(NilLiteralExprSyntax.self) || p.autoclosure {
                let value = expr(d, expect: p.type).code
                emit("if \(n) == nil then \(n) = \(p.autoclosure ? "function() return \(value) end" : value) end", at: node)
            }
        }
        if let body {
            let items = program.items(body.statements)
            if info.returnType != nil, items.count == 1, case .expr(let e) = items[0].item, !isStatementExpression(e) {
                emit(returnCode(expr(e, expect: info.returnType).code), at: e)
            } else if info.returnType != nil, let e = soleConditional(items) {
                valueConditional(e)
            } else {
                statements(body.statements)
            }
            // An enum's initializer that assigns `self = .case` gives that value back (swift.new
            // takes it: pocket-casts's `ThemeType(old:)` made a value of no case).
            if info.base == "init", owner?.kind == .enum, body.description.contains("self =") {
                emit("do return self end", at: node)
            }
        }
        indent -= 1
        out.append(pad + "end" + marker(file.endLine(body.map(Syntax.init) ?? node)))
        popScope()
        control = []
    }

    /// Free functions and globals of every file.
    func topLevel() {
        for f in program.files {
            setFile(f)
            for item in program.items(f.tree.statements) {
                if let fn = item.item.as(FunctionDeclSyntax.self),
                   let info = program.functions[fn.name.text]?.first(where: { $0.node.id == DeclSyntax(fn).id }), keeps(info) {
                    checkedUnit(.function(info, owner: nil, isStatic: false)) { function(info, owner: nil, isStatic: false, body: fn.body, node: Syntax(fn)) }
                } else if let v = item.item.as(VariableDeclSyntax.self) {
                    for b in v.bindings {
                        guard let id = b.pattern.as(IdentifierPatternSyntax.self), keeps(node: b) else { continue }
                        let info = program.global(Program.plain(id.identifier.text))
                        let shape: UnitShape = info.map { .global($0) } ?? .other(name: id.identifier.text, line: f.line(b))
                        let key = info.map { program.globalKey($0) } ?? id.identifier.text
                        checkedUnit(shape) {
                            if let info, info.binding.accessorBlock != nil {
                                // A computed global: its getter (and setter) as functions.
                                let (getter, setter) = getterSetter(info, isStatic: true)
                                emit("T.__global_\(Naming.field(key)) = \(getter)", at: b)
                                if let setter { emit("T.__global_set_\(Naming.field(key)) = \(setter)", at: b) }
                                return
                            }
                            let value = b.initializer.map { expr($0.value).code } ?? "nil"
                            emit("function T.__global_\(Naming.field(key))() return \(value) end", at: b)
                        }
                    }
                } else if case .stmt = item.item, f.source.shown.hasSuffix("main.swift") {
                    continue
                } else if case .expr = item.item {
                    continue
                }
            }
        }
    }

    /// Extensions of types the files do not define (`extension Notification.Name`): their static
    /// constants are found by name (read before any code is translated).
    func collectExtensionStatics() {
        for (f, x) in program.extensionsOfUnknown {
            setFile(f)
            for decl in program.members(x.memberBlock) {
                // Constants only: a `static var` is a value of the extension's table (externalMembers).
                guard let v = decl.as(VariableDeclSyntax.self), v.modifiers.contains(where: { $0.name.text == "static" }),
                      v.bindingSpecifier.tokenKind == .keyword(.let) else { continue }
                for b in v.bindings {
                    guard let id = b.pattern.as(IdentifierPatternSyntax.self), let initial = b.initializer?.value else { continue }
                    let typeName = TypeName(x.extendedType)?.name ?? ""
                    // The value keeps its type (declared, or its initializer's): a member read
                    // on it (`UserDefaults.shared.count` of an extension's computed property)
                    // finds the extension.
                    let made = expr(initial)
                    let value = LuaExpr(made.code, TypeName(b.typeAnnotation?.type) ?? made.type)
                    extensionStatics["\(typeName).\(Program.plain(id.identifier.text))"] = value
                    extensionStatics[Program.plain(id.identifier.text)] = value
                }
            }
        }
    }

    // MARK: - SwiftUI

    /// `scenePhase` handlers, `onReceive` observers and `.backgroundTask` in an App's or View's
    /// `body`, registered by a method `__swiftui` the delegate calls.
    func liftSwiftUI(_ t: TypeDecl) {
        let found = SwiftUILift.calls(in: t)
        guard !found.isEmpty, let body = t.properties["body"] else { return }
        setFile(body.file)
        checkedUnit(.swiftUI(t, line: body.file.line(body.binding))) { liftHandlers(t, found, body) }
        counts.untranslated.append(("\(body.file.source.shown):\(body.file.line(body.binding))", "SwiftUI body of \(t.name) (views are not simulated)"))
    }

    private func liftHandlers(_ t: TypeDecl, _ found: [FunctionCallExprSyntax], _ body: PropertyInfo) {
        let lines = nested {
            for call in found.reversed() {
                let m = call.calledExpression.as(MemberAccessExprSyntax.self)!
                let args = callArgs(call)
                // A modifier names the line of its own `.name`, not the first line of the chain.
                guard let closureArg = args.last(where: { $0.closure != nil }), let cl = closureArg.closure else { continue }
                switch m.declName.baseName.text {
                case "onChange":  // of scenePhase: SwiftUILift.calls keeps no other
                    let fn = closure(cl).code
                    let arity = StubClosure.describe(cl, label: nil, index: 0, translator: self).params
                    emit("swift.onScenePhase(\(fn), \(arity))", at: m.declName)
                case "onReceive":
                    guard let pub = args.first else { continue }
                    let p = expr(pub.syntax)
                    emit("swift.call(0, \(p.code), \"sink\", nil, \(closure(cl, paramTypes: [TypeName("Notification")]).code))", at: m.declName)
                case "backgroundTask":
                    guard let kind = args.first, kind.syntax.trimmedDescription.contains("appRefresh") else {
                        emit(unsupportedCall(".backgroundTask(\(args.first?.syntax.trimmedDescription ?? ""))", m.declName), at: m.declName)
                        continue
                    }
                    let id = expr(kind.syntax).code
                    if let lit = kind.syntax.as(FunctionCallExprSyntax.self)?.arguments.first.flatMap({ constantString($0.expression) }) {
                        registered.append((lit, location(m.declName)))
                    } else {
                        registersComputedIdentifier = true
                    }
                    usedModes["fetch"] = location(m.declName)
                    emit("swift.swiftUIBackgroundTask(\(id), \(closure(cl).code))", at: m.declName)
                default: continue
                }
            }
        }
        if !lines.isEmpty {
            emit("function \(t.lua):__swiftui()", at: body.binding)
            out += lines
            emit("end", file.endLine(body.binding))
            swiftUITypes.append(t)
        }
    }

    /// Whether a function is written in an extension (not in its type's own declaration).
    static func declaredInExtension(_ f: FuncInfo) -> Bool {
        var node = f.node.parent
        while let n = node {
            if n.is(ExtensionDeclSyntax.self) { return true }
            if n.is(StructDeclSyntax.self) || n.is(ClassDeclSyntax.self) || n.is(EnumDeclSyntax.self) || n.is(ActorDeclSyntax.self) { return false }
            node = n.parent
        }
        return false
    }
}

/// The handlers a SwiftUI `App`, `View` or `Scene` declares in its `body` that background life
/// runs: `onChange(of: scenePhase)`, `onReceive` and `.backgroundTask` calls (what the
/// translation lifts out, and what the slice starts from).
/// The handlers of a SwiftUI body that background life runs (18.8.4: the scene-phase handlers,
/// an app-refresh `.backgroundTask`, a notification received through NotificationCenter's
/// publisher); `.onChange` of anything else, `.onReceive` of a timer or a model's publisher,
/// `.onAppear` and `.task` are the UI's, not entry points.
enum SwiftUILift {
    static func isBackgroundHandler(_ node: FunctionCallExprSyntax) -> Bool {
        guard let m = node.calledExpression.as(MemberAccessExprSyntax.self) else { return false }
        let first = node.arguments.first
        switch m.declName.baseName.text {
        case "onChange": return first?.label?.text == "of" && first?.expression.trimmedDescription.contains("scenePhase") == true
        case "onReceive": return first?.expression.trimmedDescription.contains("publisher(for:") == true
        case "backgroundTask": return true
        default: return false
        }
    }

    static func calls(in t: TypeDecl) -> [FunctionCallExprSyntax] {
        guard t.conforms(to: "App") || t.conforms(to: "View") || t.conforms(to: "Scene"),
              let body = t.properties["body"], let acc = body.binding.accessorBlock else { return [] }
        final class Finder: SyntaxVisitor {
            var found: [FunctionCallExprSyntax] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if SwiftUILift.isBackgroundHandler(node) { found.append(node) }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(acc)
        return finder.found
    }
}
