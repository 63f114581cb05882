// The layout's rules (docs/DEVELOPING.md, "The layout"), read from the source tree so they stay
// true: LuaFetchCore never imports the Lua targets; only the door (Sources/LuaFetchScripting/Lua/)
// imports CLua or CLuaHost and calls the C API; LuaFetchImport uses neither the simulator nor Lua
// (its imports and its Package.swift dependencies); Reports/ calls none of the iOS model's World
// methods (its actions and state changes); no Swift, Lua or JavaScript file under Sources is over
// 450 lines; every folder inside a target has its README.md. Each rule is a function over (path,
// text) pairs, and `eachRuleCatchesItsViolation` hands every rule a tree that breaks it (the
// 450-line rule one per language), so none can pass vacuously.
import Foundation
import Testing

@Suite struct LayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    typealias SourceFile = (path: String, text: String)

    /// Every file under Sources (paths relative to the package root).
    static func tree() throws -> [SourceFile] {
        let sources = root.appendingPathComponent("Sources")
        guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var files: [SourceFile] = []
        for case let url as URL in walk where !url.hasDirectoryPath {
            let path = "Sources/" + url.path.dropFirst(sources.path.count + 1)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            files.append((path, text))
        }
        return files.sorted { $0.path < $1.path }
    }

    static let maxLines = 450
    static let door = "Sources/LuaFetchScripting/Lua/"
    static var cAPICall: Regex<Substring> { #/\b(?:lua_|luaL_|clua_)[A-Za-z_]+\s*\(/# }

    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count,
                  words[..<i].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "internal" }) else { return nil }
            return String(words[i + 1])
        }
    }

    static func swiftFiles(_ files: [SourceFile], under folder: String) -> [SourceFile] {
        files.filter { $0.path.hasPrefix(folder) && $0.path.hasSuffix(".swift") }
    }

    // MARK: - The rules (each returns what breaks it)

    /// LuaFetchCore is pure Swift: it imports no Lua target, nor the layers above it.
    static func coreImportsNoLua(_ files: [SourceFile]) -> [String] {
        swiftFiles(files, under: "Sources/LuaFetchCore/").flatMap { f in
            imports(f.text).filter { ["CLua", "CLuaHost", "LuaFetchScripting", "LuaFetchImport"].contains($0) }
                .map { "\(f.path) imports \($0)" }
        }
    }

    /// Only the door imports CLua or CLuaHost and calls `lua_*`, `luaL_*` or `clua_*`.
    static func onlyTheDoorTouchesTheCAPI(_ files: [SourceFile]) -> [String] {
        swiftFiles(files, under: "Sources/").filter { !$0.path.hasPrefix(door) }.flatMap { f -> [String] in
            let lua = imports(f.text).filter { $0 == "CLua" || $0 == "CLuaHost" }.map { "\(f.path) imports \($0)" }
            let calls = f.text.split(separator: "\n").enumerated().compactMap { n, line -> String? in
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                guard let m = code.firstMatch(of: cAPICall) else { return nil }
                return "\(f.path):\(n + 1) calls the C API (\(code[m.range]))"
            }
            return lua + calls
        }
    }

    /// LuaFetchImport is pure Swift on swift-syntax: neither the simulator nor Lua, in its imports or
    /// in its target's dependencies.
    static func importerStandsAlone(_ files: [SourceFile]) -> [String] {
        let banned = ["CLua", "CLuaHost", "LuaFetchCore", "LuaFetchScripting"]
        var found = swiftFiles(files, under: "Sources/LuaFetchImport/").flatMap { f in
            imports(f.text).filter { banned.contains($0) }.map { "\(f.path) imports \($0)" }
        }
        let manifest = files.first { $0.path == "Package.swift" }?.text ?? ""
        guard let start = manifest.range(of: "name: \"LuaFetchImport\"") else {
            return found + ["Package.swift: no target LuaFetchImport"]
        }
        let rest = manifest[start.upperBound...]
        let target = rest[..<(rest.range(of: ".target(")?.lowerBound ?? rest.endIndex)]
        found += banned.filter { target.contains("\"\($0)\"") }.map { "Package.swift: LuaFetchImport depends on \($0)" }
        return found
    }

    /// The reports read a run; they never act on it: no Reports/ file calls a method the iOS
    /// model adds to the World (its actions and state changes: `extension World` in iOS/).
    static func reportsDoNotDriveTheModel(_ files: [SourceFile]) -> [String] {
        var methods: Set<String> = []
        for f in swiftFiles(files, under: "Sources/LuaFetchCore/iOS/") {
            var inWorld = false
            for line in f.text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("extension World {") { inWorld = true; continue }
                if line.hasPrefix("}") { inWorld = false; continue }
                guard inWorld, let m = line.firstMatch(of: #/^    (?:public |private |fileprivate |@[A-Za-z_()]+ )*func ([A-Za-z_][A-Za-z_0-9]*)/#) else { continue }
                methods.insert(String(m.1))
            }
        }
        if methods.isEmpty { return ["Sources/LuaFetchCore/iOS/: no World methods found (the rule reads nothing)"] }
        return swiftFiles(files, under: "Sources/LuaFetchCore/Reports/").flatMap { f in
            f.text.split(separator: "\n").enumerated().flatMap { n, line in
                line.matches(of: #/[A-Za-z_0-9)\]]\.([A-Za-z_][A-Za-z_0-9]*)\(/#).compactMap { m in
                    methods.contains(String(m.1)) ? "\(f.path):\(n + 1) calls World.\(m.1) (the iOS model's)" : nil
                }
            }
        }
    }

    /// The sources the 450-line rule covers: Swift, and the Lua and JavaScript files embedded in
    /// the binary (the runtime of imported scenarios, the HTML page's scripts).
    static let limitedExtensions = [".swift", ".lua", ".js"]

    static func noLongSourceFiles(_ files: [SourceFile]) -> [String] {
        files.filter { f in f.path.hasPrefix("Sources/") && limitedExtensions.contains { f.path.hasSuffix($0) } }.compactMap { f in
            let lines = f.text.split(separator: "\n", omittingEmptySubsequences: false).count - (f.text.hasSuffix("\n") ? 1 : 0)
            return lines > maxLines ? "\(f.path): \(lines) lines (at most \(maxLines))" : nil
        }
    }

    /// Each folder inside a Swift target (Sources/TARGET/FOLDER/) has a README.md.
    static func everyFolderHasItsReadme(_ files: [SourceFile]) -> [String] {
        let targets = ["LuaFetchCore", "LuaFetchScripting", "LuaFetchImport"]
        var folders: Set<String> = []
        for f in files {
            let parts = f.path.split(separator: "/")
            guard parts.count >= 4, targets.contains(String(parts[1])), f.path.hasSuffix(".swift") else { continue }
            folders.insert(parts[0...2].joined(separator: "/"))
        }
        if folders.isEmpty { return ["Sources: no folders inside the targets"] }
        return folders.sorted().filter { folder in !files.contains { $0.path == folder + "/README.md" } }
            .map { "\($0) has no README.md" }
    }

    static var rules: [(name: String, check: ([SourceFile]) -> [String])] { [
        ("LuaFetchCore imports no Lua", coreImportsNoLua),
        ("only the door touches the C API", onlyTheDoorTouchesTheCAPI),
        ("LuaFetchImport uses neither the simulator nor Lua", importerStandsAlone),
        ("reports do not drive the iOS model", reportsDoNotDriveTheModel),
        ("no Swift, Lua or JavaScript file over \(maxLines) lines", noLongSourceFiles),
        ("every folder has its README", everyFolderHasItsReadme),
    ] }

    // MARK: - Tests

    @Test func theTreeKeepsTheLayoutsRules() throws {
        var files = try Self.tree()
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        files.append(("Package.swift", manifest))
        #expect(files.count > 100, "the source tree was read")
        for rule in Self.rules {
            let broken = rule.check(files)
            #expect(broken.isEmpty, "\(rule.name): \(broken.joined(separator: "; "))")
        }
    }

    /// A tree that breaks each rule once: every rule must report it (a rule that cannot fail is a
    /// defect).
    @Test func eachRuleCatchesItsViolation() throws {
        var files = try Self.tree()
        files.append(("Package.swift", try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)))
        let worldMethod = "userHome"
        #expect(files.contains { $0.path.hasPrefix("Sources/LuaFetchCore/iOS/") && $0.text.contains("func \(worldMethod)(") })
        let breaking: [(String, [SourceFile])] = [
            ("LuaFetchCore imports no Lua", [("Sources/LuaFetchCore/Engine/Bad.swift", "import CLua\n")]),
            ("only the door touches the C API", [("Sources/LuaFetchScripting/API/BadAPI.swift", "func f(_ L: OpaquePointer) { lua_pushnil(L) }\n")]),
            ("LuaFetchImport uses neither the simulator nor Lua", [("Sources/LuaFetchImport/Input/Bad.swift", "import LuaFetchCore\n")]),
            ("reports do not drive the iOS model", [("Sources/LuaFetchCore/Reports/Bad.swift", "func f(_ world: World) { world.\(worldMethod)() }\n")]),
            ("no Swift, Lua or JavaScript file over \(Self.maxLines) lines", [("Sources/LuaFetchCore/Engine/Long.swift", String(repeating: "let x = 1\n", count: Self.maxLines + 1))]),
            ("no Swift, Lua or JavaScript file over \(Self.maxLines) lines", [("Sources/LuaFetchScripting/API/Swift/long.lua", String(repeating: "local x = 1\n", count: Self.maxLines + 1))]),
            ("no Swift, Lua or JavaScript file over \(Self.maxLines) lines", [("Sources/LuaFetchCore/Reports/Page/long.js", String(repeating: "var x = 1;\n", count: Self.maxLines + 1))]),
            ("every folder has its README", [("Sources/LuaFetchCore/Elsewhere/Bad.swift", "let x = 1\n")]),
        ]
        for (name, extra) in breaking {
            let rule = try #require(Self.rules.first { $0.name == name })
            #expect(!rule.check(files + extra).isEmpty, "\(name) misses a file that breaks it")
        }
        // The manifest's side of the importer's rule.
        let rule = try #require(Self.rules.first { $0.name == "LuaFetchImport uses neither the simulator nor Lua" })
        let manifest = files.first { $0.path == "Package.swift" }!.text
        let bad = manifest.replacingOccurrences(of: "name: \"LuaFetchImport\",\n            dependencies: [", with: "name: \"LuaFetchImport\",\n            dependencies: [\"LuaFetchCore\", ")
        #expect(bad != manifest, "the test's edit of Package.swift applies")
        #expect(!rule.check(files.filter { $0.path != "Package.swift" } + [("Package.swift", bad)]).isEmpty)
    }
}
