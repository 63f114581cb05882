// The API table, free functions and initializers (SPEC 18.3): a row per global function or type
// constructed by the app (`DispatchQueue(label:)`, `BGAppRefreshTaskRequest(identifier:)`,
// `Timer.scheduledTimer`, `print`, `min`/`max`...), each written as the scenario API's Lua. Uses
// CallContext (Calls+Arguments.swift) and the helpers of APIs.swift.
import SwiftSyntax

extension APIs {
    // MARK: - Free functions and initializers

    /// An argument that is a string: a literal, or of a type the translation knows is one.
    static func isStringLike(_ a: CallArg, _ t: Translator) -> Bool {
        if a.syntax.is(StringLiteralExprSyntax.self) { return true }
        let n = t.peekType(a.syntax)?.name
        return n == "String" || n == "Substring"
    }

    static func globalCall(_ name: String, _ c: CallContext) -> LuaExpr? {
        let t = c.t
        // Swift's numeric functions only where the call has their shape: an app's own `log("...")`
        // that the import does not see is a stub, never Lua's `math.log` (18.9.6).
        let numeric = ["floor", "ceil", "sqrt", "exp", "log", "sin", "cos", "abs", "round", "pow", "min", "max", "usleep", "sleep"]
        if numeric.contains(name) {
            let arity = ["pow": 2...2, "min": 2...16, "max": 2...16][name] ?? 1...1
            guard arity.contains(c.args.count), c.args.allSatisfy({ $0.label == nil && $0.closure == nil && !isStringLike($0, t) }) else { return nil }
        }
        if name == "zip", c.args.count != 2 || c.args.contains(where: { $0.label != nil }) { return nil }
        if name == "stride", c.arg("from") == nil || c.arg("by") == nil { return nil }
        if name == "type", c.arg("of") == nil { return nil }
        switch name {
        case "print", "debugPrint", "NSLog", "dump":
            if name == "NSLog", let f = c.args.first, c.args.count > 1 {
                return LuaExpr("swift.print(swift.format(\(([c.code(f)] + c.args.dropFirst().map { c.code($0) }).joined(separator: ", "))))")
            }
            return LuaExpr("swift.print(\(c.args.filter { $0.label == nil }.map { c.code($0) }.joined(separator: ", ")))")
        case "os_log":
            return LuaExpr("swift.print(\(c.args.first.map { c.code($0) } ?? "\"\""))")
        case "Logger": return LuaExpr("swift.logger()", TypeName("Logger"))
        case "NSClassFromString":
            // The app runs outside XCTest: its classes are absent (home-assistant's
            // `isRunningTests` is `NSClassFromString("XCTest") != nil`, and an opaque class made
            // every launch return before registering its BGTask). Other names: a stub.
            guard let arg = c.args.first, let text = t.constantString(arg.syntax), text.hasPrefix("XCT") else { return nil }
            return LuaExpr("nil", TypeName("AnyClass", optional: true))
        case "assert", "assertionFailure": return LuaExpr("nil")
        case "precondition":
            return LuaExpr("swift.precondition(\(c.code(c.args.first))\(c.args.count > 1 ? ", " + c.code(c.args[1]) : ""))")
        case "preconditionFailure", "fatalError":
            return LuaExpr("swift.fatal(\(c.args.first.map { c.code($0) } ?? "nil"))")
        case "min", "max":
            // Each argument translated once (a second translation of the first recorded its stub
            // sites twice); the result has the first one's type.
            let xs = c.args.map { t.expr($0.syntax) }
            return LuaExpr("swift.math(\"\(name)\", \(xs.map(\.code).joined(separator: ", ")))", xs.first?.type)
        case "abs": return LuaExpr("swift.math(\"abs\", \(c.code(c.args.first)))")
        case "floor", "ceil", "sqrt", "exp", "log", "sin", "cos", "round":
            // Swift's floor, ceil and round of a Double are Doubles (Lua's are integers).
            return LuaExpr("swift.math(\"\(name)\", \(c.code(c.args.first)))", TypeName("Double"))
        case "pow": return LuaExpr("swift.math(\"pow\", \(c.code(c.args.first)), \(c.code(c.args.last)))", TypeName("Double"))
        case "usleep": return LuaExpr("work(\(c.code(c.args.first)) / 1000000)")
        case "sleep": return LuaExpr("work(\(c.code(c.args.first)))")
        case "zip": return LuaExpr("swift.zip(\(c.all.joined(separator: ", ")))", TypeName("Array"))
        case "stride":
            let to = c.arg("to").map { ("false", c.code($0)) } ?? ("true", c.code("through"))
            return LuaExpr("swift.stride(\(c.code("from")), \(to.1), \(c.code("by")), \(to.0))", TypeName("Array"))
        case "type":
            // `type(of: self)`: the type itself, so its statics resolve (duckduckgo's
            // `type(of: self).fetchQueue.async { ... }` was a stub that ran the block on the main
            // queue, where it waited on a semaphore); of another value, its type when translated.
            if let arg = c.arg("of"), arg.syntax.trimmedDescription == "self", let owner = t.currentType {
                var e = LuaExpr(owner.lua)
                e.typeRef = owner
                return e
            }
            return LuaExpr("(swift.typeOf(\(c.code(c.arg("of")))) or swift.opaque(\"type\"))")
        case "String":
            if let f = c.arg("format") {
                return LuaExpr("swift.format(\(([c.code(f)] + c.args.dropFirst().map { c.code($0) }).joined(separator: ", ")))", TypeName("String"))
            }
            if c.args.isEmpty { return LuaExpr("\"\"", TypeName("String")) }
            return LuaExpr("swift.s(\(c.code(c.args.first)))", TypeName("String"))
        case "Int", "Int64", "Int32", "UInt", "UInt64", "Int16", "UInt8", "UInt32":
            if c.args.isEmpty { return LuaExpr("0", TypeName("Int")) }
            // The argument translated once (for its code and its type: `Int(String)` is optional).
            let x = t.expr(c.args[0].syntax)
            return LuaExpr("swift.int(\(x.code))", TypeName("Int", optional: x.type?.name == "String"))
        case "Double", "Float", "CGFloat", "TimeInterval":
            if c.args.isEmpty { return LuaExpr("0.0", TypeName("Double")) }
            return LuaExpr("swift.double(\(c.code(c.args.first)))", TypeName("Double"))
        case "Bool": return LuaExpr("swift.bool(\(c.code(c.args.first)))", TypeName("Bool"))
        case "Array", "ContiguousArray":
            if let r = c.arg("repeating"), let n = c.arg("count") { return LuaExpr("swift.repeating(\(c.code(r)), \(c.code(n)))", TypeName("Array")) }
            return LuaExpr(c.args.isEmpty ? "swift.array({})" : "swift.toArray(\(c.code(c.args.first)))", TypeName("Array"))
        case "Optional" where c.args.count == 1 && c.args[0].label == nil:
            // `Optional(x)`: x itself (nil stays nil).
            let x = c.t.expr(c.args[0].syntax)
            return LuaExpr(x.code, x.type.map { var t = $0; t.optional = true; return t })
        case "Set": return LuaExpr(c.args.isEmpty ? "swift.set()" : "swift.set(\(c.code(c.args.first)))", TypeName("Set"))
        case "Dictionary":
            if let u = c.arg("uniqueKeysWithValues") { return LuaExpr("swift.dictFromPairs(\(c.code(u)))", TypeName("Dictionary")) }
            return LuaExpr("swift.dict({})", TypeName("Dictionary"))
        case "UUID":
            // `UUID(uuidString: s)`: the UUID s spells, or nil.
            if let s = c.arg("uuidString") { return LuaExpr("swift.uuid(\(c.code(s)))", TypeName("UUID", optional: true)) }
            return LuaExpr("swift.uuid()", TypeName("UUID"))
        case "UIBackgroundTaskIdentifier":
            // The identifiers are numbers; `.invalid` is 0.
            return LuaExpr(c.code(c.arg("rawValue") ?? c.args.first), TypeName("UIBackgroundTaskIdentifier"))
        case "Result":
            guard let body = c.arg("catching") ?? c.trailing else { return nil }
            return LuaExpr("swift.resultOf(\(c.code(body)))", TypeName("Result"))
        case "UserDefaults":
            // Suites share the app's one store (docs/IMPORT.md); a suite is optional in Swift.
            return LuaExpr("swift.userDefaults", TypeName("UserDefaults", optional: c.arg("suiteName") != nil))
        case "NSTemporaryDirectory": return LuaExpr("\"/tmp/\"", TypeName("String"))
        case "autoreleasepool": return LuaExpr("(\(c.code(c.arg("invoking") ?? c.trailing ?? c.args.first)))()")
        case "withExtendedLifetime":
            guard let body = c.trailing ?? c.args.last, let value = c.args.first else { return nil }
            return LuaExpr("(\(c.code(body)))(\(c.code(value)))")
        case "dispatchPrecondition", "objc_sync_enter", "objc_sync_exit", "os_signpost": return LuaExpr("nil")
        case "NSHomeDirectory": return LuaExpr("\"/var/mobile\"", TypeName("String"))
        case "Date":
            if let x = c.arg("timeIntervalSinceNow") { return LuaExpr("swift.now() + \(t.wrap(c.typed(x, .delay)))", TypeName("Date")) }
            if let x = c.arg("timeIntervalSince1970") { return LuaExpr("\(t.wrap(c.code(x))) - 1379462400", TypeName("Date")) }
            if let x = c.arg("timeIntervalSinceReferenceDate") { return LuaExpr("\(t.wrap(c.code(x))) - 401155200", TypeName("Date")) }
            if let x = c.arg("timeInterval"), let since = c.arg("since") { return LuaExpr("\(t.wrap(c.code(since))) + \(t.wrap(c.code(x)))", TypeName("Date")) }
            return LuaExpr("swift.now()", TypeName("Date"))
        case "CFAbsoluteTimeGetCurrent", "CACurrentMediaTime": return LuaExpr("swift.now()", TypeName("Double"))
        case "URL":
            if let s = c.arg("string") { return LuaExpr(c.code(s), TypeName("URL", optional: true)) }
            if let p = c.arg("fileURLWithPath") { return LuaExpr(c.code(p), TypeName("URL")) }
            return nil
        case "URLRequest":
            return LuaExpr("swift.urlRequest(\(c.code(c.arg("url") ?? c.args.first)))", TypeName("URLRequest"))
        case "URLSession":
            guard let config = c.arg("configuration") else { return nil }
            let delegate = c.arg("delegate")
            let methods = delegate.flatMap { t.sessionDelegateMethods($0) } ?? "nil"
            return LuaExpr("swift.urlSession(\(c.code(config)), \(delegate.map { c.code($0) } ?? "nil"), \(methods))", TypeName("URLSession"))
        case "BGAppRefreshTaskRequest", "BGProcessingTaskRequest":
            let id = c.arg("identifier") ?? c.args.first
            if let id, let text = t.constantString(id.syntax) { t.submitted.append((text, t.location(c.node))) }
            t.usedModes[name == "BGAppRefreshTaskRequest" ? "fetch" : "processing"] = t.location(c.node)
            return LuaExpr("\(name)(\(c.typed(id, .taskIdentifier)))", TypeName(name))
        case "Progress":
            return LuaExpr("swift.progress(nil, \(c.arg("totalUnitCount").map { c.code($0) } ?? "0"))", TypeName("Progress"))
        case "BGContinuedProcessingTaskRequest":
            t.needsIOS26 = true
            return LuaExpr("BGContinuedProcessingTaskRequest(\(c.typed(c.arg("identifier") ?? c.args.first, .taskIdentifier)), { title = \(c.code("title")), subtitle = \(c.code("subtitle")) })",
                           TypeName(name))
        case "DispatchQueue":
            guard let label = c.arg("label") else { return nil }
            let concurrent = c.arg("attributes").map { $0.syntax.trimmedDescription.contains("concurrent") } ?? false
            return LuaExpr("dispatch.queue(\(c.typed(label, .name))\(concurrent ? ", { concurrent = true }" : ""))", TypeName("DispatchQueue"))
        case "DispatchGroup": return LuaExpr("dispatch.group()", TypeName("DispatchGroup"))
        case "DispatchSemaphore": return LuaExpr("dispatch.semaphore(\(c.typed(c.arg("value") ?? c.args.first, .semaphoreValue)))", TypeName("DispatchSemaphore"))
        case "DispatchWorkItem":
            return LuaExpr("swift.workItem(\(c.code(c.arg("block") ?? c.trailing ?? c.args.last)))", TypeName("DispatchWorkItem"))
        case "NSLock", "NSCondition": return LuaExpr("dispatch.lock()", TypeName("NSLock"))
        // A thread may take it again (fsnotes's `projectsLock` taken by a method that holds it
        // was a deadlock on a plain lock).
        case "NSRecursiveLock": return LuaExpr("swift.recursiveLock()", TypeName("NSRecursiveLock"))
        case "Mutex", "OSAllocatedUnfairLock":
            // Synchronization's Mutex, os's OSAllocatedUnfairLock: the state they protect, in the
            // box `withLock`'s closure receives as its inout parameter (one thread runs at a time).
            let initial = c.arg("initialState") ?? c.arg("uncheckedState") ?? c.arg(nil)
            return LuaExpr("swift.inoutBox(\(c.code(initial)))", TypeName(name))
        case "OperationQueue": return LuaExpr("swift.operationQueue(false)", TypeName("OperationQueue"))
        case "BlockOperation":
            return LuaExpr("swift.blockOperation(\(c.code(c.arg("block") ?? c.trailing ?? c.args.first)))", TypeName("BlockOperation"))
        case "Task":
            let body = c.arg("operation") ?? c.trailing ?? c.args.last
            var main = t.onMainActor
            if let cl = body?.closure, cl.signature?.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }) == true {
                main = true
            }
            return LuaExpr("swift.task(\(c.code(body)), \(main))", TypeName("Task"))
        case "withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation", "withUnsafeThrowingContinuation":
            return LuaExpr("swift.continuation(\(c.code(c.arg("body") ?? c.trailing ?? c.args.last, types: [TypeName("Continuation")])))")
        case "withTaskGroup", "withThrowingTaskGroup", "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup":
            let throwing = name.contains("Throwing")
            let body = c.arg("body") ?? c.trailing ?? c.args.last
            return LuaExpr("swift.taskGroup(\(c.code(body, types: [TypeName(throwing ? "ThrowingTaskGroup" : "TaskGroup")])), \(throwing))")
        case "withTaskCancellationHandler":
            let operation = c.arg("operation") ?? c.args.first { $0.label == nil && ($0.closure != nil || $0.closureLike) }
            return LuaExpr("swift.withCancellationHandler(\(c.code(operation)), \(c.code(c.arg("onCancel") ?? c.args.last)))")
        case "Notification":
            return nil
        default:
            if name.hasPrefix("Notification.Name") || name == "NSNotification.Name" {
                return LuaExpr(c.code(c.args.first), TypeName("Notification.Name"))
            }
            return nil
        }
    }
}
