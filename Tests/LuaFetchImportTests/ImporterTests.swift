import Testing
@testable import LuaFetchImport

@Suite struct ImporterTests {
    @Test func parses() { #expect(Importer.parseCount("let x = 1\nprint(x)") == 2) }
}
