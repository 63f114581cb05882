// The app's types the written Lua names (`T.Feed`, `T.Outer.Inner.case`): the scenario writes a
// type's table only for the types the slice reached (SPEC 18.8.4), and the translation may name
// one the slice's syntax-only reading did not resolve (IceCubes' `.none` of a `PagingState` two
// modules declare), or one only a branch or closure that never runs names. The importer gives
// these their tables too (Slice.hasTable), without widening the slice. One pass over the bytes.
// Uses TypeDecl.

enum TypeReferences {
    /// The types of `types` whose Lua name (or a member path below it) appears in `lines`.
    static func named(in lines: [String], types: [TypeDecl]) -> [TypeDecl] {
        var byName: [String: [TypeDecl]] = [:]
        for t in types { byName[t.lua, default: []].append(t) }
        var seen = Set<String>()
        for line in lines {
            // The code, not its `--@ path:line` mark.
            let code = line.range(of: "--@ ").map { line[..<$0.lowerBound] } ?? Substring(line)
            let bytes = Array(code.utf8)
            var i = 0
            while i + 1 < bytes.count {
                // `T.` not preceded by an identifier character or a dot.
                if bytes[i] == UInt8(ascii: "T"), bytes[i + 1] == UInt8(ascii: "."), i == 0 || !isIdentifier(bytes[i - 1]) && bytes[i - 1] != UInt8(ascii: ".") {
                    var j = i + 2
                    var path = "T"
                    while j < bytes.count, isIdentifier(bytes[j]) {
                        let start = j
                        while j < bytes.count, isIdentifier(bytes[j]) { j += 1 }
                        path += "." + String(decoding: bytes[start..<j], as: UTF8.self)
                        seen.insert(path)
                        guard j + 1 < bytes.count, bytes[j] == UInt8(ascii: "."), isIdentifier(bytes[j + 1]) else { break }
                        j += 1
                    }
                    i = j
                } else {
                    i += 1
                }
            }
        }
        return seen.sorted().flatMap { byName[$0] ?? [] }
    }

    private static func isIdentifier(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95
    }
}
