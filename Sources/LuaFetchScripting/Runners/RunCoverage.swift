// Coverage of a runtime's runs (`--coverage`, explore's guidance, the page's covered lines): turns
// CLuaHost's per-run counts (read through LuaState, the door) into CoverageCounts, a run's map of
// line pairs into explore's guidance features (ExploreGuide), and counts into a CoverageReport
// over the files the runtime loaded (the scenario and the modules it required), whose lines that
// hold code come from compiling each file again (LuaState.bytecode, ChunkShape). Uses
// ScenarioRuntime and LuaFetchCore's Coverage.
import LuaFetchCore

/// Whether a runtime records coverage, and whether also the line pairs explore's guidance reads.
public enum CoverageMode: Sendable, Equatable {
    case off, lines, guided
}

extension ScenarioRuntime {
    /// Whether this runtime records coverage.
    public var coverageOn: Bool { lua.coverageOn }

    /// Adds the counts recorded since the last call (a run, or loading) to `counts`, and clears them.
    public func takeCoverage(into counts: inout CoverageCounts) {
        lua.takeCoverage { path, lines, entered in counts.add(path: path, lines: lines, entered: entered) }
    }

    /// The counts recorded since the last take (a run), cleared.
    public func takeCoverage() -> CoverageCounts {
        var c = CoverageCounts()
        takeCoverage(into: &c)
        return c
    }

    /// The guidance features of the run since the last take (read before `takeCoverage` clears them).
    public func coverageFeatures() -> [UInt32] {
        lua.withCoverageEdges(ExploreGuide.features) ?? []
    }

    /// The report of `counts` over the files this runtime loaded (see `CoverageSources`).
    public func coverageReport(_ counts: CoverageCounts) -> CoverageReport {
        Self.coverageReport(counts, sources: coverageSources)
    }

    /// The report of `counts` over `sources` (path → source): only files that are the scenario or a
    /// module it loaded count (a chunk that `load` named `@something` is not a file).
    public static func coverageReport(_ counts: CoverageCounts, sources: [String: [UInt8]]) -> CoverageReport {
        CoverageReport.build(counts, chunks: chunks(counts, sources))
    }

    /// What a page shows: every scenario file line by line (an imported scenario's too, whose
    /// lines name their Swift lines), and the Swift files its marks name.
    public func pageCoverage(_ counts: CoverageCounts) -> CoverageReport {
        let chunks = Self.chunks(counts, coverageSources)
        var page = CoverageReport.build(counts, chunks: chunks, mapToSwift: false)
        let scenarioFiles = Set(chunks.map(\.path))
        let swift = CoverageReport.build(counts, chunks: chunks).files.filter { !scenarioFiles.contains($0.path) }
        page.files = (page.files + swift).sorted { $0.path < $1.path }
        return page
    }

    static func chunks(_ counts: CoverageCounts, _ sources: [String: [UInt8]]) -> [CoverageReport.Chunk] {
        counts.files.keys.sorted().compactMap { path in
            guard let source = sources[path] else { return nil }
            let shape = LuaState.bytecode(of: source, chunkName: "@" + path).flatMap(ChunkShape.parse) ?? ChunkShape()
            return CoverageReport.Chunk(path: path, source: source, shape: shape)
        }
    }
}
