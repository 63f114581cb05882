// Values the importer cannot see (issue 38.7): a stub's value (an app constant defined outside
// what was imported, `Config.fetchInterval`; a library's setting) passed where a mapped iOS API
// takes a number or an identifier would be an opaque value there, and the API would reject it: a
// crash iOS never has. Such a stub instead returns a typed default, written as its `result` in
// `stubs{}` (where the user sets the real value) and named in the report. A row per kind of value:
// the Lua it returns and the words the scenario and the report use. Task identifiers are chosen
// at the end (`Importer`): the Info.plist's permitted identifiers that no code registers by name,
// in its order. Used by CallContext.typed (the API rows) and StubBook (stubs{}).
import SwiftSyntax

struct TypedDefault: Equatable {
    /// The Lua the stub returns (nil: a task identifier, chosen at the end; or the stub's name,
    /// quoted, for a name).
    let lua: String?
    let what: String

    /// `setMinimumBackgroundFetchInterval`: Apple's default when an app never calls it is Never,
    /// but an app that calls it asks for fetches; the interval such apps pass most is the minimum.
    static let fetchInterval = TypedDefault(lua: "UIApplicationBackgroundFetchIntervalMinimum", what: "a background fetch interval (the minimum)")
    /// `asyncAfter`, `Thread.sleep`, `Task.sleep`, a `Date(timeIntervalSinceNow:)`, a timer source's start.
    static let delay = TypedDefault(lua: "1", what: "a delay (1 second)")
    /// `Timer.scheduledTimer(withTimeInterval:)`, a timer source's `repeating:`.
    static let timerInterval = TypedDefault(lua: "60", what: "a timer interval (60 seconds)")
    /// `DispatchSemaphore.wait(timeout:)`, `DispatchGroup.wait(timeout:)`.
    static let timeout = TypedDefault(lua: "10", what: "a wait's timeout (10 seconds)")
    /// `DispatchSemaphore(value:)`.
    static let semaphoreValue = TypedDefault(lua: "1", what: "a semaphore's starting value (1)")
    /// `BGTaskScheduler.register(forTaskWithIdentifier:)`, `BGAppRefreshTaskRequest(identifier:)`, ...
    static let taskIdentifier = TypedDefault(lua: nil, what: "a task identifier")
    /// `beginBackgroundTask(withName:)`, `DispatchQueue(label:)`.
    static let name = TypedDefault(lua: nil, what: "a name")
    /// `Task.sleep(nanoseconds:)`.
    static let nanoseconds = TypedDefault.delay.in(unit: "nanoseconds")!

    /// The same span counted in `unit` (`.milliseconds(Config.delay)`): nil for a unit that is
    /// not a span of time or a value that is not a number of seconds.
    func `in`(unit: String) -> TypedDefault? {
        guard let lua, let seconds = Int(lua) else { return nil }
        let perSecond = ["seconds": 1, "milliseconds": 1_000, "microseconds": 1_000_000, "nanoseconds": 1_000_000_000][unit]
        if unit == "minutes" { return TypedDefault(lua: "\(max(1, seconds / 60))", what: what) }
        return perSecond.map { TypedDefault(lua: "\(seconds * $0)", what: what) }
    }
}

extension Translator {
    /// The stub whose value `e` is, directly or through arithmetic, parentheses or a numeric
    /// conversion (`Config.delay`, `Config.delay * 2`, `TimeInterval(Config.minutes) * 60`); learnt
    /// by translating it only to see (nothing recorded stays).
    func stubValueName(_ e: ExprSyntax) -> String? {
        if let tuple = e.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return stubValueName(only.expression)
        }
        if let infix = e.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self),
           ["+", "-", "*", "/"].contains(op.operator.text) {
            return stubValueName(infix.leftOperand) ?? stubValueName(infix.rightOperand)
        }
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { return stubValueName(prefix.expression) }
        if let call = e.as(FunctionCallExprSyntax.self), call.arguments.count == 1, call.trailingClosure == nil,
           let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
           ["Double", "Int", "TimeInterval", "Float", "CGFloat", "UInt64", "Int64", "UInt32", "Int32", "String"].contains(callee.baseName.text),
           let only = call.arguments.first, only.label == nil {
            return stubValueName(only.expression)
        }
        if e.is(IntegerLiteralExprSyntax.self) || e.is(FloatLiteralExprSyntax.self) || e.is(StringLiteralExprSyntax.self) { return nil }
        return peek(e).stubName
    }

    /// `e`'s stub, if its value is one, returns `value` (the first kind a stub is passed as wins).
    func typeStubValue(_ e: ExprSyntax, as value: TypedDefault) {
        guard let name = stubValueName(e) else { return }
        stubs.type(name, value)
    }
}

extension CallContext {
    /// An argument a mapped API takes as a number or an identifier: translated as usual; a stub's
    /// value there returns `value` (issue 38.7).
    func typed(_ a: CallArg?, _ value: TypedDefault, expect: TypeName? = nil) -> String {
        if let a, a.closure == nil { t.typeStubValue(a.syntax, as: value) }
        return code(a, expect: expect)
    }
}
