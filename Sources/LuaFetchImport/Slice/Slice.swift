// The slice (SPEC 18.8.4): only what background life can run. From the entry points (the app
// and scene delegate methods luafetch calls, a SwiftUI App's init and the scene-phase, onReceive
// and background-task handlers lifted out of views) it follows every reference (References.swift)
// to the functions, initializers, properties and types it can reach, transitively: calls by
// name and argument labels, narrowed by the receiver where the code names it (`Foo.bar()`,
// `self.bar()`); an unknown receiver reaches the function of that name and labels of every type
// that reached code names or makes (rapid type analysis: SliceBuilder catches up). A type that
// is made (an initializer reached) brings its stored properties' initial values, its subscripts
// and the members Swift or iOS call on their own (`description`, `==`, an operation's `main`, a
// URL session delegate's callbacks). Everything else is left out and counted for the report.
// `--all` keeps everything. Uses Program (Translation/) and the entry points (Scenario/).
import SwiftSyntax

/// What the scenario keeps.
final class Slice {
    let all: Bool
    private(set) var units = Set<SyntaxIdentifier>()
    private(set) var types = Set<ObjectIdentifier>()
    private(set) var made = Set<ObjectIdentifier>()
    /// The report's counts (18.8.4).
    var entryPoints = 0
    var keptStatements = 0, keptFunctions = 0, leftStatements = 0, leftFunctions = 0

    init(all: Bool) { self.all = all }

    func contains(_ f: FuncInfo) -> Bool { all || units.contains(f.node.id) }
    func contains(_ p: PropertyInfo) -> Bool { all || units.contains(p.binding.id) }
    func contains(node: some SyntaxProtocol) -> Bool { all || units.contains(node.id) }
    func contains(type t: TypeDecl) -> Bool { all || types.contains(ObjectIdentifier(t)) }
    func isMade(_ t: TypeDecl) -> Bool { all || made.contains(ObjectIdentifier(t)) }
    /// Whether the scenario writes the type's table: reached, or named by the written Lua only
    /// (TypeReferences: a branch or closure that never runs may still name it).
    func hasTable(_ t: TypeDecl) -> Bool { contains(type: t) || named.contains(ObjectIdentifier(t)) }
    private(set) var named = Set<ObjectIdentifier>()
    func name(_ t: TypeDecl) { named.insert(ObjectIdentifier(t)) }

    // Used by the builder.
    @discardableResult func insert(unit id: SyntaxIdentifier) -> Bool { units.insert(id).inserted }
    @discardableResult func insert(type t: TypeDecl) -> Bool { types.insert(ObjectIdentifier(t)).inserted }
    @discardableResult func insert(made t: TypeDecl) -> Bool { made.insert(ObjectIdentifier(t)).inserted }
}

extension FuncInfo {
    /// Whether a call with these argument labels (nil: unlabelled) can call this function:
    /// arguments in parameter order, defaulted and variadic parameters may be left out, an
    /// unlabelled argument may be a trailing closure for a closure parameter of any label.
    func accepts(_ labels: [String?]) -> Bool {
        var i = 0
        for p in params {
            if i < labels.count, (labels[i] ?? "_") == p.label || (labels[i] == nil && p.isClosure) {
                i += 1
                if p.variadic { while i < labels.count && labels[i] == nil { i += 1 } }
                continue
            }
            if p.defaultValue != nil || p.variadic { continue }
            return false
        }
        return i == labels.count
    }
}

/// Members Swift and iOS call without the code naming them: kept whenever their type is made.
enum ImplicitMembers {
    static let names: Set<String> = [
        "description", "debugDescription", "hash", "hashValue", "==", "!=", "<", "<=", ">", ">=", "~=", "makeIterator", "next",
        "callAsFunction", "wrappedValue", "projectedValue", "encode", "errorDescription", "localizedDescription",
        // Operation and Thread subclasses: the queue calls these.
        "main", "start", "cancel", "isFinished", "isExecuting", "isAsynchronous", "isReady", "isConcurrent",
    ]
    /// Delegate callbacks luafetch's runtime calls on an object the code hands to iOS.
    static func isCallback(_ f: FuncInfo) -> Bool {
        f.base == "urlSession" || f.base == "urlSessionDidFinishEvents" || f.base == "userNotificationCenter"
    }
}
