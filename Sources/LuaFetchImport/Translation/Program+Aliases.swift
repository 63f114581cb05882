// Type aliases of function types (`typealias Completion = (Result) -> Void`), collected from every
// file before any declaration, so a parameter of such a type takes a trailing closure
// (Program+Functions.swift's `param`). Uses swift-syntax; provides `Program.collectAliases` and
// `Program.functionType`.
import SwiftSyntax

extension Program {
    /// A type without its attributes (`@escaping`), optionality and parentheses.
    static func unwrapped(_ type: TypeSyntax) -> TypeSyntax {
        var t = type
        while true {
            if let a = t.as(AttributedTypeSyntax.self) { t = a.baseType; continue }
            if let o = t.as(OptionalTypeSyntax.self) { t = o.wrappedType; continue }
            if let tu = t.as(TupleTypeSyntax.self), tu.elements.count == 1, let only = tu.elements.first { t = only.type; continue }
            return t
        }
    }
    /// The function type a type is, through attributes, optionals and parentheses.
    static func functionType(_ type: TypeSyntax) -> FunctionTypeSyntax? { unwrapped(type).as(FunctionTypeSyntax.self) }
    /// Before any declaration is collected: the function-type aliases of a file (`typealias
    /// Completion = (Result) -> Void`, at any level), so a parameter of such a type takes a
    /// trailing closure.
    func collectAliases(_ file: ParsedFile) {
        let v = ClosureAliasVisitor(viewMode: .sourceAccurate)
        v.walk(file.tree)
        for (name, f) in v.found where closureAliases[name] == nil { closureAliases[name] = f }
    }
}

/// The function-type aliases of a file, at any level; function bodies and initial values are skipped.
private final class ClosureAliasVisitor: SyntaxVisitor {
    var found: [(String, FunctionTypeSyntax)] = []
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if let f = Program.functionType(node.initializer.value) { found.append((node.name.text, f)) }
        return .skipChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
