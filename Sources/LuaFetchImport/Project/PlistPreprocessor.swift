// Xcode's Info.plist preprocessor (SPEC 18.8.3), as the C preprocessor runs it on an Info.plist:
// `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`, `#define`, `#undef`, `#include` of a
// file beside it, `#error`; conditions with `defined(X)`, `!`, `&&`, `||`, comparisons and integer
// arithmetic; an undefined macro is 0 (false); defined object-like macros are replaced in the text
// lines kept. Errors are `Info.plist:LINE: message` (exit 2). Uses SourceFiles to read includes,
// Foundation (range(of:)).
import Foundation

/// Runs the preprocessor over one Info.plist's text.
struct PlistPreprocessor {
    /// Object-like macros: name → replacement text (`-DNAME` is "1", as the C preprocessor has it).
    var macros: [String: String] = [:]
    /// Function-like macros are known (for `defined`) but never expanded.
    var functionMacros: Set<String> = []

    /// The directives the preprocessor acts on (any other `#word` line is text).
    static let directives: Set<String> = ["if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include", "error", "warning", "pragma", "line"]

    /// Whether the text has a preprocessor line (a line whose first non-blank is `#` and a directive).
    static func hasDirectives(_ text: String) -> Bool {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.contains("#") {
            if directive(of: Substring(line)) != nil { return true }
        }
        return false
    }

    /// `#name rest` of a directive line, else nil.
    static func directive(of line: Substring) -> (name: String, rest: Substring)? {
        var s = line.drop { $0 == " " || $0 == "\t" }
        guard s.first == "#" else { return nil }
        s = s.dropFirst().drop { $0 == " " || $0 == "\t" }
        let name = s.prefix { $0.isLetter }
        guard directives.contains(String(name)) else { return nil }
        return (String(name), s.dropFirst(name.count))
    }

    /// `INFOPLIST_PREPROCESSOR_DEFINITIONS` (`A B=2 "C=x y"`) as macros.
    static func definitions(_ setting: String) -> [String: String] {
        var out: [String: String] = [:]
        for word in BuildSettings.words(setting) where !word.hasPrefix("$(") {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard !name.isEmpty else { continue }
            out[name] = parts.count > 1 ? String(parts[1]) : "1"
        }
        return out
    }

    private struct Frame {
        var parentActive: Bool
        var active: Bool
        var taken: Bool
        var sawElse = false
        let line: Int
    }

    /// The text with the directives evaluated. `shown` names the file in messages; `folder` is
    /// where `#include` looks.
    mutating func run(_ text: String, shown: String, folder: String, depth: Int = 0) throws(ImportError) -> String {
        var out: [Substring] = []
        var stack: [Frame] = []
        var active: Bool { stack.last?.active ?? true }
        func fail(_ line: Int, _ message: String) -> ImportError { ImportError("\(shown):\(line): \(message)") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var n = 0
        while n < lines.count {
            var line = lines[n]
            let lineNumber = n + 1
            n += 1
            guard let (name, restRaw) = Self.directive(of: line) else {
                if active { out.append(macros.isEmpty ? line : Substring(expandText(line))) }
                continue
            }
            // A directive continued with a backslash at the end of its line.
            var rest = String(restRaw)
            while rest.hasSuffix("\\") && n < lines.count {
                rest.removeLast()
                rest += " " + lines[n]
                n += 1
            }
            rest = Self.stripComments(rest).trimmed(" \t\r")
            line = ""
            switch name {
            case "if", "ifdef", "ifndef":
                var cond = false
                if active {
                    if name == "if" {
                        guard !rest.isEmpty else { throw fail(lineNumber, "#if with no expression") }
                        cond = try evaluate(rest, line: lineNumber, shown: shown) != 0
                    } else {
                        let id = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                        guard !id.isEmpty else { throw fail(lineNumber, "macro name missing after #\(name)") }
                        let known = macros[String(id)] != nil || functionMacros.contains(String(id))
                        cond = name == "ifdef" ? known : !known
                    }
                }
                stack.append(Frame(parentActive: active, active: active && cond, taken: cond, line: lineNumber))
            case "elif":
                guard var f = stack.popLast() else { throw fail(lineNumber, "#elif without #if") }
                guard !f.sawElse else { throw fail(lineNumber, "#elif after #else") }
                if f.parentActive && !f.taken {
                    guard !rest.isEmpty else { throw fail(lineNumber, "#elif with no expression") }
                    let c = try evaluate(rest, line: lineNumber, shown: shown) != 0
                    f.active = c
                    f.taken = c
                } else {
                    f.active = false
                }
                stack.append(f)
            case "else":
                guard var f = stack.popLast() else { throw fail(lineNumber, "#else without #if") }
                guard !f.sawElse else { throw fail(lineNumber, "#else after #else") }
                f.sawElse = true
                f.active = f.parentActive && !f.taken
                f.taken = true
                stack.append(f)
            case "endif":
                guard stack.popLast() != nil else { throw fail(lineNumber, "#endif without #if") }
            case "define" where active:
                let id = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard !id.isEmpty, !(id.first!.isNumber) else { throw fail(lineNumber, "macro name missing after #define") }
                let after = rest.dropFirst(id.count)
                if after.first == "(" {
                    functionMacros.insert(String(id))
                } else {
                    macros[String(id)] = after.trimmed(" \t")
                }
            case "undef" where active:
                let id = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                macros[id] = nil
                functionMacros.remove(id)
            case "include" where active:
                guard depth < 16 else { throw fail(lineNumber, "#include nested more than 16 deep") }
                guard let first = rest.first, first == "\"" || first == "<",
                      let close = rest.dropFirst().firstIndex(of: first == "\"" ? "\"" : ">") else {
                    throw fail(lineNumber, "#include expects \"FILE\" or <FILE>")
                }
                let file = String(rest[rest.index(after: rest.startIndex)..<close])
                let path = file.hasPrefix("/") ? file : (folder.isEmpty ? file : folder + "/" + file)
                guard let bytes = try? SourceFiles.read(path) else {
                    throw fail(lineNumber, "#include \"\(file)\": no such file beside it")
                }
                var included = try run(String(decoding: bytes, as: UTF8.self), shown: file, folder: ProjectPaths.folder(of: path), depth: depth + 1)
                // A header's comments are not the property list's text.
                included = included.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { Self.stripComments(String($0)) }.filter { !$0.trimmed(" \t\r").isEmpty }.joined(separator: "\n")
                if !included.isEmpty { out.append(Substring(included)) }
            case "error" where active:
                throw fail(lineNumber, "#error \(rest)")
            default:
                break  // #warning, #pragma, #line, and directives in inactive branches
            }
        }
        if let open = stack.last { throw fail(open.line, "#if without #endif") }
        return out.joined(separator: "\n")
    }

    /// A line with `/* ... */` and `//` comments removed (directive lines only).
    static func stripComments(_ s: String) -> String {
        var out = ""
        var i = s.startIndex
        while i < s.endIndex {
            let rest = s[i...]
            if rest.hasPrefix("//") { break }
            if rest.hasPrefix("/*") {
                if let end = s.range(of: "*/", range: s.index(i, offsetBy: 2)..<s.endIndex) { i = end.upperBound; out += " "; continue }
                break
            }
            out.append(s[i])
            i = s.index(after: i)
        }
        return out
    }

    /// A text line with the object-like macros replaced (whole identifiers, rescanned up to 8 times).
    func expandText(_ line: Substring) -> String {
        var text = String(line)
        for _ in 0..<8 {
            var changed = false
            var out = ""
            var word = ""
            func flush() {
                if !word.isEmpty, let v = macros[word], !(word.first!.isNumber) { out += v; changed = true } else { out += word }
                word = ""
            }
            for c in text {
                if c.isLetter || c.isNumber || c == "_" { word.append(c) } else { flush(); out.append(c) }
            }
            flush()
            text = out
            if !changed { break }
        }
        return text
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters of `chars`.
    func trimmed(_ chars: String) -> String {
        let set = Set(chars)
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
