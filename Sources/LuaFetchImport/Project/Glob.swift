// Glob patterns as project files write them: XcodeGen's `excludes`/`includes` (`**/*Tests.*`,
// `Sources/**`, `{a,b}`), build-setting conditions (`iphoneos*`). `*` and `?` stay within a path
// component, `**` spans any number of components (none included), `[abc]` is a class, `{a,b}`
// alternatives. Uses nothing else.

enum Glob {
    /// Whether `path` matches `pattern` as a whole.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        for alternative in expandBraces(pattern) {
            let p = Array(alternative.utf8), s = Array(path.utf8)
            var failed = Set<Int>()
            if match(p, 0, s, 0, failed: &failed) { return true }
        }
        return false
    }

    /// Whether `path` or one of the folders it lies in matches (an excluded folder excludes what
    /// is inside it).
    static func matchesOrInside(_ pattern: String, _ path: String) -> Bool {
        if matches(pattern, path) { return true }
        var p = Substring(path)
        while let slash = p.lastIndex(of: "/") {
            p = p[..<slash]
            if matches(pattern, String(p)) { return true }
        }
        return false
    }

    /// `a{b,c}d` as `abd`, `acd` (nested braces expanded from the first).
    static func expandBraces(_ pattern: String) -> [String] {
        guard let open = pattern.firstIndex(of: "{") else { return [pattern] }
        var depth = 0
        var close: String.Index?
        var commas: [String.Index] = []
        var i = open
        while i < pattern.endIndex {
            let c = pattern[i]
            if c == "{" { depth += 1 }
            if c == "}" { depth -= 1; if depth == 0 { close = i; break } }
            if c == "," && depth == 1 { commas.append(i) }
            i = pattern.index(after: i)
        }
        guard let close, !commas.isEmpty else { return [pattern] }
        let head = pattern[..<open], tail = pattern[pattern.index(after: close)...]
        var parts: [Substring] = []
        var start = pattern.index(after: open)
        for c in commas { parts.append(pattern[start..<c]); start = pattern.index(after: c) }
        parts.append(pattern[start..<close])
        return parts.flatMap { expandBraces(String(head) + $0 + tail) }
    }

    private static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), question = UInt8(ascii: "?"), open = UInt8(ascii: "[")

    /// Backtracking match; the (pattern, subject) positions already known to fail are not tried
    /// again, so the work is bounded by their product whatever the pattern.
    private static func match(_ p: [UInt8], _ pi: Int, _ s: [UInt8], _ si: Int, failed: inout Set<Int>) -> Bool {
        let key = pi &* (s.count + 1) &+ si
        if failed.contains(key) { return false }
        let ok = matchFrom(p, pi, s, si, failed: &failed)
        if !ok { failed.insert(key) }
        return ok
    }

    private static func matchFrom(_ p: [UInt8], _ pi: Int, _ s: [UInt8], _ si: Int, failed: inout Set<Int>) -> Bool {
        var pi = pi, si = si
        while pi < p.count {
            let c = p[pi]
            if c == star {
                if pi + 1 < p.count && p[pi + 1] == star {
                    let next = pi + 2
                    if next < p.count && p[next] == slash {
                        // `**/X`: X here, or after any `/` further on.
                        var k = si
                        while k <= s.count {
                            if (k == si || s[k - 1] == slash) && match(p, next + 1, s, k, failed: &failed) { return true }
                            k += 1
                        }
                        return false
                    }
                    // `**` elsewhere: anything, across components.
                    var k = si
                    while k <= s.count {
                        if match(p, next, s, k, failed: &failed) { return true }
                        k += 1
                    }
                    return false
                }
                var k = si
                while true {
                    if match(p, pi + 1, s, k, failed: &failed) { return true }
                    if k >= s.count || s[k] == slash { return false }
                    k += 1
                }
            }
            guard si < s.count else { return false }
            if c == question {
                if s[si] == slash { return false }
            } else if c == open, let end = p[(pi + 1)...].firstIndex(of: UInt8(ascii: "]")) {
                var set = Array(p[(pi + 1)..<end])
                let negate = set.first == UInt8(ascii: "!") || set.first == UInt8(ascii: "^")
                if negate { set.removeFirst() }
                var hit = false
                var k = 0
                while k < set.count {
                    if k + 2 < set.count && set[k + 1] == UInt8(ascii: "-") {
                        if s[si] >= set[k] && s[si] <= set[k + 2] { hit = true }
                        k += 3
                    } else {
                        if s[si] == set[k] { hit = true }
                        k += 1
                    }
                }
                if hit == negate { return false }
                pi = end
            } else if c != s[si] {
                return false
            }
            pi += 1
            si += 1
        }
        return si == s.count
    }
}
