// Launch crashes of real apps' scenarios that were the importer's fault, not the app's (SPEC 18.9):
// each test is the Swift shape in our own words, and what Swift does with it. Swift in, what the
// app printed (or the import's outcome) out.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct RealLaunchTestsB {
    func printed(_ body: String, members: String = "", others: String = "") throws -> [String] {
        try TranslationTests().printed(body, members: members, others: others)
    }

    /// `text[...]`, the unbounded range as a subscript's argument, names no type: the slice's
    /// lookup of `...` as a dotted type name indexed an empty list and the importer itself
    /// crashed (element-x-ios).
    @Test func theUnboundedRangeIsNoTypeName() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(whole("abc"))
            """, members: """
            func whole(_ text: String) -> String { String(text[...]) }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
    }
}
