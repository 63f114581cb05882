// CoverageReport's formats: lcov's tracefile, Cobertura XML, and explore's JSON Lines records
// (read back by `--merge`, and added up to the bytes one run writes). Uses the JSON writer and
// reader (JSON.swift); the report itself is Coverage.swift's.

extension CoverageReport {
    // MARK: lcov

    /// lcov's tracefile format (geninfo(1)): `SF`, `FN`/`FNDA`, `FNF`/`FNH`, `DA`, `LF`/`LH`,
    /// `end_of_record` for each file. What Codecov, Coveralls and genhtml read.
    public var lcov: String {
        var out = ""
        for f in files {
            out += "TN:\nSF:\(Self.oneLine(f.path))\n"
            let names = Self.uniqueNames(f.functions)
            for (g, name) in zip(f.functions, names) { out += "FN:\(g.line),\(name)\n" }
            for (g, name) in zip(f.functions, names) { out += "FNDA:\(g.calls),\(name)\n" }
            out += "FNF:\(f.functions.count)\nFNH:\(f.functions.filter(\.ran).count)\n"
            for l in f.lines { out += "DA:\(l.line),\(l.hits)\n" }
            out += "LF:\(f.lines.count)\nLH:\(f.covered)\nend_of_record\n"
        }
        return out
    }

    /// Function names lcov can read back (no comma or line break) and tell apart (a name used twice
    /// in a file gets `@LINE`).
    static func uniqueNames(_ fs: [Function]) -> [String] {
        let plain = fs.map { oneLine($0.name).replacingScalars { $0 == "," ? ";" : nil } }
        var seen: [String: Int] = [:]
        for n in plain { seen[n, default: 0] += 1 }
        return zip(fs, plain).map { seen[$1]! > 1 ? "\($1)@\($0.line)" : $1 }
    }

    static func oneLine(_ s: String) -> String { s.replacingScalars { $0 == "\n" || $0 == "\r" ? " " : nil } }

    // MARK: Cobertura

    /// Cobertura's XML (coverage-04.dtd), as GitLab's coverage view reads it: a package per
    /// folder, a class per file, its functions as methods. The timestamp is 0 (the same input
    /// gives the same bytes).
    public func cobertura(version: String) -> String {
        func rate(_ covered: Int, _ valid: Int) -> String {
            guard valid > 0 else { return "1" }
            let tenThousandths = (covered * 10_000 + valid / 2) / valid
            let s = String(tenThousandths % 10_000)
            return "\(tenThousandths / 10_000).\(String(repeating: "0", count: 4 - s.count))\(s)"
        }
        let esc = HTMLReport.escape
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
        out += "<coverage line-rate=\"\(rate(linesCovered, linesValid))\" branch-rate=\"0\" lines-covered=\"\(linesCovered)\" lines-valid=\"\(linesValid)\" branches-covered=\"0\" branches-valid=\"0\" complexity=\"0\" version=\"\(esc(version))\" timestamp=\"0\">\n"
        out += "  <sources>\n    <source>.</source>\n  </sources>\n  <packages>\n"
        var packages: [String: [File]] = [:]
        for f in files { packages[f.path.lastIndex(of: "/").map { String(f.path[..<$0]) } ?? ".", default: []].append(f) }
        for name in packages.keys.sorted() {
            let fs = packages[name]!
            let valid = fs.reduce(0) { $0 + $1.lines.count }, covered = fs.reduce(0) { $0 + $1.covered }
            out += "    <package name=\"\(esc(name))\" line-rate=\"\(rate(covered, valid))\" branch-rate=\"0\" complexity=\"0\">\n      <classes>\n"
            for f in fs {
                let base = f.path.lastIndex(of: "/").map { String(f.path[f.path.index(after: $0)...]) } ?? f.path
                out += "        <class name=\"\(esc(base))\" filename=\"\(esc(f.path))\" line-rate=\"\(rate(f.covered, f.lines.count))\" branch-rate=\"0\" complexity=\"0\">\n"
                out += "          <methods>\n"
                for (g, name) in zip(f.functions, Self.uniqueNames(f.functions)) {
                    out += "            <method name=\"\(esc(name))\" signature=\"\" line-rate=\"\(g.ran ? "1" : "0")\" branch-rate=\"0\" complexity=\"0\">"
                    out += "<lines><line number=\"\(g.line)\" hits=\"\(g.calls)\" branch=\"false\"/></lines></method>\n"
                }
                out += "          </methods>\n          <lines>\n"
                for l in f.lines { out += "            <line number=\"\(l.line)\" hits=\"\(l.hits)\" branch=\"false\"/>\n" }
                out += "          </lines>\n        </class>\n"
            }
            out += "      </classes>\n    </package>\n"
        }
        out += "  </packages>\n</coverage>\n"
        return out
    }

    // MARK: JSON Lines (explore's shards)

    /// One `coverage` record per file, for a shard's JSON Lines.
    public var records: [JSON] {
        files.map { f in
            .object([
                ("type", .string("coverage")), ("file", .string(f.path)),
                ("lines", .array(f.lines.map { .array([.int($0.line), .int(Int64(clamping: $0.hits))]) })),
                ("functions", .array(f.functions.map { g in
                    .array([.int(g.line), .string(g.name), .int(Int64(clamping: g.hits)), .bool(g.ran), .string(g.role.key),
                            .opt(g.parent), .opt(g.scenarioLine)])
                })),
            ])
        }
    }

    /// A file back from its `coverage` record; nil (and why) when the record is not one.
    public static func file(from j: JSON) -> Result<File, CoverageRecordError> {
        guard let path = j["file"]?.stringValue, !path.isEmpty, let ls = j["lines"]?.arrayValue, let fs = j["functions"]?.arrayValue else {
            return .failure(CoverageRecordError(message: "a coverage record without its file, lines and functions"))
        }
        var lines: [(line: Int, hits: UInt64)] = []
        var last = 0
        for l in ls {
            guard let pair = l.arrayValue, pair.count == 2, let n = pair[0].intValue, let h = pair[1].intValue, n > last, n <= 1 << 24, h >= 0 else {
                return .failure(CoverageRecordError(message: "coverage of \(path): lines must be [line, hits] pairs, lines increasing from 1, hits not negative"))
            }
            lines.append((line: Int(n), hits: UInt64(h)))
            last = Int(n)
        }
        var functions: [Function] = []
        for g in fs {
            guard let a = g.arrayValue, a.count == 7, let line = a[0].intValue, line >= 0, line <= 1 << 24, let name = a[1].stringValue,
                  let hits = a[2].intValue, hits >= 0, case .bool(let ran) = a[3], let key = a[4].stringValue, let role = FunctionRole(key: key) else {
                return .failure(CoverageRecordError(message: "coverage of \(path): a function must be [line, name, hits, ran, role, parent, scenario line]"))
            }
            functions.append(Function(line: Int(line), name: name, hits: UInt64(hits), ran: ran, role: role,
                                      parent: a[5].stringValue, scenarioLine: a[6].stringValue))
        }
        return .success(File(path: path, lines: lines, functions: functions))
    }
}
