// What a piece of Swift refers to (SPEC 18.8.4), read from its syntax alone: the functions it
// calls (base name, argument labels, and what the receiver is: implied `self`, a type named as
// written, `super`, a leading dot, or any other value), the members and names it reads, the types
// it names, `#selector`s and key paths. The slice resolves these against Program. One visitor,
// one case per construct; it never looks into a nested type's declaration (a type is reached on
// its own). Uses swift-syntax only.
import SwiftSyntax
import SwiftIfConfig

/// How a call's or a member's receiver is written.
enum Receiver: Equatable {
    /// `foo()` or `self.foo()`: the enclosing type's own (or a free function).
    case implicitSelf
    /// `Foo.bar()`, `Foo()`, `Foo.init()`: a type named as written (the last component).
    case type(String)
    /// `super.foo()`.
    case superclass
    /// `.foo(...)`: a static or an enum case of the type the context expects.
    case leadingDot
    /// A value whose type the declarations say (a typed parameter, local or property, `T(...)`,
    /// a chain of typed properties): the type's name.
    case typed(String)
    /// Any other value: its type is not known from the syntax.
    case other
}

/// One reference.
enum Reference: Equatable {
    /// A call of `base` with these argument labels (`nil`: unlabelled; trailing closures are
    /// unlabelled unless they carry a label).
    case call(base: String, labels: [String?], receiver: Receiver)
    /// A member read or written (`self.x`, `a.b`, `\.name`); `asValue`: it may be a method
    /// passed as a function (it is not the base of another access, nor called).
    case member(name: String, receiver: Receiver, asValue: Bool)
    /// A bare name that is not called (`x`, `handler`): a global, a property of `self`, a
    /// method passed as a value (`asValue`: not the base of an access), or a local (which
    /// resolves to nothing).
    case name(String, asValue: Bool)
    /// A type named in an annotation, a cast, a generic argument or `T.self`.
    case type(String)
}

/// Collects the references of the nodes it walks.
final class ReferenceCollector: SyntaxVisitor {
    private(set) var references: [Reference] = []
    /// Nested types are reached on their own: their declarations are not walked.
    private let skipNestedTypes: Bool
    /// What the receivers' types are read from (nil: receivers stay untyped).
    let types: ReceiverTypes?

    /// Whether a call (base name, receiver) is a stub that never calls the closures it is handed
    /// (a handler kept for an event luafetch does not simulate): their bodies are not walked.
    let neverCalls: ((String, Receiver) -> Bool)?

    init(skipNestedTypes: Bool = true, types: ReceiverTypes? = nil, neverCalls: ((String, Receiver) -> Bool)? = nil) {
        self.skipNestedTypes = skipNestedTypes
        self.types = types
        self.neverCalls = neverCalls
        super.init(viewMode: .sourceAccurate)
    }

    static func references(of node: some SyntaxProtocol, program: Program? = nil, owner: TypeDecl? = nil,
                           neverCalls: ((String, Receiver) -> Bool)? = nil) -> [Reference] {
        let c = ReferenceCollector(types: program.map { ReceiverTypes(program: $0, owner: owner) }, neverCalls: neverCalls)
        c.walk(node)
        return c.references
    }

    /// How a member's base is written, typed where the declarations say; a leading dot's is the
    /// type its context expects when the syntax states it (`date = .mock`).
    private func receiver(of base: ExprSyntax?, at node: some SyntaxProtocol) -> Receiver {
        if base == nil, let t = types?.expected(at: Syntax(node)) { return .type(t) }
        return receiver(of: base)
    }

    private func receiver(of base: ExprSyntax?) -> Receiver {
        let r = Self.receiver(of: base)
        if r == .other, let base, let t = types?.type(of: base) { return .typed(t) }
        return r
    }

    // MARK: - Scopes (the types of locals and parameters)

    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { types?.push(); return .visitChildren }
    override func visitPost(_ node: CodeBlockSyntax) { types?.pop() }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        types?.push()
        if case .parameterClause(let clause)? = node.signature?.parameterClause {
            for p in clause.parameters { types?.bind((p.secondName ?? p.firstName).text, TypeName(p.type)?.name) }
        }
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) { types?.pop() }
    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        types?.bind((node.secondName ?? node.firstName).text, TypeName(node.type)?.name)
        return .visitChildren
    }
    override func visitPost(_ node: PatternBindingSyntax) {
        guard let id = node.pattern.as(IdentifierPatternSyntax.self) else { return }
        var t = TypeName(node.typeAnnotation?.type)?.name
        if t == nil, let v = node.initializer?.value { t = types?.type(of: v) }
        types?.bind(id.identifier.text, t)
    }
    override func visitPost(_ node: OptionalBindingConditionSyntax) {
        guard let id = node.pattern.as(IdentifierPatternSyntax.self) else { return }
        var t = TypeName(node.typeAnnotation?.type)?.name
        if t == nil { t = types?.type(of: node.initializer?.value ?? ExprSyntax(DeclReferenceExprSyntax(baseName: id.identifier))) }
        types?.bind(id.identifier.text, t)
    }

    // MARK: - Calls

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        var labels: [String?] = node.arguments.map { $0.label?.text }
        if node.trailingClosure != nil { labels.append(nil) }
        for extra in node.additionalTrailingClosures { labels.append(extra.label.text) }
        let callee = Self.unwrapped(node.calledExpression)
        let first = references.count
        if let d = callee.as(DeclReferenceExprSyntax.self) {
            let name = Program.plain(d.baseName.text)
            if name == "Self" || name == "self" {
                references.append(.call(base: "init", labels: labels, receiver: .implicitSelf))
            } else if name.first?.isUppercase == true {
                references.append(.call(base: "init", labels: labels, receiver: .type(name)))
                references.append(.call(base: name, labels: labels, receiver: .implicitSelf))
            } else {
                references.append(.call(base: name, labels: labels, receiver: .implicitSelf))
            }
            // The callee itself is not walked again as a bare name.
            walkArguments(node, call: first)
            return .skipChildren
        }
        if let m = callee.as(MemberAccessExprSyntax.self) {
            let name = Program.plain(m.declName.baseName.text)
            let receiver = self.receiver(of: m.base, at: node)
            if name == "init", case .type = receiver {
                references.append(.call(base: "init", labels: labels, receiver: receiver))
            } else if name == "init", m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
                references.append(.call(base: "init", labels: labels, receiver: .implicitSelf))
            } else if name == "init", receiver == .superclass {
                references.append(.call(base: "init", labels: labels, receiver: .superclass))
            } else if name.first?.isUppercase == true, case .type(let outer) = receiver {
                // `Outer.Inner(...)`: the nested type's initializer, by its qualified name (session's
                // `SessionCell.Info(...)`: a dozen types have an `Info`).
                references.append(.call(base: "init", labels: labels, receiver: .type(outer + "." + name)))
                references.append(.type(outer))
            } else {
                references.append(.call(base: name, labels: labels, receiver: receiver))
            }
            if let base = m.base { walk(base) }
            walkArguments(node, call: first)
            return .skipChildren
        }
        if let t = callee.as(TypeExprSyntax.self) {
            for n in Self.typeNames(t.type) { references.append(.type(n)) }
            if let last = Self.typeNames(t.type).last { references.append(.call(base: "init", labels: labels, receiver: .type(last))) }
            walkArguments(node, call: first)
            return .skipChildren
        }
        return .visitChildren
    }

    /// The arguments, but for closures a stub never calls (`neverCalls`, asked of the call's own
    /// reference, the first the call added).
    private func walkArguments(_ node: FunctionCallExprSyntax, call first: Int) {
        if let neverCalls, first < references.count, case .call(let base, _, let receiver) = references[first], neverCalls(base, receiver) {
            for a in node.arguments where !a.expression.is(ClosureExprSyntax.self) { walk(a) }
            return
        }
        walk(node.arguments)
        if let t = node.trailingClosure { walk(t) }
        walk(node.additionalTrailingClosures)
    }

    // MARK: - Members and names

    /// `window.rootViewController = x`: a window made key and visible loads x's view
    /// (`swift.makeKeyAndVisible`), so x's type's view callbacks are reached when its type is
    /// declared (other view controllers' `viewDidLoad` stay out: they run when the person opens
    /// their screens, which luafetch does not simulate).
    override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        if node.operator.is(AssignmentExprSyntax.self), let m = node.leftOperand.as(MemberAccessExprSyntax.self),
           m.declName.baseName.text == "rootViewController", let t = types?.type(of: node.rightOperand) {
            for (base, labels) in [("loadView", [String?]()), ("viewDidLoad", []), ("viewWillAppear", [nil]), ("viewDidAppear", [nil])] {
                references.append(.call(base: base, labels: labels, receiver: .typed(t)))
            }
        }
        return .visitChildren
    }
    /// `x[safeIndex: i]`: a labelled subscript, a member of its own (`subscript` with the label).
    override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let label = node.arguments.first?.label?.text, label != "_" {
            references.append(.call(base: "subscript", labels: node.arguments.map { $0.label?.text }, receiver: .other))
        }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        let name = Program.plain(node.declName.baseName.text)
        let receiver = self.receiver(of: node.base, at: node)
        if name.first?.isUppercase == true, case .type = receiver {
            references.append(.type(name))
        }
        references.append(.member(name: name, receiver: receiver, asValue: Self.usedAsValue(node)))
        if let base = node.base, !(base.is(DeclReferenceExprSyntax.self) && Self.receiver(of: base) != .other) { walk(base) }
        if case .type(let t) = receiver { references.append(.type(t)) }
        return .skipChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = Program.plain(node.baseName.text)
        if name == "self" || name == "Self" || name == "super" || name.hasPrefix("$") && Int(name.dropFirst()) != nil { return .skipChildren }
        let asValue = Self.usedAsValue(Syntax(node))
        if name.hasPrefix("$") {
            // `$published`: the projected value of a wrapped property.
            references.append(.name(String(name.dropFirst()), asValue: false))
        } else if name.first?.isUppercase == true {
            references.append(.type(name))
        }
        references.append(.name(name, asValue: asValue))
        return .skipChildren
    }

    override func visit(_ node: KeyPathExprSyntax) -> SyntaxVisitorContinueKind {
        if let root = node.root { for n in Self.typeNames(root) { references.append(.type(n)) } }
        for c in node.components {
            if case .property(let p) = c.component { references.append(.member(name: Program.plain(p.declName.baseName.text), receiver: .other, asValue: false)) }
        }
        return .skipChildren
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        // `#selector(handle(_:))`, `#selector(Foo.handle)`: the method, whatever its labels.
        guard node.macroName.text == "selector", let arg = node.arguments.first?.expression else { return .visitChildren }
        var e = arg
        if let call = e.as(FunctionCallExprSyntax.self) { e = call.calledExpression }
        if let d = e.as(DeclReferenceExprSyntax.self) {
            references.append(.member(name: Program.plain(d.baseName.text), receiver: .implicitSelf, asValue: true))
        } else if let m = e.as(MemberAccessExprSyntax.self) {
            references.append(.member(name: Program.plain(m.declName.baseName.text), receiver: receiver(of: m.base), asValue: true))
        }
        return .skipChildren
    }

    /// `if T.isRunningUITests` where the release build fixes the value: only the branch taken.
    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
        guard let types, let known = types.program.constantCondition(node, owner: types.owner) else { return .visitChildren }
        walk(node.conditions)
        if known { walk(node.body) } else if let e = node.elseBody { walk(e) }
        return .skipChildren
    }

    /// `#if`: only the active clause (the translation writes only it; `#if DEBUG` is false).
    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let program = types?.program else { return .visitChildren }
        if let active = node.activeClause(in: program.build).clause?.elements { walk(active) }
        return .skipChildren
    }

    // MARK: - Types

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        references.append(.type(Program.plain(node.name.text)))
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        references.append(.type(Program.plain(node.name.text)))
        return .visitChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        // `@UserDefault(...)`: the wrapper type, and its arguments.
        for n in Self.typeNames(node.attributeName) { references.append(.type(n)) }
        references.append(.call(base: "init", labels: [], receiver: .type(node.attributeName.trimmedDescription)))
        return .visitChildren
    }

    // Nested declarations of types are reached on their own.
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { skipNestedTypes ? .skipChildren : .visitChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { skipNestedTypes ? .skipChildren : .visitChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { skipNestedTypes ? .skipChildren : .visitChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { skipNestedTypes ? .skipChildren : .visitChildren }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { skipNestedTypes ? .skipChildren : .visitChildren }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { skipNestedTypes ? .skipChildren : .visitChildren }

    // MARK: - Helpers

    /// Whether a member access may be a method used as a function value: not the base of
    /// another member access, a call, a subscript or an optional chain.
    static func usedAsValue(_ node: MemberAccessExprSyntax) -> Bool { usedAsValue(Syntax(node)) }

    static func usedAsValue(_ node: Syntax) -> Bool {
        var n = node
        while let p = n.parent, p.is(ForceUnwrapExprSyntax.self) || p.is(OptionalChainingExprSyntax.self) { n = p }
        guard let parent = n.parent else { return true }
        if let m = parent.as(MemberAccessExprSyntax.self), m.base?.id == n.id { return false }
        if let c = parent.as(FunctionCallExprSyntax.self), c.calledExpression.id == n.id { return false }
        if let s = parent.as(SubscriptCallExprSyntax.self), s.calledExpression.id == n.id { return false }
        // The left side of an assignment (`self.x = ...`) is a property.
        if let seq = parent.as(ExprListSyntax.self), seq.first?.id == n.id { return false }
        if let infix = parent.as(InfixOperatorExprSyntax.self), infix.leftOperand.id == n.id, infix.operator.is(AssignmentExprSyntax.self) { return false }
        return true
    }

    /// `foo` of `foo!`, `foo?`, `try foo`, `await foo`, `(foo)`, `foo<T>`.
    static func unwrapped(_ e: ExprSyntax) -> ExprSyntax {
        var e = e
        while true {
            if let x = e.as(ForceUnwrapExprSyntax.self) { e = x.expression; continue }
            if let x = e.as(OptionalChainingExprSyntax.self) { e = x.expression; continue }
            if let x = e.as(GenericSpecializationExprSyntax.self) { e = x.expression; continue }
            if let x = e.as(TupleExprSyntax.self), x.elements.count == 1, let only = x.elements.first, only.label == nil { e = only.expression; continue }
            return e
        }
    }

    /// How a member's base is written.
    static func receiver(of base: ExprSyntax?) -> Receiver {
        guard let base else { return .leadingDot }
        let b = unwrapped(base)
        if b.is(SuperExprSyntax.self) { return .superclass }
        if let d = b.as(DeclReferenceExprSyntax.self) {
            let n = Program.plain(d.baseName.text)
            if n == "self" { return .implicitSelf }
            if n == "Self" { return .implicitSelf }
            if n.first?.isUppercase == true { return .type(n) }
            return .other
        }
        if let t = b.as(TypeExprSyntax.self), let last = typeNames(t.type).last { return .type(last) }
        // `Module.Type` or `Outer.Inner` written as members: the last component names the type.
        // Written whole (`Groups.Names`), so a type nested in another (even in an extension) is
        // found by its qualified name; Program.type(named:) falls back to the last component.
        if let m = b.as(MemberAccessExprSyntax.self), m.declName.baseName.text.first?.isUppercase == true,
           let outer = m.base.map({ receiver(of: $0) }), case .type(let o) = outer {
            return .type(o + "." + Program.plain(m.declName.baseName.text))
        }
        return .other
    }

    /// The type names a type mentions (`[Foo: Bar]`, `Outer.Inner`, `Foo<Bar>?`).
    static func typeNames(_ t: some SyntaxProtocol) -> [String] {
        let v = TypeNameCollector(viewMode: .sourceAccurate)
        v.walk(t)
        return v.names
    }
}

/// The type names under a node.
final class TypeNameCollector: SyntaxVisitor {
    var names: [String] = []
    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind { names.append(Program.plain(node.name.text)); return .visitChildren }
    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind { names.append(Program.plain(node.name.text)); return .visitChildren }
}
