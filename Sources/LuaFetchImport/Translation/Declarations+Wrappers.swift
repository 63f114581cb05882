// Property wrappers (SPEC 18.3, 18.9.6; issue 38.7): a wrapper the files declare (its storage
// `_name` holds an instance, `name` reads and writes its `wrappedValue`), a library's (its value
// starts at the `defaultValue:` its attribute names, else a stub of its type), and the attribute
// that wraps a property. Used by Declarations (stored properties) and Statements (locals).
import SwiftSyntax

extension Translator {
    /// The labels of a wrapper attribute's argument that names the wrapped value's start.
    static let wrapperStartLabels: Set<String> = ["defaultValue", "default", "wrappedValue", "initialValue"]

    /// The wrapper type of the files a property is declared with (`@UserDefault(...) var x`).
    func wrapperType(_ p: PropertyInfo) -> TypeDecl? {
        guard let w = p.wrapper, let t = program.type(named: w, from: currentType), t.property("wrappedValue") != nil else { return nil }
        return t
    }

    /// An uppercase attribute of a property that names a wrapper the files do not define (not
    /// one of the attributes luafetch knows that are no wrappers).
    static func libraryWrapper(_ name: String) -> Bool {
        guard name.first?.isUppercase == true else { return false }
        return !["MainActor", "IBOutlet", "IBInspectable", "GKInspectable", "NSManaged", "NSCopying", "Sendable", "Published", "State",
                 "StateObject", "ObservedObject", "Binding", "FocusState", "GestureState", "Namespace"].contains(name)
    }

    /// The attribute that wraps `p` (`@UserDefault(key: "k", defaultValue: 0)`).
    static func wrapperAttribute(_ p: PropertyInfo) -> AttributeSyntax? {
        p.decl.attributes.compactMap { $0.as(AttributeSyntax.self) }.first { $0.attributeName.trimmedDescription == p.wrapper }
    }

    /// `@Dependency(\.name)` (swift-dependencies) where the files declare `extension
    /// DependencyValues { var name }`: that accessor, read on the process's dependency values
    /// (`swift.dependencyValues()`, whose `self[Key.self]` is the key's `liveValue`). Nil otherwise.
    func dependencyValue(_ a: AttributeSyntax?) -> String? {
        guard let a, a.attributeName.trimmedDescription == "Dependency", case .argumentList(let list)? = a.arguments,
              let kp = list.first?.expression.as(KeyPathExprSyntax.self), kp.components.count == 1,
              let c = kp.components.first?.component.as(KeyPathPropertyComponentSyntax.self),
              let ext = program.externals["DependencyValues"] else { return nil }
        let name = Program.plain(c.declName.baseName.text)
        guard ext.property(name) != nil else { return nil }
        return "swift.extGet(\(ext.lua), \(Literals.quote(Naming.field(name))), swift.dependencyValues())"
    }

    /// The starting value a library wrapper's attribute names: its `defaultValue:` (or
    /// `default:`, `wrappedValue:`, `initialValue:`) argument.
    func libraryWrapperDefault(_ p: PropertyInfo) -> ExprSyntax? {
        guard case .argumentList(let list)? = Self.wrapperAttribute(p)?.arguments else { return nil }
        return list.first { Self.wrapperStartLabels.contains($0.label?.text ?? "") }?.expression
    }

    /// `Wrapper(args..., wrappedValue: initial)` for a wrapped property.
    func wrapperInstance(_ p: PropertyInfo, _ w: TypeDecl) -> LuaExpr {
        var args: [CallArg] = []
        if case .argumentList(let list)? = Self.wrapperAttribute(p)?.arguments {
            args = list.map { CallArg(label: $0.label?.text, syntax: $0.expression) }
        }
        if let initial = p.binding.initializer?.value {
            args.insert(CallArg(label: "wrappedValue", syntax: initial), at: 0)
        }
        // A wrapper generic over its value (`StringSetting<T>`): an argument typed `T` has the
        // property's type (damus's `@StringSetting(key:, default_value: .production)` is a case of
        // the property's enum, not an enum token).
        let saved = genericSubstitution
        defer { genericSubstitution = saved }
        let decl = w.parts.first?.1.parent
        let generics = decl?.as(ClassDeclSyntax.self)?.genericParameterClause ?? decl?.as(StructDeclSyntax.self)?.genericParameterClause
        if let only = generics?.parameters.first, generics?.parameters.count == 1, let t = p.type { genericSubstitution[only.name.text] = t }
        return construct(w, args: args)
    }
}
