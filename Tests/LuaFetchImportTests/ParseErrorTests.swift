// Tests for how the importer names a file that does not parse (SPEC 18.1, 18.7.14): the first
// error, `File.swift:LINE:COL: message`, in SwiftParserDiagnostics' words, described from the code
// around it when the file has many errors (Parsing.firstError), and a nesting overflow named where
// it starts. Uses Parsing.parseAll (on the importer's large-stack threads) and SwiftParserDiagnostics.
import Testing
import SwiftParser
import SwiftParserDiagnostics
import SwiftDiagnostics
import SwiftSyntax
@testable import LuaFetchImport

@Suite struct ParseErrorTests {
    func error(_ text: String) -> String? {
        do {
            _ = try Parsing.parseAll([SwiftSource(path: "Bad.swift", shown: "Bad.swift", text: text)])
            return nil
        } catch { return error.message }
    }

    /// The whole file's first error, as ParseDiagnosticsGenerator gives it.
    func wholeFile(_ text: String) -> String {
        var text = text
        let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: Parsing.maximumNestingLevel) }
        let d = ParseDiagnosticsGenerator.diagnostics(for: tree).first { $0.diagMessage.severity == .error }!
        let loc = d.location(converter: SourceLocationConverter(fileName: "Bad.swift", tree: tree))
        return "Bad.swift:\(loc.line):\(loc.column): \(d.message) (luafetch import reads Swift that compiles)"
    }

    @Test func aFileWithManyErrorsIsNamedAsTheWholeFileWouldBe() {
        // 40 unclosed ifs: 41 missing braces, over the whole-file limit.
        for text in ["func f() {" + String(repeating: "if true {", count: 40) + "\n",
                     "func f() {\n  let x = (1 +\n" + String(repeating: "  if true {\n", count: 30),
                     "struct S {\n" + String(repeating: "  var = \n", count: 30) + "}\n"] {
            #expect(error(text) == wholeFile(text))
        }
    }

    @Test func aFileWithFewErrorsIsNamedFromTheWholeFile() {
        let text = "func f() {\n  let x = \n}\n"
        #expect(error(text) == wholeFile(text))
        #expect(error(text)?.hasPrefix("Bad.swift:2:11: expected expression") == true, "\(error(text) ?? "")")
    }

    @Test func aNestingOverflowIsNamedWhereItStarts() {
        // 2,000 nested ifs: the parser stops at 1,024 levels; the rest of the file is the error.
        let text = "func f() {" + String(repeating: "if true {", count: 2000) + String(repeating: "}", count: 2000) + "}\n"
        let message = error(text)
        #expect(message?.hasPrefix("Bad.swift:1:") == true)
        #expect(message?.contains(": parsing has exceeded the maximum nesting level") == true)
        // 900 unclosed ifs (no overflow, 901 errors): the innermost if's missing brace.
        let unclosed = "func f() {" + String(repeating: "if true {", count: 900) + "\n"
        #expect(error(unclosed) == "Bad.swift:1:8111: expected '}' to end 'if' statement (luafetch import reads Swift that compiles)")
    }

    /// `(@MainActor() -> Void)?` compiles (session-ios has it); SwiftParser reads the `()` as the
    /// attribute's arguments. The importer parses it as the compiler does; its lines stay.
    @Test func anAttributeRightBeforeAFunctionTypesParensParses() throws {
        let text = "final class Row {\n    let onTap: (@MainActor() -> Void)?\n    let onDone: @Sendable() async -> Void = {}\n    init() { onTap = nil }\n}\n"
        #expect(error(text) == nil)
        let files = try Parsing.parseAll([SwiftSource(path: "Row.swift", shown: "Row.swift", text: text)])
        #expect(files[0].tree.description.contains("(@MainActor () -> Void)?"))
        #expect(Parsing.attributeBeforeFunctionType("@objc func f() {}\n@available(*, deprecated) var x = 1") == nil)
        #expect(error("let f: @MainActor() = 1") != nil)  // not a function type: still an error
    }

    @Test func aFileThatParsesHasNoError() {
        #expect(error("func f() {" + String(repeating: "if true {", count: 300) + String(repeating: "}", count: 300) + "}\n") == nil)
    }
}
