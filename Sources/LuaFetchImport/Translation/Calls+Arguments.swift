// Calls, overloads and arguments (SPEC 18.3, 18.4, 18.7.5): picking an overload by its argument
// labels, arguments put in parameter order, stub calls with their closures (StubClosure: error
// parameters, success flags, Results, failure labels), element-wise closures, and CallContext,
// what a row of the API table is handed. Uses the Translator and the stub book (Stubs.swift).
import SwiftSyntax

extension Translator {
    // MARK: - Overloads and arguments

    /// The overload whose labels fit the arguments (or the only one).
    /// `isStatic`: the call is on the type (true) or an instance (false): a static and an
    /// instance method of one name are two methods (18.9.6); the other kind only when no
    /// method of the wanted kind has that name.
    /// `labelsMustFit`: only an overload whose labels fit (an extension's method of an SDK or
    /// library type beside the type's own members: `s.contains("a")` is String's own, never the
    /// extension's `contains(subSequence:)`).
    func pick(_ candidates: [FuncInfo], _ args: [CallArg], isStatic: Bool? = nil, labelsMustFit: Bool = false) -> FuncInfo? {
        var list = candidates
        if let isStatic {
            let wanted = candidates.filter { $0.isStatic == isStatic }
            if !wanted.isEmpty { list = wanted }
        }
        if labelsMustFit {
            // An unlabelled closure fits a parameter of any type (a typealias of a function).
            let labels = args.map { $0.label ?? ($0.closure != nil ? "*" : "_") }
            list = list.filter { fits($0, labels) }
        }
        let f = pickOverload(list, args)
        // Inside an extension of an SDK or library type, a method calling its own selector calls
        // the type's own overload (by parameter types: cryptomator's
        // `purchases(ofProductIdentifier: ProductIdentifier)` calls InAppReceipt's `String` one),
        // a stub, not itself.
        if let f, currentType?.external == true, let current = currentFunction, f.node.id == current.node.id { return nil }
        if let f, widening { calledFunctions.append(f) }
        return f
    }

    private func pickOverload(_ candidates: [FuncInfo], _ args: [CallArg]) -> FuncInfo? {
        if candidates.count <= 1 { return candidates.first }
        let labels = args.map { $0.label ?? "_" }
        var fitting = candidates.filter { fits($0, labels) }
        // A closure literal converts only to a function-typed parameter (NetNewsWire's
        // `fetchArticlesAsync({ ... }, completion)` beside `(_ feedID: String, _:)` and
        // `(_ feedIDs: Set<String>, _:)` called those two, each the other, forever).
        if fitting.count > 1 {
            let typed = fitting.filter { closuresLand($0, args) }
            if !typed.isEmpty { fitting = typed }
        }
        // A function calling its own name where another overload fits too calls the other (Swift
        // chooses it by type: brave-ios's `class func all() -> [Self] { all() ?? [] }` calls the
        // protocol extension's `all(where: ... = nil) -> [Self]?`; choosing itself recursed forever).
        if fitting.count > 1, let current = currentFunction, fitting[0].node.id == current.node.id { return fitting[1] }
        if let exact = fitting.first { return exact }
        return candidates.first { $0.params.count == args.count } ?? candidates.first
    }

    /// Every closure-literal argument lands on a closure parameter (placed as `ordered` places it).
    private func closuresLand(_ f: FuncInfo, _ args: [CallArg]) -> Bool {
        var i = 0
        for p in f.params where i < args.count {
            let a = args[i]
            guard (a.label ?? "_") == p.label || (a.label == nil && a.closure != nil && p.isClosure) else { continue }
            if a.closure != nil && !p.isClosure { return false }
            i += 1
            if p.variadic { while i < args.count && args[i].label == nil { i += 1 } }
        }
        return true
    }

    private func fits(_ f: FuncInfo, _ labels: [String]) -> Bool {
        var i = 0
        for p in f.params {
            if i < labels.count && (labels[i] == p.label || (labels[i] == "_" && p.isClosure) || labels[i] == "*") {
                i += 1
                if p.variadic { while i < labels.count && labels[i] == "_" { i += 1 } }
                continue
            }
            if p.defaultValue != nil { continue }
            return false
        }
        return i == labels.count
    }

    /// `, a, b` after a first argument, or nothing when there are none (never `f(x, )`).
    func trailingArgs(_ code: String) -> String { code.isEmpty ? "" : ", " + code }

    /// The arguments in parameter order; defaulted parameters left out are nil (the callee
    /// fills them in); variadic arguments become an array.
    func ordered(_ f: FuncInfo, _ args: [CallArg]) -> String {
        var values: [String] = []
        var i = 0
        for (k, p) in f.params.enumerated() {
            if p.variadic {
                var items: [String] = []
                while i < args.count && (items.isEmpty ? (args[i].label ?? "_") == p.label : args[i].label == nil) {
                    items.append(expr(args[i].syntax, expect: p.type).code)
                    i += 1
                }
                values.append("swift.array({ \(items.joined(separator: ", ")) })")
                continue
            }
            // An unlabelled closure goes to a closure parameter of any label (a trailing closure),
            // but, as Swift's forward scan has it (SE-0286), the last one skips a parameter with a
            // default when a later closure parameter needs an argument (`logActivity(kind:
            // successMessage: = nil, _ work:) { ... }` passes `work`).
            let skips = p.defaultValue != nil && i == args.count - 1
                && f.params[(k + 1)...].contains { $0.isClosure && $0.defaultValue == nil && !$0.variadic }
            if i < args.count && ((args[i].label ?? "_") == p.label || (args[i].label == nil && args[i].closure != nil && p.isClosure && !skips)) {
                let a = args[i]
                if p.inout_, let io = a.syntax.as(InOutExprSyntax.self) {
                    let box = temp("io")
                    inoutBoxes.append((box, expr(io.expression).code, store(io.expression, "\(box).v", node: Syntax(io))))
                    values.append(box)
                    i += 1
                    continue
                }
                var code = a.closure.map { closure($0, paramTypes: p.closureParams).code }
                    ?? expr(a.syntax, expect: p.type.flatMap { genericSubstitution[$0.name] } ?? p.type).code
                if a.closure == nil, let t = p.type, !p.inout_, ["Array", "Dictionary", "Set"].contains(t.name) || program.type(named: t.name)?.kind == .struct,
                   a.syntax.is(DeclReferenceExprSyntax.self) || a.syntax.is(MemberAccessExprSyntax.self) {
                    code = "swift.copy(\(code))"
                }
                if p.autoclosure && a.closure == nil { code = "function() return \(code) end" }
                values.append(code)
                i += 1
            } else {
                values.append("nil")
            }
        }
        // Arguments no parameter took (a mismatch the compiler would have caught): passed on.
        while i < args.count { values.append(expr(args[i].syntax).code); i += 1 }
        while values.last == "nil" { values.removeLast() }
        return values.joined(separator: ", ")
    }

    // MARK: - Stubs

    /// A call into code the files do not define (18.4): recorded as a site; at run time the
    /// runtime dispatches `dynamic` calls to a translated or built-in value when the receiver
    /// turns out to be one, and otherwise the stub answers.
    func stubCall(_ name: String, recv: String, args: [CallArg], node: Syntax, optionalUse: Bool, awaited: Bool, tried: Bool,
                  dynamic: (String, String?)? = nil, chained: Bool = false) -> LuaExpr {
        var closures: [StubClosure] = []
        var codes: [String] = []
        let calls = StubBook.callsClosures(name)
        for (i, a) in args.enumerated() {
            if let cl = a.closure {
                closures.append(StubClosure.describe(cl, label: a.label, index: i + 1, translator: self))
                let outer = widening
                widening = widening && (calls || declaresFunction(dynamic?.0 ?? name))
                codes.append(dynamic.map { elementClosure($0.0, cl, label: a.label) } ?? closure(cl).code)
                widening = outer
            } else {
                let e = expr(a.syntax)
                codes.append(e.code)
                // A function passed along (a completion handler) is a closure of the stub too; a
                // `#selector` is not: a target-action fires on a tap, which no stub makes
                // (deltachat's `button.addTarget(self, action: #selector(share), ...)` in an
                // initializer shared its view controller, which made another, to a stack overflow).
                let selector = a.syntax.as(MacroExpansionExprSyntax.self)?.macroName.text == "selector"
                if !selector && (e.type?.isFunction == true || e.type?.name == "Function" || looksLikeCompletion(a)) {
                    // What it takes, when its type says (`(Result<T, Error>) -> Void`).
                    let params = e.type?.functionParams ?? []
                    let kinds: [String?] = params.map { StubClosure.kind(ofType: $0) }
                    closures.append(StubClosure(index: i + 1, label: a.label, params: max(1, params.count), kinds: kinds,
                                                failure: StubClosure.isFailureLabel(a.label)))
                }
            }
        }
        if !calls { closures = [] }
        let inBundle = bundleGuarantees(name, args)
        let site = stubs.site(name, where: location(node), optional: optionalUse && !inBundle, node: node, closures: closures, awaited: awaited,
                              tried: tried && !neverThrows(name, args), labels: args.map { $0.label ?? "_" }, declared: inBundle)
        var r: LuaExpr
        if let (method, labelled) = dynamic {
            let fn = chained ? "optCall" : "call"
            r = LuaExpr("swift.\(fn)(\(([String(site), recv, Literals.quote(method), labelled.map(Literals.quote) ?? "nil"] + codes).joined(separator: ", ")))")
        } else {
            r = LuaExpr("swift.stubCall(\(([String(site), recv] + codes).joined(separator: ", ")))")
        }
        r.stubName = name
        return r
    }

    /// `T.name(args)` makes the enum case `name`, unless a static method of that name takes these
    /// labels and the case does not (`static func theme(_:color:)` beside `case theme(_, color:,
    /// alpha:)`).
    func isCaseCall(_ t: TypeDecl, _ name: String, _ args: [CallArg]) -> Bool {
        guard let c = t.cases.first(where: { $0.name == name }) else { return false }
        let labels = args.map(\.label)
        if c.labels.map({ $0 == "_" ? nil : $0 }) == labels { return true }
        return !t.methods(name).contains { $0.isStatic && $0.accepts(labels) }
    }

    /// An unlabelled call that none of the methods the app's extensions add under this name can
    /// take is the type's own (`logs.suffix(10)` beside an extension's `suffix(_:where:)`:
    /// nightguard's crashed on a nil predicate). The call then names a key no method has, so the
    /// runtime takes the built-in method the extension hid (`S.call`).
    func onlyBuiltinTakes(_ name: String, _ args: [CallArg]) -> Bool {
        let labels = args.map(\.label)
        let added = program.externalOrder.flatMap { $0.methods(name) }
        return !added.isEmpty && !added.contains { $0.accepts(labels) }
    }

    /// A call's result type: the declared one, with a generic parameter the call names by its
    /// metatype made concrete (`load(Item.self)` of `func load<T>(_: T.Type) -> T?` is an `Item?`,
    /// so `?? .init()` after it makes an `Item`: mlem's visit history).
    func resultType(_ f: FuncInfo, _ args: [CallArg]) -> TypeName? {
        guard var r = f.returnType else { return nil }
        let generic = r.element ?? r.name
        guard let p = f.params.first(where: { $0.type?.name == generic + ".Type" }),
              let a = args.first(where: { ($0.label ?? "_") == p.label }), let m = a.syntax.as(MemberAccessExprSyntax.self),
              m.declName.baseName.text == "self", let base = m.base else { return r }
        let concrete = base.trimmedDescription.filter { !$0.isWhitespace }
        if r.element != nil { r.element = concrete } else { r.name = concrete }
        return r
    }

    /// Collection methods that call their closure with one element at a time.
    static let elementwise: Set<String> = ["map", "compactMap", "flatMap", "filter", "forEach", "contains", "first", "last", "allSatisfy",
                                           "firstIndex", "lastIndex", "removeAll", "drop", "prefix", "mapValues", "compactMapValues"]

    /// A closure given to a collection method: with two or more parameters where the method
    /// passes one element (`dict.forEach { key, value in }`, `zip(a, b).map { $0 + $1 }`), the
    /// tuple is spread over them (`swift.spread`).
    func elementClosure(_ method: String, _ cl: ClosureExprSyntax, label: String? = nil) -> String {
        if method == "reduce" && label == nil && reduceInto { return closure(cl, inoutParams: [0]).code }
        let code = closure(cl).code
        guard Self.elementwise.contains(method) else { return code }
        let params: Int
        switch cl.signature?.parameterClause {
        case .simpleInput(let list)?: params = list.count
        case .parameterClause(let clause)?: params = clause.parameters.count
        case nil: params = Self.anonymousParameters(cl.statements)
        }
        return params >= 2 ? "swift.spread(\(code))" : code
    }

    /// An argument that names a completion handler (`completion: completionHandler`).
    func looksLikeCompletion(_ a: CallArg) -> Bool {
        guard let d = a.syntax.as(DeclReferenceExprSyntax.self) else { return false }
        let n = d.baseName.text.lowercased()
        return n.contains("completion") || n.contains("handler") || n.hasSuffix("callback") || n == "done"
    }
}

/// What a stub's closure argument takes: how many parameters, which are errors, success flags or
/// `Result`s, and whether it is the failure path (`failure:`, `onError:`, `errorHandler:`).
struct StubClosure {
    let index: Int
    let label: String?
    let params: Int
    let kinds: [String?]
    let failure: Bool

    /// The kind of a parameter from its type alone: an error, a success flag or a Result.
    static func kind(ofType t: TypeName?) -> String? {
        guard let n = t?.name else { return nil }
        if ["Error", "NSError", "URLError"].contains(n) { return "error" }
        if n == "Result" { return "result" }
        if n == "Bool" { return "flag" }
        // A fetch or push completion the app hands to code it does not define (element-ios's
        // Objective-C delegate): called with a result iOS takes.
        if n == "UIBackgroundFetchResult" { return "fetchResult" }
        return nil
    }

    static func isFailureLabel(_ label: String?) -> Bool {
        guard let l = label?.lowercased() else { return false }
        return ["failure", "onerror", "errorhandler", "onfailure", "fail", "failed", "error"].contains(l)
    }

    static func describe(_ c: ClosureExprSyntax, label: String?, index: Int, translator: Translator) -> StubClosure {
        var names: [(String, TypeName?)] = []
        switch c.signature?.parameterClause {
        case .simpleInput(let list)?: names = list.map { ($0.name.text, nil) }
        case .parameterClause(let clause)?: names = clause.parameters.map { (($0.secondName ?? $0.firstName).text, TypeName($0.type)) }
        case nil:
            let n = Translator.anonymousParameters(c.statements)
            names = (0..<n).map { ("$\($0)", nil) }
        }
        let text = c.statements.trimmedDescription
        let kinds: [String?] = names.map { name, type in
            let n = name.lowercased()
            if let t = type?.name, ["Error", "NSError", "URLError"].contains(t) { return "error" }
            if ["error", "err", "e", "anyerror", "networkerror"].contains(n) || n.hasSuffix("error") { return "error" }
            if type?.name == "Result" || text.contains("case .success") || text.contains("case .failure") || text.contains("case let .success") {
                if text.contains("switch \(name)") || type?.name == "Result" { return "result" }
            }
            if type?.name == "Bool" || ["success", "ok", "succeeded", "didsucceed", "finished", "completed", "saved", "done"].contains(n) { return "flag" }
            return nil
        }
        return StubClosure(index: index, label: label, params: names.count, kinds: kinds, failure: isFailureLabel(label))
    }
}

/// What the translation and the APIs table need to translate one call's arguments.
final class CallContext {
    unowned let t: Translator
    let args: [CallArg]
    let node: Syntax
    let base: LuaExpr?
    let awaited: Bool
    let tried: Bool
    let expect: TypeName?

    init(t: Translator, args: [CallArg], node: Syntax, base: LuaExpr?, awaited: Bool, tried: Bool, expect: TypeName?) {
        self.t = t; self.args = args; self.node = node; self.base = base; self.awaited = awaited; self.tried = tried; self.expect = expect
    }

    var labels: [String] { args.map { $0.label ?? "_" } }
    /// The argument with this label (`nil`: the first unlabelled one).
    func arg(_ label: String?) -> CallArg? { args.first { $0.label == label } }
    /// The last closure argument (a trailing closure).
    var trailing: CallArg? { args.last { $0.closure != nil || $0.closureLike } }

    /// Translates an argument; a closure gets the parameter types the API gives it.
    func code(_ a: CallArg?, types: [TypeName?] = [], expect: TypeName? = nil) -> String {
        guard let a else { return "nil" }
        if let c = a.closure { return t.closure(c, paramTypes: types).code }
        return t.expr(a.syntax, expect: expect).code
    }
    func code(_ label: String?, types: [TypeName?] = [], expect: TypeName? = nil) -> String { code(arg(label), types: types, expect: expect) }
    /// A closure whose first parameter is `inout` (a lock's state): it reads and writes the box
    /// it is given (`swift.inoutBox`); a function passed by name takes the box as its inout
    /// argument.
    func stateClosure(_ a: CallArg?) -> String {
        guard let a else { return "function() end" }
        if let c = a.closure { return t.closure(c, inoutParams: [0]).code }
        return t.expr(a.syntax).code
    }
    /// Every argument, translated, in order.
    var all: [String] { args.map { code($0) } }
    var receiver: String { base?.code ?? "nil" }
}
