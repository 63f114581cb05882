// The app's functions that never ran (explore's report, after its findings): what each function of
// a coverage report is, read from the line it is defined on (`didEnterBackground = function(app)`
// is a delegate method, a function passed to `beginBackgroundTask` an expiration handler, one
// passed to `at` world code), and which of the person's and the system's actions reach it (a
// never-run expiration handler: no run got near a deadline). A function written inside another
// that never ran is counted under it rather than listed. Uses CoverageReport (Coverage.swift),
// DelegateMethod, SceneMethod and GrantKind for the names. Pure Swift.

/// What a function of a scenario is, as far as its definition line tells.
public enum FunctionRole: Equatable, Sendable {
    /// The chunk itself (its top-level code).
    case topLevel
    /// A delegate method (app{}, delegate(), scene = {...}, a background session's delegate), by name.
    case delegate(String)
    /// An expiration handler (`app:beginBackgroundTask`).
    case expiration
    /// A BGTask's launch handler (`bgtasks.register`) and its expiration handler.
    case bgTaskLaunch, bgTaskExpiration
    /// The completion of a request (`http.get`, `http.request`).
    case request
    /// A block run later (`after`, `timer`, `dispatch` queues).
    case block
    /// A notification observer.
    case observer
    /// World code (`at`, `every`, `expect`) and server routes: not the app's.
    case world, server
    /// Anything else: a helper, a method of a translated type, a closure passed to app code.
    case function

    public var key: String {
        switch self {
        case .topLevel: return "top"
        case .delegate(let name): return "delegate:" + name
        case .expiration: return "expiration"
        case .bgTaskLaunch: return "bgtask-launch"
        case .bgTaskExpiration: return "bgtask-expiration"
        case .request: return "request"
        case .block: return "block"
        case .observer: return "observer"
        case .world: return "world"
        case .server: return "server"
        case .function: return "function"
        }
    }

    public init?(key: String) {
        if key.hasPrefix("delegate:") { self = .delegate(String(key.dropFirst(9))); return }
        let all: [FunctionRole] = [.topLevel, .expiration, .bgTaskLaunch, .bgTaskExpiration, .request, .block, .observer, .world, .server, .function]
        guard let r = all.first(where: { $0.key == key }) else { return nil }
        self = r
    }

    /// Whether the role says nothing beyond "a function".
    public var isGeneric: Bool { self == .function }

    /// World code and servers are not the app's.
    public var isApp: Bool { self != .world && self != .server && self != .topLevel }

    /// The names luafetch calls as delegate methods.
    static let delegateNames: Set<String> = {
        var names = Set(DelegateMethod.allCases.map(\.rawValue) + GrantKind.allCases.compactMap(\.info.handler))
        names.formUnion(SceneMethod.allCases.map(\.rawValue))
        names.formUnion(["didFinishDownloading", "didComplete", "didFinishEvents"])
        return names
    }()

    /// What the definition line `text` says a function defined on it is, and its name.
    public static func classify<S: StringProtocol>(_ text: S) -> (name: String, role: FunctionRole) {
        let s = Array(String(text).utf8)
        guard let at = keyword(s) else { return ("", .function) }
        // `function NAME(` and `local function NAME(`: the name is written after the keyword.
        var j = at + 8
        while j < s.count, s[j] == 0x20 || s[j] == 0x09 { j += 1 }
        let named = chain(s, from: j)
        if !named.isEmpty {
            let last = String(named.split(whereSeparator: { $0 == "." || $0 == ":" }).last ?? Substring(named))
            return (named, delegateNames.contains(last) ? .delegate(last) : .function)
        }
        // An anonymous function: what comes before it says what it is.
        var k = at - 1
        while k >= 0, s[k] == 0x20 || s[k] == 0x09 { k -= 1 }
        guard k >= 0 else { return ("function", .function) }
        if s[k] == 0x3D, k == 0 || s[k - 1] != 0x3D {  // `NAME = function`, `["NAME"] = function`
            let field = fieldName(s, before: k)
            if field == "expirationHandler" { return ("BGTask expiration handler", .bgTaskExpiration) }
            if delegateNames.contains(field) { return (field, .delegate(field)) }
            if field == "delegate" { return ("delegate", .function) }
            return (field.isEmpty ? "function" : field, .function)
        }
        if s[k] == 0x28 || s[k] == 0x2C {  // an argument: `callee(..., function`
            guard let open = unmatchedParen(s, before: k + 1) else { return ("function", .function) }
            let callee = calleeName(s, before: open)
            let last = callee.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) ?? callee
            let timer = callee.hasPrefix("timer")
            switch last {
            case "beginBackgroundTask": return ("expiration handler", .expiration)
            case "register": return ("BGTask launch handler", .bgTaskLaunch)
            case "get", "request": if callee.hasPrefix("http") { return ("completion of \(callee)", .request) }
            case "after", "asyncAfter", "async", "sync", "notify": return ("block for \(callee)", .block)
            case "every": return timer ? ("block for \(callee)", .block) : ("every callback", .world)
            case "observe": return ("observer", .observer)
            case "at", "that": return ("\(callee) callback", .world)
            case "route": return ("route", .server)
            default: break
            }
            // The runtime of imported scenarios: a member defined by `swift.static(T.X, "name", function`,
            // a closure passed to a call of `swift.call(n, receiver, "method", ...)`.
            if callee.hasPrefix("swift."), let literal = firstString(s, from: open, to: at) {
                let type = firstTypeArgument(s, from: open)
                switch last {
                case "static", "computed", "lazy": return (type.map { "\($0).\(literal)" } ?? literal, .function)
                default: return ("closure passed to \(literal)", .function)
                }
            }
            if callee.hasPrefix("swift."), last == "fields", let type = firstTypeArgument(s, from: open) {
                return ("\(type) (stored properties)", .function)
            }
            return (callee.isEmpty ? "function" : "closure passed to \(callee)", .function)
        }
        return ("function", .function)
    }

    /// Where the word `function` starts (outside strings and comments), or nil.
    static func keyword(_ s: [UInt8]) -> Int? {
        let word = Array("function".utf8)
        var i = 0
        var quote: UInt8 = 0
        while i + word.count <= s.count {
            let c = s[i]
            if quote != 0 {
                if c == 0x5C { i += 2; continue }
                if c == quote { quote = 0 }
                i += 1
                continue
            }
            if c == 0x22 || c == 0x27 { quote = c; i += 1; continue }
            if c == 0x2D, i + 1 < s.count, s[i + 1] == 0x2D { return nil }  // a comment
            if c == word[0], Array(s[i..<i + word.count]) == word, i == 0 || !isName(s[i - 1]),
               i + word.count == s.count || !isName(s[i + word.count]) { return i }
            i += 1
        }
        return nil
    }

    static func isName(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F }

    /// A name chain (`a.b:c`) starting at `from`.
    static func chain(_ s: [UInt8], from: Int) -> String {
        var j = from
        while j < s.count, isName(s[j]) || s[j] == 0x2E || s[j] == 0x3A { j += 1 }
        return String(decoding: s[from..<j], as: UTF8.self)
    }

    /// The field or variable assigned before `=` at `eq`: `name`, `["name"]`, `a.b`.
    static func fieldName(_ s: [UInt8], before eq: Int) -> String {
        var k = eq - 1
        while k >= 0, s[k] == 0x20 || s[k] == 0x09 { k -= 1 }
        if k >= 0, s[k] == 0x5D {  // ["name"]
            var q = k - 1
            while q >= 0, s[q] != 0x5B { q -= 1 }
            guard q >= 0 else { return "" }
            return String(decoding: s[(q + 1)..<k], as: UTF8.self).filter { $0 != "\"" && $0 != "'" }
        }
        var start = k
        while start >= 0, isName(s[start]) || s[start] == 0x2E { start -= 1 }
        let text = String(decoding: s[(start + 1)..<(k + 1)], as: UTF8.self)
        return text.split(separator: ".").last.map(String.init) ?? text
    }

    /// The `(` the argument list ending before `end` opened (skipping nested parentheses and strings).
    static func unmatchedParen(_ s: [UInt8], before end: Int) -> Int? {
        var depth = 0
        var i = end - 1
        while i >= 0 {
            switch s[i] {
            case 0x29: depth += 1
            case 0x28:
                if depth == 0 { return i }
                depth -= 1
            case 0x22, 0x27:
                let q = s[i]
                i -= 1
                while i >= 0, s[i] != q { i -= 1 }
            default: break
            }
            i -= 1
        }
        return nil
    }

    /// The name chain right before `open` (`app:beginBackgroundTask`).
    static func calleeName(_ s: [UInt8], before open: Int) -> String {
        var k = open - 1
        while k >= 0, s[k] == 0x20 { k -= 1 }
        var start = k
        while start >= 0, isName(s[start]) || s[start] == 0x2E || s[start] == 0x3A { start -= 1 }
        guard start < k else { return "" }
        return String(decoding: s[(start + 1)...k], as: UTF8.self)
    }

    /// The first string literal between `from` and `to`.
    static func firstString(_ s: [UInt8], from: Int, to: Int) -> String? {
        var i = from
        while i < to {
            if s[i] == 0x22 || s[i] == 0x27 {
                let q = s[i]
                var j = i + 1
                while j < to, s[j] != q { j += 1 }
                return String(decoding: s[(i + 1)..<min(j, to)], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    /// `X` of a first argument `T.X` (the runtime's type tables).
    static func firstTypeArgument(_ s: [UInt8], from open: Int) -> String? {
        let arg = chain(s, from: open + 1)
        guard arg.hasPrefix("T.") else { return nil }
        return String(arg.dropFirst(2))
    }

    /// What reaches a function of this role, in terms of explore's actions (empty: nothing to say).
    public var reachedBy: String {
        switch self {
        case .delegate(let name):
            switch name {
            case "didFinishLaunching": return "a launch: open, or a launch in the background (backgroundFetch, push, launchTask)"
            case "didBecomeActive": return "open (the app coming to the foreground)"
            case "willResignActive": return "home, or interrupt (a call) while the app is active"
            case "didEnterBackground": return "home while the app is active"
            case "willEnterForeground": return "open after a home"
            case "willTerminate": return "forceQuit while the app runs in the background (a home with a task open, then forceQuit)"
            case "performFetch": return "backgroundFetch (with \"fetch\" in backgroundModes)"
            case "didReceiveRemoteNotification": return "push (content-available)"
            case "handleEventsForBackgroundURLSession": return "a background transfer finishing while the app is suspended or not running"
            case "willConnect": return "a launch of an app with scenes (open)"
            case "didDisconnect": return "disconnectScene while the app is in the background"
            case "didFinishDownloading", "didComplete", "didFinishEvents": return "a background session's transfer finishing (network, outage for its errors)"
            default: return ""
            }
        case .expiration:
            return "the background time running out with its task open: home while the task is open, and the task still open at the expiration warning (no run got near that deadline)"
        case .bgTaskLaunch: return "launchTask (a submitted request launched by the system)"
        case .bgTaskExpiration: return "expireTask while the BGTask runs"
        case .request: return "a response to the request (and network=off or outage for its errors)"
        case .block: return "time passing while the app runs (in the foreground, or kept running by a task)"
        case .observer: return "the notification it observes being posted"
        case .topLevel, .world, .server, .function: return ""
        }
    }
}

/// One line of explore's list of functions that never ran.
public struct NeverRunFunction: Sendable, Equatable {
    /// `file:line` (the Swift line for an imported scenario's function) and its scenario line.
    public var location: String
    public var scenarioLine: String?
    public var name: String
    public var role: FunctionRole
    /// Functions written inside it (that never ran either).
    public var inside: Int
    /// What reaches it, or where it is written when that function ran (the branch that calls it did not).
    public var hint: String
}

extension CoverageReport {
    /// The app's functions that never ran (not world code, not the top level), outermost first:
    /// one written inside a function that never ran counts under it. In file and line order.
    public var neverRun: [NeverRunFunction] {
        var byLocation: [String: (file: String, f: Function)] = [:]
        for file in files { for f in file.functions { byLocation["\(file.path):\(f.line)"] = (file.path, f) } }
        func outermostNeverRun(_ key: String) -> String {
            var current = key
            var seen = Set<String>()
            while let p = byLocation[current]?.f.parent, let parent = byLocation[p], !parent.f.ran, parent.f.role.isApp, seen.insert(p).inserted {
                current = p
            }
            return current
        }
        var inside: [String: Int] = [:]
        var listed: [String] = []
        for file in files {
            for f in file.functions where !f.ran && f.role.isApp {
                let key = "\(file.path):\(f.line)"
                let top = outermostNeverRun(key)
                if top == key { listed.append(key) } else { inside[top, default: 0] += 1 }
            }
        }
        return listed.map { key in
            let (_, f) = byLocation[key]!
            var hint = f.role.reachedBy
            if hint.isEmpty, let p = f.parent, let parent = byLocation[p] {
                hint = "written inside \(parent.f.name) (\(p)), which ran: the path that calls it never did"
            } else if hint.isEmpty {
                hint = "nothing that ran calls it"
            }
            return NeverRunFunction(location: key, scenarioLine: f.scenarioLine, name: f.name, role: f.role,
                                    inside: inside[key] ?? 0, hint: hint)
        }
    }

    /// How many of the app's functions there are, and how many ran.
    public var appFunctions: (count: Int, ran: Int) {
        var n = 0, ran = 0
        for file in files { for f in file.functions where f.role.isApp { n += 1; if f.ran { ran += 1 } } }
        return (n, ran)
    }

    /// The text report's lines about them (empty when every app function ran).
    public func neverRunText(runs: Int) -> [String] {
        let list = neverRun
        guard !list.isEmpty else { return [] }
        let (count, _) = appFunctions
        let never = list.reduce(0) { $0 + 1 + $1.inside }
        var out = ["never ran in \(runs == 1 ? "the run" : "any of the \(runs) runs"): \(never) of the app's \(count) functions"]
        for f in list {
            var head = "  \(f.location)"
            if let s = f.scenarioLine { head += " (\(s))" }
            head += "  \(f.name)"
            if f.inside > 0 { head += " (and \(f.inside) function\(f.inside == 1 ? "" : "s") inside it)" }
            out.append(head)
            out.append("    reached by: \(f.hint)")
        }
        return out
    }
}
