// What Program (Program.swift) records of each declaration of the imported files: a type
// (TypeDecl, with its extensions, properties, methods, initializers, enum cases and nested
// types), a property, a function with its parameters, a type name as the translation knows it,
// and the Lua names (Naming: keywords and luafetch globals get a `_` suffix). Uses SwiftSyntax's
// nodes only.
import SwiftSyntax
import SwiftIfConfig

/// A type of the imported files.
final class TypeDecl {
    enum Kind: String { case `class`, `struct`, `enum`, `protocol`, actor }
    let name: String
    let qualified: String
    let kind: Kind
    /// `T.Outer.Inner`.
    /// `T.Outer.Inner` (a type of the same name in another module gets its module's prefix).
    var lua: String
    var inherited: [String] = []
    var superclass: TypeDecl?
    /// A base class the files do not define (UIResponder, NSObject): members it lacks are opaque.
    var opaqueBase: String?
    var mainActor = false
    let file: ParsedFile
    let line: Int
    /// Where each part was declared: the type itself, then its extensions.
    var parts: [(ParsedFile, MemberBlockSyntax)] = []
    var properties: [String: PropertyInfo] = [:]
    var propertyOrder: [String] = []
    var methods: [String: [FuncInfo]] = [:]
    var inits: [FuncInfo] = []
    var cases: [EnumCase] = []
    var rawType: String?
    var nested: [String: TypeDecl] = [:]
    weak var outer: TypeDecl?

    init(name: String, qualified: String, kind: Kind, file: ParsedFile, line: Int, external: Bool = false) {
        self.name = name; self.qualified = qualified; self.kind = kind; self.file = file; self.line = line
        self.external = external
        lua = external ? "T.__ext_" + qualified.split(separator: ".").map { Naming.field(String($0)) }.joined(separator: "_")
                       : "T." + qualified.split(separator: ".").map { Naming.field(String($0)) }.joined(separator: ".")
    }

    /// Whether an external type has members the translation writes (methods, computed properties).
    /// Its stored instance properties, in order (kept until a property is added).
    var storedInstanceProperties: [PropertyInfo] {
        if let c = storedCache, c.count == propertyOrder.count { return c.list }
        let list = propertyOrder.compactMap { properties[$0] }.filter { $0.kind == .stored && !$0.isStatic }
        storedCache = (propertyOrder.count, list)
        return list
    }
    private var storedCache: (count: Int, list: [PropertyInfo])?
    var hasTranslatedMembers: Bool {
        !methods.isEmpty || properties.values.contains { $0.kind == .computed || $0.isStaticVariable }
    }

    /// The members extensions add to a type the files do not define (`extension UIApplication`,
    /// `extension String`): called with the value as `self`, never as a field of the value.
    let external: Bool

    var isValue: Bool { kind == .struct || kind == .enum }

    /// A property of this type or a superclass.
    func property(_ name: String) -> PropertyInfo? {
        var t: TypeDecl? = self
        while let c = t {
            if let p = c.properties[name] { return p }
            t = c.superclass
        }
        for p in allProtocols() { if let x = p.properties[name] { return x } }
        return nil
    }

    /// The methods named `base` of this type and its superclasses, nearest first.
    func methods(_ base: String) -> [FuncInfo] {
        var out: [FuncInfo] = []
        var t: TypeDecl? = self
        while let c = t {
            out += c.methods[base] ?? []
            t = c.superclass
        }
        // Then the protocols it adopts (their extensions' methods reach it: `swift.finish`).
        for p in allProtocols() { out += p.methods[base] ?? [] }
        return out
    }

    /// Where a call of `f`, found by `methods`, goes: through this type (`T.Window.all`), unless
    /// `f` is a protocol extension's and the type or a superclass has a method of the same Lua name
    /// that would shadow it (brave-ios's `SessionWindow.all()` beside `Readable.all(where:...)`):
    /// then the protocol's table.
    func callee(of f: FuncInfo) -> TypeDecl {
        var t: TypeDecl? = self
        while let c = t {
            if let own = c.methods[f.base], own.contains(where: { $0.node.id == f.node.id }) { return self }
            t = c.superclass
        }
        guard let proto = allProtocols().first(where: { $0.methods[f.base]?.contains { $0.node.id == f.node.id } == true }) else { return self }
        var shadowed = false
        t = self
        while let c = t, !shadowed { shadowed = c.methods[f.base]?.contains { $0.lua == f.lua } == true; t = c.superclass }
        return shadowed ? proto : self
    }

    /// Protocols of the files this type adopts, directly, through its superclasses or through
    /// other protocols, nearest first.
    var protocols: [TypeDecl] = []
    func allProtocols() -> [TypeDecl] {
        var out: [TypeDecl] = []
        var queue: [TypeDecl] = []
        var t: TypeDecl? = self
        while let c = t { queue += c.protocols; t = c.superclass }
        while !queue.isEmpty {
            let p = queue.removeFirst()
            guard !out.contains(where: { $0 === p }), p !== self else { continue }
            out.append(p)
            queue += p.protocols
        }
        return out
    }

    /// The base class the files do not define that this class inherits from, directly or through
    /// its translated superclasses (`Operation`, `NSObject`, `UIResponder`).
    var inheritedOpaqueBase: String? {
        var t: TypeDecl? = self
        while let c = t {
            if let b = c.opaqueBase { return b }
            t = c.superclass
        }
        return nil
    }

    func conforms(to name: String) -> Bool {
        var t: TypeDecl? = self
        while let c = t {
            if c.inherited.contains(name) { return true }
            t = c.superclass
        }
        return false
    }
}

struct EnumCase {
    let name: String
    let raw: String?      // a Lua literal
    let arity: Int
    let labels: [String?]
}

/// A stored, computed, lazy or observed property.
struct PropertyInfo {
    enum Kind { case stored, computed, lazy, observed }
    let name: String
    var type: TypeName?
    let isStatic: Bool
    let kind: Kind
    let isLet: Bool
    /// `@Environment(\.scenePhase)`, `@AppStorage("key")`, `@UIApplicationDelegateAdaptor(T.self)`, `@Published`.
    var wrapper: String?
    var wrapperArgument: String?
    let binding: PatternBindingSyntax
    let decl: VariableDeclSyntax
    let file: ParsedFile

    /// A `static var` with storage: on an extension of an iOS or Swift type, a field of the
    /// extension's table (its constants are read where they are used: extensionStatics).
    var isStaticVariable: Bool { isStatic && !isLet && kind != .computed }
}

/// A function, method or initializer.
struct FuncInfo {
    let base: String
    let labels: [String]
    var lua: String
    let isStatic: Bool
    let returnType: TypeName?
    let isAsync: Bool
    let throwsErrors: Bool
    let params: [Param]
    let node: DeclSyntax
    let file: ParsedFile
    let mainActor: Bool
    let failable: Bool

    struct Param {
        let label: String
        let name: String
        let type: TypeName?
        let defaultValue: ExprSyntax?
        let isClosure: Bool
        let inout_: Bool
        let variadic: Bool
        /// For a closure parameter, the types its closure takes (`(BGTask) -> Void`: BGTask).
        var closureParams: [TypeName?] = []
        /// `@autoclosure`: the argument is passed as a function that evaluates it.
        var autoclosure = false
    }

    var selector: String { "\(base)(\(labels.map { "\($0):" }.joined()))" }
}

/// A type as written: its name without `?`, `!` and generic arguments, and whether it is optional.
struct TypeName: Equatable {
    var name: String
    var optional = false
    /// Element type of arrays (`[T]`) and value type of dictionaries.
    var element: String?
    var isFunction = false
    /// A function type's parameter types (`(Result<Data, Error>) -> Void`: Result).
    var functionParams: [TypeName?] = []

    init(_ name: String, optional: Bool = false, element: String? = nil) {
        self.name = name; self.optional = optional; self.element = element
    }

    /// Reads a type annotation.
    init?(_ type: TypeSyntax?) {
        guard let type else { return nil }
        var t = type
        var opt = false
        while true {
            if let o = t.as(OptionalTypeSyntax.self) { opt = true; t = o.wrappedType; continue }
            if let o = t.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { opt = true; t = o.wrappedType; continue }
            if let a = t.as(AttributedTypeSyntax.self) { t = a.baseType; continue }
            if let s = t.as(SomeOrAnyTypeSyntax.self) { t = s.constraint; continue }
            if let tu = t.as(TupleTypeSyntax.self), tu.elements.count == 1, let only = tu.elements.first { t = only.type; continue }
            break
        }
        optional = opt
        if let a = t.as(ArrayTypeSyntax.self) {
            name = "Array"; element = TypeName(a.element)?.name
        } else if let d = t.as(DictionaryTypeSyntax.self) {
            name = "Dictionary"; element = TypeName(d.value)?.name
        } else if let f = t.as(FunctionTypeSyntax.self) {
            name = "Function"; isFunction = true
            functionParams = f.parameters.map { TypeName($0.type) }
        } else if let i = t.as(IdentifierTypeSyntax.self) {
            name = i.name.text
            if name == "Optional", let arg = i.genericArgumentClause?.arguments.first {
                optional = true
                if case .type(let ty) = arg.argument, let inner = TypeName(ty) { name = inner.name; element = inner.element }
            } else if name == "Array" || name == "Set", let arg = i.genericArgumentClause?.arguments.first, case .type(let ty) = arg.argument {
                element = TypeName(ty)?.name
            }
        } else if let m = t.as(MemberTypeSyntax.self) {
            name = m.trimmedDescription.replacingOccurrences(of: " ", with: "")
            if let lt = name.firstIndex(of: "<") { name = String(name[..<lt]) }
        } else if t.is(TupleTypeSyntax.self) {
            name = "Tuple"
        } else {
            name = t.trimmedDescription
        }
    }
}

/// Lua names (18.7.4).
enum Naming {
    static let luaKeywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]
    /// Globals the translation itself uses: a Swift name that is one of them is suffixed.
    static let reserved: Set<String> = [
        "app", "after", "at", "every", "work", "now", "log", "print", "timer", "http", "dispatch", "defaults",
        "notifications", "user", "system", "scenario", "expect", "stubs", "swift", "T", "unsupported", "server",
        "BGTaskScheduler", "sharedContainer", "urlSession", "math", "string", "table", "os", "pairs", "ipairs",
        "type", "select", "error", "pcall", "next", "tostring", "tonumber", "setmetatable", "getmetatable", "rawget",
        "rawset", "rawequal", "require", "load", "assert", "coroutine", "utf8", "self", "_ENV", "_G", "seconds",
        "minutes", "hours", "days", "UIBackgroundTaskInvalid", "BGAppRefreshTaskRequest", "BGProcessingTaskRequest",
        "P", "F",
    ]

    /// A Swift identifier as a Lua local or parameter name.
    static func local(_ name: String) -> String {
        var n = Program.plain(name)
        if n.hasPrefix("$") { n = "_" + n.dropFirst() }
        n = String(n.unicodeScalars.map { ($0.properties.isAlphabetic || ("0"..."9").contains(Character($0))) && $0.isASCII ? Character($0) : "_" })
        if n.isEmpty { n = "_" }
        if let f = n.first, f.isNumber { n = "_" + n }
        if luaKeywords.contains(n) || reserved.contains(n) { n += "_" }
        return n
    }

    /// A field name (methods, properties): Lua keywords are suffixed (fields may shadow globals).
    static func field(_ name: String) -> String {
        var n = local(name)
        if n.hasSuffix("_"), !luaKeywords.contains(String(n.dropLast())), reserved.contains(String(n.dropLast())) {
            n = String(n.dropLast())
        }
        return n
    }

    /// `a.b` or `a["end"]`-free access to a field.
    static func access(_ base: String, _ name: String) -> String { base + "." + field(name) }
}
