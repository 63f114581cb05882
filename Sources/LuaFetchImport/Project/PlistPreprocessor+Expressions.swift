// The conditions of `#if` and `#elif` in an Info.plist (SPEC 18.8.3), as the C preprocessor
// evaluates them: integers (decimal, hex, octal, with U/L suffixes), `defined(X)` and `defined X`,
// macros replaced by their values (an undefined name is 0), unary `! ~ - +`, `* / %`, `+ -`,
// `<< >>`, comparisons, `& ^ |`, `&& ||`, `?:` and parentheses. Uses nothing else.

extension PlistPreprocessor {
    private enum Token: Equatable {
        case number(Int)
        case name(String)
        case op(String)
    }

    private struct Failure: Error { let message: String }

    /// The value of a condition; a malformed one is `FILE:LINE: message`.
    func evaluate(_ text: String, line: Int, shown: String) throws(ImportError) -> Int {
        do {
            var p = Parser(tokens: try tokenize(text, depth: 0))
            let v = try p.conditional()
            guard p.at == p.tokens.count else { throw Failure(message: "unexpected \(p.describe(p.tokens[p.at])) in #if") }
            return v
        } catch let f as Failure {
            throw ImportError("\(shown):\(line): \(f.message)")
        } catch {
            throw ImportError("\(shown):\(line): \(error)")
        }
    }

    /// Tokens with `defined` applied and macros replaced by their own tokens.
    private func tokenize(_ text: String, depth: Int) throws -> [Token] {
        guard depth < 16 else { throw Failure(message: "macros in #if expand more than 16 deep") }
        let chars = Array(text)
        var out: [Token] = []
        var i = 0
        func isIdent(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\r" { i += 1; continue }
            if c.isNumber {
                var j = i
                while j < chars.count && (isIdent(chars[j])) { j += 1 }
                var lit = String(chars[i..<j]).lowercased()
                while let l = lit.last, l == "u" || l == "l" { lit.removeLast() }
                let value: Int?
                if lit.hasPrefix("0x") { value = Int(lit.dropFirst(2), radix: 16) }
                else if lit.count > 1 && lit.hasPrefix("0") { value = Int(lit.dropFirst(), radix: 8) }
                else { value = Int(lit) }
                guard let value else { throw Failure(message: "'\(String(chars[i..<j]))' is not an integer") }
                out.append(.number(value))
                i = j
                continue
            }
            if isIdent(c) {
                var j = i
                while j < chars.count && isIdent(chars[j]) { j += 1 }
                let word = String(chars[i..<j])
                i = j
                if word == "defined" {
                    while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 }
                    let paren = i < chars.count && chars[i] == "("
                    if paren { i += 1; while i < chars.count && chars[i] == " " { i += 1 } }
                    var k = i
                    while k < chars.count && isIdent(chars[k]) { k += 1 }
                    guard k > i else { throw Failure(message: "macro name missing after defined") }
                    let name = String(chars[i..<k])
                    i = k
                    if paren {
                        while i < chars.count && chars[i] == " " { i += 1 }
                        guard i < chars.count && chars[i] == ")" else { throw Failure(message: "missing ')' after defined(\(name)") }
                        i += 1
                    }
                    out.append(.number(macros[name] != nil || functionMacros.contains(name) ? 1 : 0))
                } else if let v = macros[word] {
                    let inner = try tokenize(v.isEmpty ? "0" : v, depth: depth + 1)
                    out.append(.op("("))
                    out += inner
                    out.append(.op(")"))
                } else if word == "true" {
                    out.append(.number(1))
                } else {
                    out.append(.number(0))  // an undefined name is 0
                }
                continue
            }
            if c == "'" , i + 2 < chars.count, chars[i + 2] == "'" {
                out.append(.number(Int(chars[i + 1].unicodeScalars.first!.value)))
                i += 3
                continue
            }
            let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
            if ["&&", "||", "==", "!=", "<=", ">=", "<<", ">>"].contains(two) {
                out.append(.op(two))
                i += 2
                continue
            }
            if "!~-+*/%<>&^|?:()".contains(c) {
                out.append(.op(String(c)))
                i += 1
                continue
            }
            throw Failure(message: "unexpected '\(c)' in #if")
        }
        return out
    }

    /// A precedence-climbing parser over the tokens.
    private struct Parser {
        let tokens: [Token]
        var at = 0

        func describe(_ t: Token) -> String {
            switch t {
            case .number(let n): return "\(n)"
            case .name(let s): return s
            case .op(let o): return "'\(o)'"
            }
        }

        mutating func take(_ op: String) -> Bool {
            if at < tokens.count, tokens[at] == .op(op) { at += 1; return true }
            return false
        }

        mutating func conditional() throws -> Int {
            let c = try binary(0)
            if take("?") {
                let a = try conditional()
                guard take(":") else { throw Failure(message: "expected ':' in #if") }
                let b = try conditional()
                return c != 0 ? a : b
            }
            return c
        }

        static let levels: [[String]] = [["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="], ["<<", ">>"], ["+", "-"], ["*", "/", "%"]]

        mutating func binary(_ level: Int) throws -> Int {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level + 1)
            while at < tokens.count, case .op(let o) = tokens[at], Self.levels[level].contains(o) {
                at += 1
                let right = try binary(level + 1)
                switch o {
                case "||": left = (left != 0 || right != 0) ? 1 : 0
                case "&&": left = (left != 0 && right != 0) ? 1 : 0
                case "|": left |= right
                case "^": left ^= right
                case "&": left &= right
                case "==": left = left == right ? 1 : 0
                case "!=": left = left != right ? 1 : 0
                case "<": left = left < right ? 1 : 0
                case ">": left = left > right ? 1 : 0
                case "<=": left = left <= right ? 1 : 0
                case ">=": left = left >= right ? 1 : 0
                case "<<": left = right >= 0 && right < 63 ? left << right : 0
                case ">>": left = right >= 0 && right < 63 ? left >> right : 0
                case "+": left = left &+ right
                case "-": left = left &- right
                case "*": left = left &* right
                case "/", "%":
                    guard right != 0 else { throw Failure(message: "division by zero in #if") }
                    left = o == "/" ? left / right : left % right
                default: break
                }
            }
            return left
        }

        mutating func unary() throws -> Int {
            if take("!") { return try unary() == 0 ? 1 : 0 }
            if take("~") { return ~(try unary()) }
            if take("-") { return 0 &- (try unary()) }
            if take("+") { return try unary() }
            if take("(") {
                let v = try conditional()
                guard take(")") else { throw Failure(message: "missing ')' in #if") }
                return v
            }
            guard at < tokens.count else { throw Failure(message: "#if expression ends too early") }
            let t = tokens[at]
            at += 1
            if case .number(let n) = t { return n }
            throw Failure(message: "unexpected \(describe(t)) in #if")
        }
    }
}
