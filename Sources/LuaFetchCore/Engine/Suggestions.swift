// Suggestions: "did you mean" for every name a person can mistype (globals, API tables' fields,
// option fields, violation codes, REPL commands, hosts and routes of fake servers). One rule
// everywhere: rank candidates by edit distance (optimal string alignment, case ignored); a
// candidate that contains the whole word (`multitasking` in `isMultitaskingSupported`) is only
// offered when nothing is close, at the weakest distance that is still offered; a candidate much
// shorter than the word (less than half its length) is never offered, so `noViolation` does not
// become `at`; ties go to the preferred names (the same table's), then to the closer length, then
// alphabetically. Bounded work whatever the input. Pure Swift, no dependencies.

/// The candidate closest to `word`, if reasonably close ("did you mean"); `elsewhere` are names of
/// other tables (`user.launch`), compared by their last part and offered only when no candidate
/// of the word's own table is as close. Bounded work whatever the input: words and candidates
/// longer than `maxHintLength` bytes get no hint, at most `maxHintCandidates` candidates are
/// compared, a candidate whose length alone is too far is skipped, and names a person would not
/// mean (`_G`, `_VERSION`: a leading underscore) are proposed only for words that start with one.
public func closest(_ word: String, among candidates: [String], elsewhere: [String] = []) -> String? {
    let w = Array(word.utf8).map(asciiLower)
    guard !w.isEmpty, w.count <= maxHintLength else { return nil }
    // Short words get close names only: a 2-letter typo is not "any other 2-letter name".
    let limit = w.count <= 3 ? 1 : max(2, w.count / 2)
    /// (distance, contained, tier, length difference, name): smaller is better.
    var best: (d: Int, contained: Bool, tier: Int, gap: Int, name: String)?
    let tiers = candidates.prefix(maxHintCandidates).map { ($0, $0, 0) }
        + elsewhere.prefix(max(0, maxHintCandidates - candidates.count)).map { ($0, memberPart($0), 1) }
    for (name, compared, tier) in tiers {
        let lc = Array(compared.utf8).map(asciiLower)
        guard !lc.isEmpty, lc.count <= maxHintLength, lc.count * 2 >= w.count else { continue }
        if lc.first == UInt8(ascii: "_") && w.first != UInt8(ascii: "_") { continue }
        let contained = w.count >= 4 && lc.count > w.count && contains(lc, w)
        let gap = abs(lc.count - w.count)
        var d: Int
        if gap > limit {
            guard contained else { continue }
            d = limit
        } else {
            d = editDistance(w, lc)
            if d > limit && contained { d = limit }
        }
        guard d <= limit else { continue }
        let key = (d: d, contained: contained && d == limit, tier: tier, gap: gap, name: name)
        if let b = best, (b.d, b.contained ? 1 : 0, b.tier, b.gap, b.name) <= (key.d, key.contained ? 1 : 0, key.tier, key.gap, key.name) { continue }
        best = key
    }
    return best?.name
}

/// `launch` of `user.launch` or `app:beginBackgroundTask`'s `beginBackgroundTask`.
private func memberPart(_ qualified: String) -> String {
    guard let i = qualified.lastIndex(where: { $0 == "." || $0 == ":" }) else { return qualified }
    return String(qualified[qualified.index(after: i)...])
}

/// The longest word or candidate `closest` compares, in bytes.
public let maxHintLength = 64
/// The most candidates `closest` compares.
public let maxHintCandidates = 2000

private func asciiLower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

private func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= hay.count else { return false }
    if needle.isEmpty { return true }
    for i in 0...(hay.count - needle.count) where hay[i] == needle[0] {
        if hay[i..<i + needle.count].elementsEqual(needle) { return true }
    }
    return false
}

func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    // Optimal string alignment: insertions, deletions, substitutions and swaps of neighbours
    // ("nmae" is one swap from "name").
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
        }
        (before, prev, cur) = (prev, cur, before)
    }
    return prev[b.count]
}
