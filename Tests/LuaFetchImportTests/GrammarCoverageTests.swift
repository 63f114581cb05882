// The grammar fuzzer's coverage (issue 37 item 7): every StmtSyntax, ExprSyntax, DeclSyntax and
// PatternSyntax kind of swift-syntax (read at run time from the base nodes' `structure`) occurs in
// a template of Tests/fuzz/swift_grammar.py, except the kinds its EXCLUDED list names and
// explains; every template parses as the importer parses (Parsing.parse: no error, operators
// folded). Uses SwiftSyntax/SwiftParser and python3 (GrammarApps runs the generator).
import Foundation
import Testing
import SwiftSyntax
import SwiftParser
@testable import LuaFetchImport

/// The generator, run with python3: its template apps, random apps and exclusion list.
enum GrammarApps {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../fuzz/swift_grammar.py").standardizedFileURL.path

    /// Runs swift_grammar.py with `arguments`; its standard output.
    static func python(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ImportError("swift_grammar.py \(arguments): exit \(p.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// (label, Swift) of each app the generator writes with `arguments` (besides --out).
    static func apps(_ arguments: [String]) throws -> [(label: String, swift: String)] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-grammar-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try python(["--out", dir] + arguments)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
            .sorted { $0.split(separator: "-").last.flatMap { Int($0) } ?? 0 < $1.split(separator: "-").last.flatMap { Int($0) } ?? 0 }
        return try names.map { name in
            let text = try String(contentsOfFile: dir + "/" + name + "/AppDelegate.swift", encoding: .utf8)
            let first = text.prefix(while: { $0 != "\n" })
            return (first.hasPrefix("// ") ? String(first.dropFirst(3)) : name, text)
        }
    }

    /// One app per template (every template once).
    static let templates: [(label: String, swift: String)] = (try? apps(["--templates"])) ?? []

    /// The kinds EXCLUDED names (kind → why).
    static func excluded() throws -> [String: String] {
        let json = try python(["--excluded"])
        return (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]) ?? [:]
    }
}

@Suite struct GrammarCoverageTests {
    /// swift-syntax's statement, expression, declaration and pattern kinds, by node type name.
    static var grammarKinds: Set<String> {
        var kinds: Set<String> = []
        for structure in [DeclSyntax.structure, ExprSyntax.structure, StmtSyntax.structure, PatternSyntax.structure] {
            guard case .choices(let choices) = structure else { continue }
            for case .node(let type) in choices { kinds.insert("\(type)") }
        }
        return kinds
    }

    final class KindCollector: SyntaxAnyVisitor {
        var kinds: Set<String> = []
        override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
            kinds.insert("\(node.syntaxNodeType)")
            return .visitChildren
        }
    }

    /// The kinds in `swift`, as parsed (SequenceExpr, UnresolvedAsExpr, ...) and as the importer
    /// reads it with its operators folded (InfixOperatorExpr, AsExpr, ...). Throws the parse error.
    static func kinds(in swift: String, label: String) throws -> Set<String> {
        let collector = KindCollector(viewMode: .sourceAccurate)
        collector.walk(Parser.parse(source: swift))
        let file = try Parsing.parse(SwiftSource(path: label, shown: "AppDelegate.swift", text: swift))
        collector.walk(file.tree)
        return collector.kinds
    }

    /// The grammar kinds none of `apps` has, beside the `excluded` ones.
    static func missing(_ apps: [(label: String, swift: String)], excluded: Set<String>) throws -> Set<String> {
        var seen: Set<String> = []
        for app in apps { seen.formUnion(try kinds(in: app.swift, label: app.label)) }
        return grammarKinds.subtracting(seen).subtracting(excluded)
    }

    @Test func theGrammarIsReadAtRunTime() {
        let kinds = Self.grammarKinds
        #expect(kinds.count > 100, "\(kinds.count) kinds")
        for k in ["ForStmtSyntax", "ClosureExprSyntax", "StructDeclSyntax", "TuplePatternSyntax"] { #expect(kinds.contains(k)) }
    }

    @Test func everyTemplateParsesAsTheImporterReadsIt() throws {
        #expect(GrammarApps.templates.count > 100)
        for app in GrammarApps.templates {
            #expect(throws: Never.self, "template \(app.label)") { _ = try Self.kinds(in: app.swift, label: app.label) }
        }
    }

    @Test func everyKindHasATemplateOrADocumentedExclusion() throws {
        let excluded = try GrammarApps.excluded()
        for (kind, why) in excluded {
            #expect(Self.grammarKinds.contains(kind), "EXCLUDED names \(kind), not a kind of this swift-syntax")
            #expect(!why.isEmpty)
        }
        let missing = try Self.missing(GrammarApps.templates, excluded: Set(excluded.keys))
        #expect(missing.isEmpty, "kinds no template of swift_grammar.py has (add one, or exclude it saying why): \(missing.sorted())")
        // An exclusion a template covers anyway is out of date.
        var seen: Set<String> = []
        for app in GrammarApps.templates { seen.formUnion(try Self.kinds(in: app.swift, label: app.label)) }
        #expect(seen.intersection(excluded.keys).isEmpty, "excluded yet covered: \(seen.intersection(excluded.keys).sorted())")
    }

    /// The check can fail: without the templates that have a `yield` (or a `fallthrough`), their
    /// kind is reported missing.
    @Test func theCheckFailsWhenATemplateIsRemoved() throws {
        let excluded = Set(try GrammarApps.excluded().keys)
        for (kind, marker) in [("YieldStmtSyntax", "yield "), ("FallThroughStmtSyntax", "fallthrough")] {
            let without = GrammarApps.templates.filter { !$0.swift.contains(marker) }
            #expect(without.count < GrammarApps.templates.count)
            #expect(try Self.missing(without, excluded: excluded).contains(kind))
        }
    }
}
