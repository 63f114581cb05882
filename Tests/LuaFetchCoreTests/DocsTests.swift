// The violation table of docs/RULES.md and the code agree: every code has one row, with the
// severity, exception code and description that `ViolationCode.info` gives it.
import Foundation
import Testing
@testable import LuaFetchCore

@Suite struct DocsTests {
    static let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/RULES.md")

    @Test func everyViolationCodeHasItsRowInRULES() throws {
        let text = try String(contentsOf: Self.rules, encoding: .utf8)
        for code in ViolationCode.allCases {
            let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `\(code.rawValue)` |") }
            #expect(rows.count == 1, "docs/RULES.md: \(rows.count) rows for \(code.rawValue)")
            guard let row = rows.first else { continue }
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[2] == code.severity.rawValue, "\(code.rawValue): severity")
            #expect(cells[3] == (code.exceptionCode ?? ""), "\(code.rawValue): exception code")
            #expect(cells[4] == code.info.summary, "\(code.rawValue): when")
        }
    }

    @Test func theJSONLSchemaListsEveryViolationCode() throws {
        let url = Self.rules.deletingLastPathComponent().appendingPathComponent("jsonl.schema.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: "\"code\": { \"enum\": ["), let end = text[start.upperBound...].firstIndex(of: "]") else {
            Issue.record("docs/jsonl.schema.json has no enum of violation codes")
            return
        }
        let codes = text[start.upperBound..<end].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        #expect(codes == ViolationCode.allCases.map(\.rawValue))
    }
}
