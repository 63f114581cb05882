// The translation's state and its output (SPEC 18.3, 18.7.4, 18.7.7): Lua lines, each ending
// with `--@ File.swift:LINE` for the Swift line it came from; scopes of locals with what is known
// of their types; the control context that `return`, `break` and `continue` translate against
// (plain Lua inside a function and its loops, control codes inside the closures that `defer` and
// `do`/`catch` need); and what the report counts. Statements, expressions, calls and
// declarations are extensions in their own files.
import SwiftSyntax

/// What is known of a translated expression: its Lua code, its Swift type when known, and
/// whether it is part of an optional chain (`a?.b.c`: every access after `?` lets nil through).
struct LuaExpr {
    var code: String
    var type: TypeName?
    var chained = false
    /// A stub's result (its name, for naming members of the value, 18.7.5).
    var stubName: String?
    /// It names a type (`Foo` in `Foo.shared`), not a value.
    var typeRef: TypeDecl?
    /// A known API type named as a value (`DispatchQueue` in `DispatchQueue.main`).
    var apiType: String?

    init(_ code: String, _ type: TypeName? = nil) { self.code = code; self.type = type }
}

/// A local name and what is known of it.
struct LocalVar {
    let lua: String
    var type: TypeName?
    /// A stub result kept in a variable (members of it chain on the stub's name).
    var stubName: String?
    /// Declared optional (`var x: T?`): results assigned to it count as used as optionals.
    var optional = false
    /// A `let` initialized with a string literal: its text (identifiers registered or submitted).
    var constant: String?
    /// An `inout` parameter: a box whose `v` is the caller's variable.
    var inoutBox = false
    /// Holds a resource of the app's bundle (`let url = Bundle.main.url(forResource: "Model", ...)!`).
    var bundled = false
}

/// Where `return`, `break` and `continue` go.
enum ControlFrame {
    /// A function or closure body: `return` returns.
    case function
    /// A loop (its label, the Lua label its `continue` jumps to, and for a `while` or `repeat` the
    /// Lua local holding its `swift.loop()` state).
    case loop(label: String?, continueLabel: String, id: Int, state: String? = nil)
    /// A closure made for `defer` or `do`/`catch`: control leaves it as a code the caller acts on.
    case wrapper
    /// A `switch` (a plain `break` leaves it).
    case switchCase(label: String?, exitLabel: String)
}

/// What the report counts.
struct ImportCounts {
    var statements = 0
    var untranslated: [(where: String, what: String)] = []
    var mapped: [String: Int] = [:]
    var mappedOrder: [String] = []
    mutating func map(_ name: String) {
        if mapped[name] == nil { mappedOrder.append(name) }
        mapped[name, default: 0] += 1
    }
}

final class Translator {
    let program: Program
    let profile: String
    /// Output lines with inline markers: `\u{1}F,L\u{1}` gives a line its Swift file and line.
    var out: [String] = []
    var indent = 0
    var file: ParsedFile!
    var fileIndex = 0
    var fileNames: [String] = []
    var scopes: [[String: LocalVar]] = []
    var control: [ControlFrame] = []
    var currentType: TypeDecl?
    var inStatic = false
    /// In the getter of a protocol extension's static computed property, `Self` (and `self`) is
    /// the adopting type the runtime passes as the getter's parameter: `self`, not the protocol.
    var selfIsAdopter = false
    /// Main-actor code (the app delegate, views, @MainActor types): `Task {}` inherits it.
    var onMainActor = false
    var tempCounter = 0
    var loopCounter = 0
    var counts = ImportCounts()
    let stubs = StubBook()
    /// Report lines: warnings about the app (18.6) and notes.
    var warnings: [(where: String, text: String)] = []
    /// Hosts of URL literals (the default world's servers).
    var hosts: [String] = []
    /// Background modes and identifiers the code uses (18.6).
    var usedModes: [String: String] = [:]
    var registered: [(id: String, where: String)] = []
    /// A `register` whose identifier import cannot compute (a parameter): it may register any.
    var registersComputedIdentifier = false
    var submitted: [(id: String, where: String)] = []
    /// A value of a known API (a request, a task): its fields are set directly.
    func isAPIValue(_ e: LuaExpr) -> Bool {
        guard let n = e.apiType ?? e.type?.name else { return false }
        return APIs.knownTypes.contains(n)
    }
    /// Whether the code reaches for the app-group container (a database's file there).
    var usesAppGroup = false
    /// The newest profile the code needs (`ios26` for continued processing tasks).
    var needsIOS26 = false
    /// The code reads the app's Info.plist (`Bundle.main`): the scenario carries it (InfoDictionary).
    var readsInfoPlist = false
    /// SwiftUI: scene phase handlers and background tasks found in `body`, by type.
    var weakCaptures = 0
    /// UIApplication properties the code writes or reads that luafetch does not model (18.9.7).
    var unmodelledAppProperties: Set<String> = []
    /// The call translated now is `reduce(into:)` (its closure's first parameter is inout).
    var reduceInto = false
    /// A `try` whose call is translated next (the call reads and clears it).
    var pendingTry = false
    /// `&x` arguments of the call being translated: the box, its first value, and the store
    /// that writes the box's value back after the call.
    var inoutBoxes: [(box: String, initial: String, store: String)] = []
    /// `for (a, b) in ...`: the line that binds the tuple's names in the loop body.
    var tupleBind: String?
    /// Inside an `if` or `switch` used as a value: a branch's expression is returned.
    var valueBranch = false
    /// The function or initializer whose body is translated now.
    var currentFunction: FuncInfo?
    /// The result type of each closure being translated, innermost last (known for a closure
    /// called where it is written, `let context: AppContext = { ... }()`), and the one the next
    /// closure takes: its `return .forUITesting` is a member of that type.
    var closureResults: [TypeName?] = []
    var nextClosureResult: TypeName?
    /// A generic parameter's type where the call being translated fixes it (a property wrapper's
    /// `T` is the wrapped property's type): the expected type of an argument declared `T`.
    var genericSubstitution: [String: TypeName] = [:]
    /// What the app's bundle holds (BundleResources): a lookup of one by constant name is never
    /// nil, nor is what is read from it (isBundled).
    var bundle = BundleContents()
    /// Types with SwiftUI handlers lifted out of `body` (a `__swiftui` method).
    var swiftUITypes: [TypeDecl] = []
    /// Static constants of extensions of types the files do not define (`Notification.Name.sync`).
    var extensionStatics: [String: LuaExpr] = [:]

    /// Lua's parser, handed in by the command (18.8.5): a chunk and its name give Lua's
    /// message when the chunk does not compile. nil: no check (in-process tests).
    var luaCheck: ((String, String) -> String?)?
    /// Units whose Lua did not compile, made stubs instead (18.8.5).
    var untranslatedUnits = 0
    /// What the scenario keeps (18.8.4): only its units are written. nil: everything.
    let slice: Slice?
    /// What the translation called and made, so the importer can check that the slice kept it.
    var calledFunctions: [FuncInfo] = []
    /// Properties of the app's types the translation read or wrote that the slice left out (it is
    /// widened to them: home-assistant's `Current.apis` read a computed property the slice had not
    /// kept, nil at launch).
    var unkeptProperties: [(PropertyInfo, TypeDecl)] = []
    /// `writtenMembers` by type.
    var writtenMemberCache: [ObjectIdentifier: Set<String>] = [:]
    var madeTypes: [TypeDecl] = []
    /// False inside a closure handed to a stub that never calls it (StubBook.callsClosures): what
    /// it calls, makes and reads cannot run, so the slice is not widened to it (18.8.4).
    var widening = true
    /// The app's methods by base name (Calls+Dynamic), indexed on first use.
    var methodsByBase: [String: [FuncInfo]]?

    init(program: Program, profile: String, slice: Slice? = nil) {
        self.program = program
        self.profile = profile
        self.slice = slice
    }

    /// Whether the scenario keeps this function, property or declaration (18.8.4).
    func keeps(_ f: FuncInfo) -> Bool { slice?.contains(f) ?? true }
    func keeps(_ p: PropertyInfo) -> Bool { slice?.contains(p) ?? true }
    /// A property of `t` the translation uses: noted for widening when the slice left it out.
    func use(_ p: PropertyInfo?, of t: TypeDecl) { if let p, widening, !keeps(p) { unkeptProperties.append((p, t)) } }
    func keeps(node: some SyntaxProtocol) -> Bool { slice?.contains(node: node) ?? true }
    func isMade(_ t: TypeDecl) -> Bool { slice?.isMade(t) ?? true }
    func keeps(type t: TypeDecl) -> Bool { slice?.hasTable(t) ?? true }

    // MARK: - Output

    var pad: String { String(repeating: "  ", count: indent) }

    func marker(_ line: Int) -> String { "\u{1}\(fileIndex),\(line)\u{1}" }
    func marker(_ node: some SyntaxProtocol) -> String { marker(file.line(node)) }
    func endMarker(_ node: some SyntaxProtocol) -> String { marker(file.endLine(node)) }

    /// Writes `code` (which may span lines: closures) as a statement of Swift line `line`.
    func emit(_ code: String, _ line: Int) {
        let pieces = code.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, piece) in pieces.enumerated() {
            let text = i == 0 ? pad + piece : String(piece)
            out.append(text.contains("\u{1}") ? text : text + marker(line))
        }
    }
    func emit(_ code: String, at node: some SyntaxProtocol) { emit(code, file.line(node)) }
    /// A line the importer adds itself (no Swift line).
    func plain(_ code: String) { out.append(pad + code) }

    /// Lines written while `body` runs, one level deeper, returned instead of kept.
    func nested(_ body: () -> Void) -> [String] {
        let saved = out
        out = []
        indent += 1
        body()
        indent -= 1
        let lines = out
        out = saved
        return lines
    }

    /// The finished text: markers become `--@ File.swift:LINE` comments.
    static func finish(_ lines: [String], files: [String]) -> [String] {
        lines.map { line in
            guard let first = line.firstIndex(of: "\u{1}") else { return line }
            // The last marker on the line decides.
            var mark: (Int, Int)?
            var text = ""
            var i = line.startIndex
            while i < line.endIndex {
                if line[i] == "\u{1}", let close = line[line.index(after: i)...].firstIndex(of: "\u{1}") {
                    let body = line[line.index(after: i)..<close].split(separator: ",")
                    if body.count == 2, let f = Int(body[0]), let l = Int(body[1]) { mark = (f, l) }
                    i = line.index(after: close)
                } else {
                    text.append(line[i])
                    i = line.index(after: i)
                }
            }
            _ = first
            while text.hasSuffix(" ") { text.removeLast() }
            guard let (f, l) = mark, f < files.count else { return text }
            return "\(text)  --@ \(files[f]):\(l)"
        }
    }

    // MARK: - Scopes

    func pushScope() { scopes.append([:]) }
    func popScope() { scopes.removeLast() }

    /// Declares a local; returns its Lua name (a Swift name shadowing a Lua keyword or a luafetch
    /// global gets a `_` suffix).
    @discardableResult
    func declare(_ swiftName: String, type: TypeName? = nil, stub: String? = nil) -> String {
        // A name that shadows a visible local gets a name of its own (`if let x = x` reads the
        // outer x after the inner one is declared).
        let lua = freshName(swiftName)
        if scopes.isEmpty { pushScope() }
        scopes[scopes.count - 1][swiftName] = LocalVar(lua: lua, type: type, stubName: stub, optional: type?.optional ?? false)
        return lua
    }

    /// A Lua name for `swiftName` no visible local (nor `avoiding`) has.
    func freshName(_ swiftName: String, avoiding: Set<String> = []) -> String {
        let base = Naming.local(swiftName)
        func taken(_ n: String) -> Bool { avoiding.contains(n) || scopes.contains { $0.values.contains { $0.lua == n } } }
        guard taken(base) else { return base }
        var n = 2
        while taken("\(base)_\(n)") { n += 1 }
        return "\(base)_\(n)"
    }

    /// Puts a name with a Lua name already chosen into the current scope.
    func bind(_ swiftName: String, lua: String, type: TypeName?, stub: String?) {
        if scopes.isEmpty { pushScope() }
        scopes[scopes.count - 1][swiftName] = LocalVar(lua: lua, type: type, stubName: stub, optional: type?.optional ?? false)
    }

    func local(_ name: String) -> LocalVar? {
        for s in scopes.reversed() { if let v = s[name] { return v } }
        return nil
    }

    /// Marks parameters declared `inout`: they hold a box (`swift.inoutBox`), read and written as `p.v`.
    func markInout(_ params: [FuncInfo.Param], _ names: [String]) -> [String] {
        var lines: [String] = []
        for (p, n) in zip(params, names) where p.inout_ {
            for i in scopes.indices.reversed() where scopes[i][p.name] != nil {
                scopes[i][p.name]!.inoutBox = true
                break
            }
            lines.append("\(n) = swift.inoutBox(\(n))")
        }
        return lines
    }

    func setLocalConstant(_ name: String, _ text: String) {
        for i in scopes.indices.reversed() where scopes[i][name] != nil {
            scopes[i][name]!.constant = text
            return
        }
    }

    func setLocalType(_ name: String, _ type: TypeName?, stub: String?) {
        for i in scopes.indices.reversed() where scopes[i][name] != nil {
            if let type { scopes[i][name]!.type = type }
            if let stub { scopes[i][name]!.stubName = stub }
            return
        }
    }

    /// The type of an expression, translated only to learn it.
    func peekType(_ e: ExprSyntax) -> TypeName? { peek(e).type }

    /// An expression translated only to learn what it is (its type, the stub it is the value
    /// of): what translating it recorded is taken back (stub sites, counts; temporaries'
    /// numbering stays).
    func peek(_ e: ExprSyntax) -> LuaExpr {
        let checkpoint = stubs.checkpoint()
        let savedCounts = counts, savedTemp = tempCounter
        defer { stubs.rollback(to: checkpoint); counts = savedCounts; tempCounter = savedTemp }
        return expr(e)
    }

    func temp(_ base: String = "v") -> String {
        tempCounter += 1
        return "__\(base)\(tempCounter)"
    }

    /// `where` for the report: `File.swift:LINE`.
    func location(_ node: some SyntaxProtocol) -> String { "\(file.source.shown):\(file.line(node))" }

    /// Code the translation leaves out: a line that logs it when it runs (18.3).
    func unsupportedCall(_ what: String, _ node: some SyntaxProtocol) -> String {
        let loc = location(node)
        counts.untranslated.append((loc, what))
        return "unsupported(\(Literals.quote(what)), \(Literals.quote(loc)))"
    }

    // MARK: - Control

    /// Lua labels a `goto` was written for (a label nobody jumps to is left out).
    var usedLabels = Set<String>()

    /// Writes `::name::` when a jump targets it.
    func placeLabel(_ name: String, _ mark: String) {
        if usedLabels.contains(name) { out.append(pad + "::\(name)::" + mark) }
    }

    /// Translates `return` (with its value's code) for the current context.
    func returnCode(_ value: String?) -> String {
        for frame in control.reversed() {
            switch frame {
            case .function: return value.map { "do return \($0) end" } ?? "do return end"
            case .wrapper: return "do return swift.RETURN\(value.map { ", \($0)" } ?? "") end"
            default: continue
            }
        }
        return value.map { "do return \($0) end" } ?? "do return end"
    }

    /// Translates `break` / `continue` (with a label or not) for the current context.
    func jumpCode(_ kind: String, label: String?) -> String {
        var crossed = false
        for frame in control.reversed() {
            switch frame {
            case .function:
                return "do return end"
            case .wrapper:
                crossed = true
            case .switchCase(let l, let exit):
                if kind == "break" && (label == nil || label == l) {
                    if !crossed { usedLabels.insert(exit) }
                    return crossed ? "do return \"break:\(exit)\" end" : "goto \(exit)"
                }
            case .loop(let l, let cont, let id, _):
                if label == nil || label == l {
                    if kind == "continue" {
                        if !crossed { usedLabels.insert(cont) }
                        return crossed ? "do return \"continue:\(id)\" end" : "goto \(cont)"
                    }
                    if !crossed && label != nil { usedLabels.insert("\(cont)_break") }
                    return crossed ? "do return \"break:\(id)\" end" : (label == nil ? "break" : "goto \(cont)_break")
                }
            }
        }
        return "do return end"
    }

    /// After a wrapper closure returned `codeVar, valueVar`: carries its control code on in the
    /// current context (`if c == "return" then return v end`, breaks and continues of loops
    /// outside it). The line that returns on is marked with the `return` inside the wrapper when
    /// it has only one (`within`), so a missed completion names that `return`, not the `do`
    /// (issue 39.2: `catch { print(...); return }` was reported at the `do {` line).
    func propagate(_ codeVar: String, _ valueVar: String, line: Int, within: Syntax? = nil) {
        var returnLine = line
        if let within {
            let found = ReturnLines(file: file)
            found.walk(within)
            if found.lines.count == 1, let only = found.lines.first { returnLine = only }
        }
        emit("if \(codeVar) == swift.RETURN then \(returnCode(valueVar)) end", returnLine)
        var crossed = false
        var handled = Set<String>()
        for frame in control.reversed() {
            switch frame {
            case .function:
                return
            case .wrapper:
                crossed = true
            case .loop(_, let cont, let id, _):
                if handled.insert("l\(id)").inserted {
                    if crossed {
                        emit("if \(codeVar) == \"break:\(id)\" or \(codeVar) == \"continue:\(id)\" then do return \(codeVar) end end", line)
                    } else {
                        usedLabels.insert(cont)
                        usedLabels.insert("\(cont)_break")
                        emit("if \(codeVar) == \"continue:\(id)\" then goto \(cont) end", line)
                        emit("if \(codeVar) == \"break:\(id)\" then goto \(cont)_break end", line)
                    }
                }
            case .switchCase(_, let exit):
                if handled.insert(exit).inserted {
                    if !crossed { usedLabels.insert(exit) }
                    emit(crossed ? "if \(codeVar) == \"break:\(exit)\" then do return \(codeVar) end end"
                                 : "if \(codeVar) == \"break:\(exit)\" then goto \(exit) end", line)
                }
            }
        }
    }
}

/// The lines of the `return` statements of a piece of code, not of the closures and functions
/// inside it.
final class ReturnLines: SyntaxVisitor {
    let file: ParsedFile
    private(set) var lines = Set<Int>()
    init(file: ParsedFile) {
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { lines.insert(file.line(node)); return .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
