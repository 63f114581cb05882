// --format jsonl validated against docs/jsonl.schema.json for every example, and --trace files that
// parse, with slices that never partially overlap on a track; both byte-identical across runs.
import Foundation
import Testing

/// A small JSON Schema validator: type, const, enum, required, properties, additionalProperties,
/// items, minimum and oneOf; enough for docs/jsonl.schema.json.
func validate(_ value: Any, _ schema: [String: Any], path: String = "$") -> [String] {
    if let options = schema["oneOf"] as? [[String: Any]] {
        let passing = options.filter { validate(value, $0, path: path).isEmpty }
        return passing.count == 1 ? [] : ["\(path): matches \(passing.count) of oneOf"]
    }
    var errors: [String] = []
    if let c = schema["const"], !same(value, c) { errors.append("\(path): not \(c)") }
    if let e = schema["enum"] as? [Any], !e.contains(where: { same(value, $0) }) { errors.append("\(path): \(value) not in enum") }
    if let t = schema["type"] {
        let types = (t as? [String]) ?? [t as! String]
        if !types.contains(where: { isType(value, $0) }) { errors.append("\(path): not \(types)") }
    }
    if let min = schema["minimum"] as? Double, let n = value as? NSNumber, n.doubleValue < min { errors.append("\(path): below \(min)") }
    if let obj = value as? [String: Any], !(value is NSNumber) {
        for r in (schema["required"] as? [String]) ?? [] where obj[r] == nil { errors.append("\(path): missing \(r)") }
        let props = (schema["properties"] as? [String: [String: Any]]) ?? [:]
        for (k, v) in obj {
            if let p = props[k] { errors += validate(v, p, path: "\(path).\(k)") }
            else if (schema["additionalProperties"] as? Bool) == false { errors.append("\(path): unexpected \(k)") }
        }
    }
    if let arr = value as? [Any], let items = schema["items"] as? [String: Any] {
        for (i, v) in arr.enumerated() { errors += validate(v, items, path: "\(path)[\(i)]") }
    }
    return errors
}

func isType(_ v: Any, _ t: String) -> Bool {
    switch t {
    case "null": return v is NSNull
    case "boolean": return isBool(v)
    case "integer": return (v as? NSNumber).map { !isBool(v) && $0.doubleValue.rounded() == $0.doubleValue } ?? false
    case "number": return v is NSNumber && !isBool(v)
    case "string": return v is String
    case "array": return v is [Any]
    case "object": return v is [String: Any]
    default: return false
    }
}

/// JSONSerialization's booleans are NSNumbers of Objective-C type "c".
func isBool(_ v: Any) -> Bool {
    guard let n = v as? NSNumber else { return false }
    return String(cString: n.objCType) == "c"
}

func same(_ a: Any, _ b: Any) -> Bool {
    if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
    if let x = a as? String, let y = b as? String { return x == y }
    if let x = a as? NSNumber, let y = b as? NSNumber { return isType(x, "boolean") == isType(y, "boolean") && x == y }
    return false
}

@Suite(.serialized) struct MachineOutputTests {
    nonisolated(unsafe) static let schema: [String: Any] = {
        let data = try! Data(contentsOf: CLI.root.appendingPathComponent("docs/jsonl.schema.json"))
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }()

    @Test func theValidatorRejectsWhatTheSchemaForbids() {
        #expect(!validate(["type": "header"], Self.schema).isEmpty)
        #expect(!validate(["type": "event", "t": -1, "actor": "app", "kind": "log", "message": "x"], Self.schema).isEmpty)
        #expect(!validate(["type": "event", "t": 1, "actor": "app", "kind": "log", "message": "x", "extra": 1], Self.schema).isEmpty)
        #expect(validate(["type": "event", "t": 1, "actor": "app", "kind": "log", "message": "x"], Self.schema).isEmpty)
    }

    @Test(arguments: CLI.examples)
    func jsonlMatchesTheSchema(name: String) throws {
        let r = try CLI.run(["examples/\(name)", "--format", "jsonl"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count >= 2)
        var types: [String] = []
        for (i, line) in lines.enumerated() {
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8))
            let errors = validate(obj, Self.schema, path: "line \(i + 1)")
            #expect(errors.isEmpty, "\(name): \(errors.prefix(3))")
            types.append((obj as? [String: Any])?["type"] as? String ?? "?")
        }
        #expect(types.first == "header")
        #expect(types.last == "summary")
        #expect(types.dropFirst().dropLast().allSatisfy { $0 == "event" })
        let again = try CLI.run(["examples/\(name)", "--format", "jsonl"])
        #expect(again.stdout == r.stdout)
    }

    @Test(arguments: CLI.examples)
    func traceParsesAndSlicesNest(name: String) throws {
        let dir = FileManager.default.temporaryDirectory
        let a = dir.appendingPathComponent("luafetch-\(UUID().uuidString).json").path
        let b = dir.appendingPathComponent("luafetch-\(UUID().uuidString).json").path
        #expect(try CLI.run(["examples/\(name)", "--quiet", "--trace", a]).status == 0)
        #expect(try CLI.run(["examples/\(name)", "--quiet", "--trace", b]).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: a))
        #expect(data == (try Data(contentsOf: URL(fileURLWithPath: b))))
        let doc = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let events = doc["traceEvents"] as! [[String: Any]]
        #expect(events.contains { $0["ph"] as? String == "X" && $0["cat"] as? String == "state" })
        var tracks: [String: [(Int, Int)]] = [:]
        for e in events where e["ph"] as? String == "X" {
            let key = "\(e["pid"]!)/\(e["tid"]!)"
            let ts = (e["ts"] as! NSNumber).intValue, dur = (e["dur"] as! NSNumber).intValue
            #expect(dur >= 0)
            tracks[key, default: []].append((ts, ts + dur))
        }
        for (track, slices) in tracks {
            let sorted = slices.sorted { $0 < $1 }
            for (x, y) in zip(sorted, sorted.dropFirst()) {
                let nests = y.1 <= x.1, after = y.0 >= x.1
                #expect(nests || after, "\(name) track \(track): \(x) and \(y) overlap partially")
            }
        }
        // Tracks are named as the page's lanes (never "pushs 1"), numbered from the second on.
        let trackNames = Set(events.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String })
        let lanes: Set<String> = ["state", "background time", "scene", "background tasks", "fetches", "BGTasks", "pushes", "URL-session events"]
        for t in trackNames {
            let base = t.replacing(/\ [0-9]+$/, with: "")
            #expect(lanes.contains(base) || base.hasSuffix(".test"), "\(name): track \(t)")
            #expect(!t.hasSuffix(" 1"), "\(name): track \(t)")
        }
        if name == "silent_push.lua" { #expect(trackNames.contains("pushes")) }
        if name == "background_mistakes.lua" { #expect(trackNames.isSuperset(of: ["BGTasks", "pushes"])) }
        if name == "background_download.lua" { #expect(trackNames.contains("URL-session events")) }
        if name == "leaky_task.lua" {
            #expect(trackNames.isSuperset(of: ["background tasks", "background tasks 2"]))
            #expect(events.contains { $0["ph"] as? String == "i" && $0["name"] as? String == "task-expired" })
            #expect(events.filter { $0["cat"] as? String == "task" }.count == 2)
        }
        if name == "twitter.lua" {
            #expect(events.filter { $0["cat"] as? String == "fetch" }.count == 100)
            #expect(events.contains { $0["cat"] as? String == "request" })
        }
    }
}
