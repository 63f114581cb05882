// What the app's own bundle guarantees a stub's call (issue 38: a nil iOS cannot produce is a false
// finding). A resource the repository has, looked up by a constant name, is in the bundle:
// `Bundle.main.url(forResource: "Model", withExtension: "momd")` is never nil, whether the name is
// a literal or a `static let`; what is made from it (`NSManagedObjectModel(contentsOf: modelURL)`,
// `UIImage(contentsOfFile: path)`) is never nil either, the value followed through `!` and the
// `let` or `guard let` that keeps it; and `NSEntityDescription.entity(forEntityName: "Item", in:)`
// of an entity one of the repository's models declares is never nil, nor is a model a call loads
// by the constant name of one the repository has (`loadModel(from:named:)`). Provides
// `bundleGuarantees`, `noteBundled`; uses BundleContents (Input/BundleResources.swift),
// `constantString` and the scopes of locals.
import Foundation
import SwiftSyntax

extension Translator {
    /// The stub `name` called with `args` cannot answer nil: its answer is one of the bundle's.
    func bundleGuarantees(_ name: String, _ args: [CallArg]) -> Bool {
        if isBundleResource(name, args.map { ($0.label, $0.syntax) }) { return true }
        if name == "NSEntityDescription.entity", args.first?.label == "forEntityName",
           let entity = args.first.flatMap({ constantString($0.syntax) }) {
            return bundle.entities.contains(entity)
        }
        // A Core Data model the repository has, loaded by its constant name (duckduckgo's
        // `CoreDataDatabase.loadModel(from: .main, named: "AppRatingPrompt")` in a guard whose
        // else is a fatalError: a false crash).
        if args.contains(where: { ["named", "name", "modelName"].contains($0.label ?? "") && constantString($0.syntax).map { bundle.names.contains($0 + ".momd") } == true }) {
            return true
        }
        // Made from a resource of the bundle (its first argument).
        return args.first.map { $0.label != nil && isBundled($0.syntax) } ?? false
    }

    /// A throwing stub call that cannot throw for these arguments: a regular expression made from
    /// a constant pattern that compiles (ICU's syntax, as Apple's; home-assistant's version pattern
    /// in `try!` was a false crash). An invalid constant pattern still throws.
    func neverThrows(_ name: String, _ args: [CallArg]) -> Bool {
        guard name == "NSRegularExpression.init", let first = args.first, first.label == "pattern",
              let pattern = constantString(first.syntax) else { return false }
        return (try? NSRegularExpression(pattern: pattern)) != nil
    }

    /// `Bundle....url(forResource: "Model", withExtension: "momd")` (or `path(forResource:ofType:)`)
    /// of constant names the repository has (BundleResources): the resource is in the bundle, so
    /// the result is never nil (bitwarden's force-unwrapped model URL was a false crash).
    func isBundleResource(_ name: String, _ args: [(label: String?, syntax: ExprSyntax)]) -> Bool {
        guard name.hasPrefix("Bundle."), name.hasSuffix(".url") || name.hasSuffix(".path"), args.count >= 2,
              args[0].label == "forResource", ["withExtension", "ofType"].contains(args[1].label ?? "") else { return false }
        guard let base = constantString(args[0].syntax), let ext = constantString(args[1].syntax), !base.isEmpty else { return false }
        return bundle.names.contains(ext.isEmpty ? base : base + "." + ext)
    }

    /// The expression is a resource of the bundle: such a lookup, unwrapped (`!`) or not, or a
    /// local that holds one.
    func isBundled(_ e: ExprSyntax) -> Bool {
        if let f = e.as(ForceUnwrapExprSyntax.self) { return isBundled(f.expression) }
        if let d = e.as(DeclReferenceExprSyntax.self) { return local(d.baseName.text)?.bundled == true }
        guard let c = e.as(FunctionCallExprSyntax.self), let m = c.calledExpression.as(MemberAccessExprSyntax.self),
              let receiver = m.base?.trimmedDescription, receiver.hasPrefix("Bundle") else { return false }
        return isBundleResource("Bundle." + m.declName.baseName.text, c.arguments.map { ($0.label?.text, $0.expression) })
    }

    /// A local bound by `let`, `if let` or `guard let` to a resource of the bundle keeps that origin.
    func noteBundled(_ name: String, _ initial: ExprSyntax?) {
        guard let initial, isBundled(initial) else { return }
        for i in scopes.indices.reversed() where scopes[i][name] != nil {
            scopes[i][name]!.bundled = true
            return
        }
    }
}
