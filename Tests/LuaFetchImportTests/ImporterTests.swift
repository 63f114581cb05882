import Testing
@testable import LuaFetchImport

@Suite struct ImporterTests {
    /// The scenario's default name is the imported folder's (a stand-in for the first cut's test,
    /// which named a function the importer never had and kept the test target from building).
    @Test func theDefaultNameIsTheLastPathComponent() {
        #expect(Importer.lastComponent("apps/Weather/") == "Weather")
        #expect(Importer.lastComponent(".") == "Imported app")
    }
}
