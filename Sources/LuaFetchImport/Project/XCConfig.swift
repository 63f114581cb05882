// `.xcconfig` files (SPEC 18.8.1): `KEY = value` and `KEY[sdk=iphoneos*][arch=*] = value` lines
// in order, `//` comments, an optional `;` at the end, `#include "x.xcconfig"` and
// `#include? "x.xcconfig"` relative to the including file (the included lines take their place;
// a missing `#include` is a warning, a missing `#include?` is not; a cycle is read once).
// Uses SourceFiles to read, ProjectPaths, Foundation (range(of:)); gives Assignments to BuildSettings.
import Foundation

enum XCConfig {
    /// A file of CocoaPods or Carthage (never in a repository: `pod install` writes it).
    static func isDependencyFile(_ path: String) -> Bool {
        path.hasPrefix("Pods/") || path.contains("/Pods/") || path.hasPrefix("Carthage/") || path.contains("/Carthage/")
    }

    /// The assignments of `path` with its includes, and what went wrong (`file:line`, message).
    static func read(_ path: String, root: String? = nil, shown: (String) -> String) -> (assignments: [Assignment], warnings: [(where: String, text: String)]) {
        var out: [Assignment] = []
        var warnings: [(where: String, text: String)] = []
        var stack: [String] = []
        func visit(_ file: String, from: String?) {
            guard !stack.contains(file), stack.count < 16 else { return }
            guard let bytes = try? SourceFiles.read(file), !bytes.contains(0) else {
                warnings.append((from ?? shown(file), "\(shown(file)): cannot be read as an .xcconfig file; its settings are left out"))
                return
            }
            stack.append(file)
            defer { stack.removeLast() }
            let text = String(decoding: bytes, as: UTF8.self)
            var lineNumber = 0
            for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                var line = Substring(rawLine)
                if let c = line.range(of: "//") { line = line[..<c.lowerBound] }
                let t = line.trimmed(" \t\r")
                guard !t.isEmpty else { continue }
                if t.hasPrefix("#include") {
                    let optional = t.hasPrefix("#include?")
                    guard let q1 = t.firstIndex(of: "\""), let q2 = t[t.index(after: q1)...].firstIndex(of: "\"") else { continue }
                    let name = String(t[t.index(after: q1)..<q2])
                    // `<DEVELOPER_DIR>/...` and other Xcode-relative includes are not in the repository.
                    if name.hasPrefix("<") { continue }
                    // Beside the including file, else from the project's folder (Xcode looks there too).
                    let candidates = [ProjectPaths.join(ProjectPaths.folder(of: file), name)] + (root.map { [ProjectPaths.join($0, name)] } ?? [])
                    if let target = candidates.lazy.compactMap(ProjectPaths.onDisk).first(where: { ProjectPaths.kind($0) == "f" }) {
                        visit(target, from: "\(shown(file)):\(lineNumber)")
                    } else if !optional && !isDependencyFile(name) {
                        warnings.append(("\(shown(file)):\(lineNumber)", "#include \"\(name)\": no such file; its settings are left out"))
                    }
                    continue
                }
                if t.hasPrefix("#") { continue }
                // The `=` after the key and its `[conditions]` (which hold `=` themselves).
                var depth = 0
                guard let eq = t.firstIndex(where: { c in
                    if c == "[" { depth += 1 } else if c == "]" { depth -= 1 }
                    return c == "=" && depth == 0
                }) else { continue }
                let key = t[..<eq].trimmed(" \t")
                guard let first = key.first, first.isLetter || first == "_" else { continue }
                var value = t[t.index(after: eq)...].trimmed(" \t")
                if value.hasSuffix(";") { value.removeLast(); value = value.trimmed(" \t") }
                out.append(Assignment(rawKey: key, value: value))
            }
        }
        visit(path, from: nil)
        return (out, warnings)
    }
}
