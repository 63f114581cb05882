// An XcodeGen spec as a tree of values (SPEC 18.8.1), read with Yams (never a hand-written
// parser): the spec file and the files its `include:` names (relative to it; with
// `relativePaths`, the default, the paths inside an included file are rewritten from its folder),
// merged as XcodeGen merges them (dictionaries key by key, the including file winning; a
// `KEY:REPLACE` key replaces). Also which `.yml` files are XcodeGen specs: a mapping with `name`
// and `targets` or `include`, that no other spec includes. Uses Yams, SourceFiles, ProjectPaths.
import Yams

/// A YAML value with what XcodeGen needs: scalars keep their text and their YAML type.
indirect enum YAMLValue: Sendable {
    case scalar(String, kind: ScalarKind)
    case map([String: YAMLValue])
    case list([YAMLValue])

    enum ScalarKind: Sendable { case string, bool, int, float, null }

    var string: String? {
        if case .scalar(let s, let k) = self, k != .null { return s }
        return nil
    }
    var map: [String: YAMLValue]? { if case .map(let m) = self { return m }; return nil }
    var list: [YAMLValue]? { if case .list(let l) = self { return l }; return nil }
    subscript(_ key: String) -> YAMLValue? { map?[key] }

    /// A scalar or a list of scalars as strings (`platform: iOS` or `platform: [iOS, tvOS]`).
    var strings: [String] {
        if let s = string { return [s] }
        return list?.compactMap(\.string) ?? []
    }

    /// As a property-list value (XcodeGen's `info.properties`): YAML's booleans and numbers typed.
    var plist: PlistValue? {
        switch self {
        case .scalar(let s, let k):
            switch k {
            case .bool: return .bool(["yes", "true", "on", "y"].contains(s.lowercased()))
            case .int: return Int(s).map(PlistValue.integer) ?? .string(s)
            case .float: return Double(s).map(PlistValue.real) ?? .string(s)
            case .null: return nil
            case .string: return .string(s)
            }
        case .map(let m):
            var out: [String: PlistValue] = [:]
            for (k, v) in m { if let p = v.plist { out[k] = p } }
            return .dict(out)
        case .list(let l):
            return .array(l.compactMap(\.plist))
        }
    }

    /// As a build setting's value (`YES`, `15.0`, lists joined by the caller).
    var setting: PlistValue? {
        switch self {
        case .scalar(let s, let k):
            if k == .null { return nil }
            if k == .bool { return .string(["yes", "true", "on", "y"].contains(s.lowercased()) ? "YES" : "NO") }
            return .string(s)
        case .list(let l): return .array(l.compactMap { $0.setting })
        case .map: return nil
        }
    }

    static func from(_ node: Node) -> YAMLValue {
        switch node {
        case .scalar(let s):
            let plain = s.style == .plain || s.style == .any
            guard plain else { return .scalar(s.string, kind: .string) }
            switch node.tag.rawValue {
            case Tag.Name.bool.rawValue: return .scalar(s.string, kind: .bool)
            case Tag.Name.int.rawValue: return .scalar(s.string, kind: .int)
            case Tag.Name.float.rawValue: return .scalar(s.string, kind: .float)
            case Tag.Name.null.rawValue: return .scalar(s.string, kind: .null)
            default: return .scalar(s.string, kind: .string)
            }
        case .mapping(let m):
            var out: [String: YAMLValue] = [:]
            for (k, v) in m { if let key = k.string { out[key] = from(v) } }
            return .map(out)
        case .sequence(let seq):
            return .list(seq.map(from))
        default:
            return .scalar("", kind: .null)
        }
    }

    /// `other` merged over this value, as XcodeGen merges included specs and templates:
    /// dictionaries key by key, lists one after the other, anything else replaced.
    func merged(with other: YAMLValue) -> YAMLValue {
        if case .list(let a) = self, case .list(let b) = other { return .list(a + b) }
        guard case .map(var mine) = self, case .map(let theirs) = other else { return other }
        for (k, v) in theirs {
            if k.hasSuffix(":REPLACE") { mine[String(k.dropLast(8))] = v; continue }
            mine[k] = mine[k].map { $0.merged(with: v) } ?? v
        }
        return .map(mine)
    }
}

enum XcodeGenSpec {
    /// A spec that could not be read: where (`file:line`) and why.
    struct Unreadable: Error { let place: String; let reason: String }

    /// Parses one YAML file.
    static func parse(_ path: String, shown: String) -> Result<YAMLValue, Unreadable> {
        guard let bytes = try? SourceFiles.read(path) else { return .failure(Unreadable(place: shown, reason: "cannot be read")) }
        if bytes.contains(0) { return .failure(Unreadable(place: shown + ":1", reason: "a binary file, not YAML")) }
        do {
            guard let node = try Yams.compose(yaml: String(decoding: bytes, as: UTF8.self)) else { return .success(.map([:])) }
            return .success(YAMLValue.from(node))
        } catch let e as YamlError {
            switch e {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
                return .failure(Unreadable(place: "\(shown):\(mark.line)", reason: problem))
            default:
                return .failure(Unreadable(place: shown + ":1", reason: "\(e)"))
            }
        } catch {
            return .failure(Unreadable(place: shown + ":1", reason: "\(error)"))
        }
    }

    /// Whether a parsed YAML file looks like an XcodeGen spec (or a part of one).
    static func looksLikeSpec(_ v: YAMLValue) -> Bool {
        guard let m = v.map else { return false }
        return m["targets"]?.map != nil || m["include"] != nil && m["name"] != nil
    }

    /// The files a spec includes (as they can be opened) with their `relativePaths`.
    static func includes(of v: YAMLValue, at path: String) -> [(path: String, relative: Bool)] {
        let folder = ProjectPaths.folder(of: path)
        var items: [YAMLValue] = []
        if let l = v["include"]?.list { items = l } else if let one = v["include"] { items = [one] }
        return items.compactMap { item in
            if let s = item.string { return (ProjectPaths.join(folder, s), true) }
            if let p = item["path"]?.string {
                let rel = item["relativePaths"]?.string.map { !["false", "no", "NO", "False"].contains($0) } ?? true
                return (ProjectPaths.join(folder, p), rel)
            }
            return nil
        }
    }

    /// The spec at `path` with its includes merged in; warnings for includes that cannot be read.
    static func load(_ path: String, shown: (String) -> String, depth: Int = 0,
                     warnings: inout [(where: String, text: String)]) -> Result<YAMLValue, Unreadable> {
        let parsed = parse(path, shown: shown(path))
        guard case .success(let own) = parsed else { return parsed }
        var merged = YAMLValue.map([:])
        if depth < 8 {
            for inc in includes(of: own, at: path) {
                guard ProjectPaths.kind(inc.path) == "f" else {
                    warnings.append((shown(path), "include \(shown(inc.path)): no such file; what it defines is left out"))
                    continue
                }
                switch load(inc.path, shown: shown, depth: depth + 1, warnings: &warnings) {
                case .success(var v):
                    let relDir = ProjectPaths.relative(ProjectPaths.folder(of: inc.path), to: ProjectPaths.folder(of: path))
                    if inc.relative && relDir != "." { v = rebase(v, by: relDir) }
                    merged = merged.merged(with: v)
                case .failure(let u):
                    warnings.append((u.place, "\(u.reason); this included spec is left out"))
                }
            }
        }
        var ownBody = own
        if case .map(var m) = ownBody { m["include"] = nil; ownBody = .map(m) }
        return .success(merged.merged(with: ownBody))
    }

    /// An included spec's paths made relative to the including spec's folder (`relativePaths`).
    static func rebase(_ spec: YAMLValue, by dir: String) -> YAMLValue {
        guard case .map(var m) = spec else { return spec }
        func path(_ v: YAMLValue) -> YAMLValue {
            if let s = v.string { return .scalar(s.hasPrefix("/") || s.hasPrefix("$") ? s : ProjectPaths.join(dir, s), kind: .string) }
            return v
        }
        func target(_ t: YAMLValue) -> YAMLValue {
            guard case .map(var tm) = t else { return t }
            if let sources = tm["sources"] {
                let list = sources.list ?? [sources]
                tm["sources"] = .list(list.map { s in
                    if s.string != nil { return path(s) }
                    guard case .map(var sm) = s, let p = sm["path"] else { return s }
                    sm["path"] = path(p)
                    return .map(sm)
                })
            }
            if case .map(var cf)? = tm["configFiles"] { for (k, v) in cf { cf[k] = path(v) }; tm["configFiles"] = .map(cf) }
            if case .map(var info)? = tm["info"], let p = info["path"] { info["path"] = path(p); tm["info"] = .map(info) }
            return .map(tm)
        }
        for key in ["targets", "targetTemplates"] {
            if case .map(var ts)? = m[key] { for (k, v) in ts { ts[k] = target(v) }; m[key] = .map(ts) }
        }
        if case .map(var cf)? = m["configFiles"] { for (k, v) in cf { cf[k] = path(v) }; m["configFiles"] = .map(cf) }
        if case .map(var ps)? = m["packages"] {
            for (k, v) in ps { if case .map(var pm) = v, let p = pm["path"] { pm["path"] = path(p); ps[k] = .map(pm) } }
            m["packages"] = .map(ps)
        }
        if let lp = m["localPackages"]?.list { m["localPackages"] = .list(lp.map(path)) }
        return .map(m)
    }
}
