// A target's build settings for the Release configuration (SPEC 18.8.1), as Xcode layers them:
// built-in defaults < project xcconfig < project settings < target xcconfig < target settings,
// each level's `$(inherited)` (and a setting naming itself) meaning the assignment before it in
// the level (an xcconfig's includes come first), else the level below; a
// conditional assignment (`KEY[sdk=iphoneos*][arch=*]`) that matches an iOS device wins over the
// unconditional one of its level. Expansion of `$(VAR)` and `${VAR}` (nested, with the modifiers
// `:rfc1034identifier`, `:c99extidentifier`, `:identifier`, `:lower`, `:upper`, `:base`, `:dir`,
// `:file`, `:suffix`, `:default=`) and `$NAME`; a name defined nowhere is empty, as Xcode has
// it, and the caller is told which (the Info.plist warns). Uses nothing else.

/// One `KEY[conditions] = value` assignment.
struct Assignment: Sendable {
    var key: String
    var conditions: [(key: String, pattern: String)] = []
    var value: String

    /// `KEY[sdk=iphoneos*][arch=*]` split into the key and its conditions.
    init(rawKey: String, value: String) {
        self.value = value
        guard let open = rawKey.firstIndex(of: "[") else { key = rawKey; return }
        key = String(rawKey[..<open])
        var rest = rawKey[open...]
        while rest.first == "[", let close = rest.firstIndex(of: "]") {
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            let parts = inner.split(separator: "=", maxSplits: 1)
            conditions.append((String(parts[0]).trimmed(" "), parts.count > 1 ? String(parts[1]).trimmed(" ") : "*"))
            rest = rest[rest.index(after: close)...]
        }
    }
}

struct BuildSettings: Sendable {
    /// The levels, lowest first; in each, a key's assignments in the order written.
    private(set) var levels: [[String: [Assignment]]] = []
    /// Xcode's own values (TARGET_NAME, SRCROOT, ...), below every level.
    var builtins: [String: String] = [:]
    /// The configuration the conditions match (`[config=Release]`).
    var configuration = "Release"

    /// Adds a level above the others.
    mutating func addLevel(_ assignments: [Assignment]) {
        var level: [String: [Assignment]] = [:]
        for a in assignments { level[a.key, default: []].append(a) }
        levels.append(level)
    }

    /// Adds a level from a settings dictionary (a pbxproj's `buildSettings`, XcodeGen's
    /// `settings`): lists are joined with spaces, as Xcode reads them.
    mutating func addLevel(_ dict: [String: PlistValue]) {
        var list: [Assignment] = []
        for key in dict.keys.sorted() {
            let v: String
            switch dict[key]! {
            case .string(let s): v = s
            case .array(let a): v = a.compactMap { $0.string.map(Self.quoteWord) }.joined(separator: " ")
            case .bool(let b): v = b ? "YES" : "NO"
            case .integer(let i): v = String(i)
            case .real(let d): v = d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
            case .dict: continue
            }
            list.append(Assignment(rawKey: key, value: v))
        }
        addLevel(list)
    }

    private static func quoteWord(_ s: String) -> String {
        s.contains(" ") && !s.hasPrefix("\"") ? "\"\(s)\"" : s
    }

    /// Whether a condition of an assignment holds for an iOS device build of this configuration.
    private func matches(_ a: Assignment) -> Bool {
        for c in a.conditions {
            let subject: String
            switch c.key {
            case "sdk": subject = "iphoneos26.0"
            case "arch": subject = "arm64"
            case "config": subject = configuration
            case "variant": subject = "normal"
            default: return false
            }
            if !Glob.matches(c.pattern, subject) && !(c.key == "sdk" && Glob.matches(c.pattern, "iphoneos")) { return false }
        }
        return true
    }

    /// The assignments of `key` that count at level `i`, in the order they apply: the
    /// unconditional ones as written, then the matching conditional ones (more specific, they
    /// win). Since Xcode 10 a later one's `$(inherited)` is the one before it in the level.
    private func chain(_ key: String, level i: Int) -> [String] {
        guard let list = levels[i][key] else { return [] }
        return list.filter { $0.conditions.isEmpty }.map(\.value) + list.filter { !$0.conditions.isEmpty && matches($0) }.map(\.value)
    }

    private func raw(_ key: String, level i: Int) -> String? { chain(key, level: i).last }

    /// Whether a level (not a built-in) sets `key`.
    func isSet(_ key: String) -> Bool {
        levels.indices.contains { raw(key, level: $0) != nil }
    }

    /// The expanded value of `key`, or nil when nothing defines it.
    /// What one expansion met: the names nothing defines, and its work so far (bounded: a
    /// project whose settings name each other twice per level must not take forever).
    struct Expansion {
        var names = Set<String>()
        var steps = 0
    }

    func value(_ key: String) -> String? {
        var missing = Expansion()
        return resolve(key, below: levels.count, depth: 0, missing: &missing)
    }

    /// `value(key)` read as a boolean (YES, true, 1).
    func flag(_ key: String) -> Bool {
        guard let v = value(key)?.trimmed(" ").lowercased() else { return false }
        return v == "yes" || v == "true" || v == "1"
    }

    /// Text with every `$(VAR)` / `${VAR}` replaced from these settings (a name defined nowhere
    /// is empty, as Xcode has it).
    func expand(_ text: String) -> String { expandTracking(text).text }

    /// `expand`, and the names it met that nothing defines (the caller warns about them).
    func expandTracking(_ text: String) -> (text: String, missing: Set<String>) {
        var missing = Expansion()
        let t = expand(text, key: nil, level: levels.count, position: 0, depth: 0, missing: &missing)
        return (t, missing.names)
    }

    /// The value of `key` from the levels below `top` (nil when none sets it).
    private func resolve(_ key: String, below top: Int, depth: Int, missing: inout Expansion) -> String? {
        missing.steps += 1
        guard missing.steps < 20_000 else { return nil }
        var i = top - 1
        while i >= 0 {
            let c = chain(key, level: i)
            if !c.isEmpty { return resolve(key, level: i, position: c.count - 1, chain: c, depth: depth, missing: &missing) }
            i -= 1
        }
        if top >= 0, let b = builtins[key] { return expand(b, key: key, level: -1, position: 0, depth: depth + 1, missing: &missing) }
        return nil
    }

    /// The value of the assignment at `position` of `key`'s chain at `level`.
    private func resolve(_ key: String, level: Int, position: Int, chain: [String], depth: Int, missing: inout Expansion) -> String {
        expand(chain[position], key: key, level: level, position: position, depth: depth + 1, missing: &missing)
    }

    /// What `$(inherited)` means for the assignment at (`level`, `position`) of `key`.
    private func inherited(_ key: String, level: Int, position: Int, depth: Int, missing: inout Expansion) -> String {
        guard level >= 0 else { return "" }
        if position > 0 {
            let c = chain(key, level: level)
            if position - 1 < c.count { return resolve(key, level: level, position: position - 1, chain: c, depth: depth, missing: &missing) }
        }
        return resolve(key, below: level, depth: depth + 1, missing: &missing) ?? ""
    }

    private static func isNameChar(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "_") }

    /// Expands the references in `text`, a value of `key` at `level` (`$(inherited)` is below it).
    private func expand(_ text: String, key: String?, level: Int, position: Int, depth: Int, missing: inout Expansion) -> String {
        guard depth < 24, text.contains("$") else { return text }
        let chars = Array(text)
        var out = ""
        var i = 0
        while i < chars.count {
            let c = chars[i]
            guard c == "$", i + 1 < chars.count else { out.append(c); i += 1; continue }
            if chars[i + 1] != "(" && chars[i + 1] != "{" {
                // `$NAME`: replaced when something defines NAME, else left as written.
                var j = i + 1
                while j < chars.count && Self.isNameChar(chars[j]) { j += 1 }
                let name = String(chars[(i + 1)..<j])
                if let f = name.first, !f.isNumber, let v = (name == key ? inherited(name, level: level, position: position, depth: depth + 1, missing: &missing)
                                                               : resolve(name, below: levels.count, depth: depth + 1, missing: &missing)) {
                    out += v
                    i = j
                } else {
                    out.append(c)
                    i += 1
                }
                continue
            }
            let close: Character = chars[i + 1] == "(" ? ")" : "}"
            // The matching close, nested references counted.
            var j = i + 2, nest = 0
            while j < chars.count {
                if chars[j] == "(" || chars[j] == "{" { nest += 1 }
                if chars[j] == close || (nest > 0 && (chars[j] == ")" || chars[j] == "}")) {
                    if nest == 0 { break }
                    nest -= 1
                }
                j += 1
            }
            guard j < chars.count else { out += String(chars[i...]); break }
            let inner = expand(String(chars[(i + 2)..<j]), key: key, level: level, position: position, depth: depth + 1, missing: &missing)
            i = j + 1
            var parts = inner.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let name = parts.removeFirst()
            let value: String?
            if name == "inherited" || name == key {
                value = key.map { inherited($0, level: level, position: position, depth: depth + 1, missing: &missing) } ?? ""
            } else if !name.isEmpty, name.allSatisfy(Self.isNameChar) {
                value = resolve(name, below: levels.count, depth: depth + 1, missing: &missing)
            } else {
                value = nil
            }
            guard var v = value else {
                // Defined nowhere: `:default=` gives it, else it is empty (as Xcode has it), noted.
                if let d = parts.first(where: { $0.hasPrefix("default=") }) { out += String(d.dropFirst(8)); continue }
                if name.isEmpty && parts.isEmpty { continue }  // `$()`: nothing (`https:/$()/host` writes `//`)
                if name.isEmpty || !name.allSatisfy(Self.isNameChar) { out += "$(" + inner + ")"; continue }
                if missing.steps < 20_000 { missing.names.insert(name) }
                continue
            }
            for m in parts { v = Self.modify(v, m) }
            out += v
        }
        return out
    }

    /// One modifier of a reference (`$(NAME:modifier)`).
    static func modify(_ v: String, _ m: String) -> String {
        switch m {
        case "lower": return v.lowercased()
        case "upper": return v.uppercased()
        case "rfc1034identifier": return String(v.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        case "c99extidentifier", "identifier": return c99Identifier(v)
        case "dir": return ProjectPaths.folder(of: v) + "/"
        case "file": return ProjectPaths.name(of: v)
        case "base":
            let f = ProjectPaths.name(of: v)
            return f.lastIndex(of: ".").map { String(f[..<$0]) } ?? f
        case "suffix":
            let f = ProjectPaths.name(of: v)
            return f.lastIndex(of: ".").map { String(f[$0...]) } ?? ""
        case "standardizepath": return ProjectPaths.normalize(v)
        case _ where m.hasPrefix("default="): return v.isEmpty ? String(m.dropFirst(8)) : v
        default: return v
        }
    }

    /// A name made a C99 identifier, as Xcode makes module names (`My App-iOS` → `My_App_iOS`).
    static func c99Identifier(_ v: String) -> String {
        var s = String(v.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
        if let f = s.first, f.isNumber { s = "_" + s }
        return s
    }

    /// A list setting's words (`A "B C" D\ E`), quotes removed.
    static func words(_ s: String) -> [String] {
        var out: [String] = [], word = "", quote: Character? = nil, escaped = false, any = false
        for c in s {
            if escaped { word.append(c); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
                continue
            }
            if c == "\"" || c == "'" { quote = c; any = true; continue }
            if c == " " || c == "\t" || c == "\n" {
                if !word.isEmpty || any { out.append(word) }
                word = ""; any = false
                continue
            }
            word.append(c)
        }
        if !word.isEmpty || any { out.append(word) }
        return out
    }

    /// The conditions `#if` sees, sorted: SWIFT_ACTIVE_COMPILATION_CONDITIONS and every `-D NAME`
    /// (or `-DNAME`) of OTHER_SWIFT_FLAGS, which the compiler reads alike.
    static func compilationConditions(_ settings: BuildSettings) -> [String] {
        var names = words(settings.value("SWIFT_ACTIVE_COMPILATION_CONDITIONS") ?? "")
        let flags = words(settings.value("OTHER_SWIFT_FLAGS") ?? "")
        for (i, flag) in flags.enumerated() {
            if flag == "-D", i + 1 < flags.count { names.append(flags[i + 1]) }
            else if flag.hasPrefix("-D"), flag.count > 2 { names.append(String(flag.dropFirst(2))) }
        }
        return Array(Set(names.filter { !$0.isEmpty && !$0.contains("$") })).sorted()
    }

    /// Xcode's built-in settings for a target of a project (Release, an iOS device).
    static func builtins(target: String, project: String, root: String, configuration: String) -> [String: String] {
        [
            "TARGET_NAME": target, "PROJECT_NAME": project, "SRCROOT": root, "PROJECT_DIR": root, "SOURCE_ROOT": root,
            "PROJECT_FILE_PATH": root + "/" + project + ".xcodeproj", "CONFIGURATION": configuration,
            "PLATFORM_NAME": "iphoneos", "EFFECTIVE_PLATFORM_NAME": "-iphoneos", "SDK_NAME": "iphoneos26.0",
            "PLATFORM_DISPLAY_NAME": "iOS", "CURRENT_ARCH": "arm64", "ARCHS": "arm64", "NATIVE_ARCH": "arm64",
            "PRODUCT_NAME": "$(TARGET_NAME)", "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)",
            "EXECUTABLE_NAME": "$(PRODUCT_NAME)", "DEVELOPMENT_LANGUAGE": "en", "PRODUCT_BUNDLE_PACKAGE_TYPE": "APPL",
            "WRAPPER_EXTENSION": "app", "FULL_PRODUCT_NAME": "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)",
            "BUILT_PRODUCTS_DIR": root + "/build/" + configuration + "-iphoneos", "TARGET_BUILD_DIR": "$(BUILT_PRODUCTS_DIR)",
            "CONFIGURATION_BUILD_DIR": "$(BUILT_PRODUCTS_DIR)", "DERIVED_FILE_DIR": root + "/build/DerivedSources",
            "ACTION": "build", "SWIFT_PLATFORM_TARGET_PREFIX": "ios", "LLVM_TARGET_TRIPLE_VENDOR": "apple",
        ]
    }

    /// The highest level that sets `key`, or -1.
    private func levelOf(_ key: String) -> Int {
        levels.indices.last { raw(key, level: $0) != nil } ?? -1
    }

    /// The platforms these settings build for: SDKROOT or SUPPORTED_PLATFORMS, whichever is set
    /// at the higher level (SUPPORTED_PLATFORMS at the same level: a multiplatform target's
    /// `SDKROOT = auto`); nil when neither says (the caller decides).
    func platforms() -> [Platform]? {
        let sdkLevel = levelOf("SDKROOT"), supportedLevel = levelOf("SUPPORTED_PLATFORMS")
        if supportedLevel >= 0 && supportedLevel >= sdkLevel, let supported = value("SUPPORTED_PLATFORMS") {
            let list = Set(Self.words(supported).compactMap(Platform.sdk))
            if !list.isEmpty { return list.sorted() }
        }
        if sdkLevel >= 0, let sdk = value("SDKROOT"), let p = Platform.sdk(sdk.trimmed(" ")) { return [p] }
        if supportedLevel >= 0, let supported = value("SUPPORTED_PLATFORMS") {
            let list = Set(Self.words(supported).compactMap(Platform.sdk))
            if !list.isEmpty { return list.sorted() }
        }
        return nil
    }
}
