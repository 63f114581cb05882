// Compiled chunks and coverage: bytecode compiled once per process (CompiledChunks, explore's
// runs), a chunk's bytecode with its debug information (ChunkShape reads which lines hold code),
// and the line coverage CLuaHost's coverage.c records. Uses the C API and coverage.c.
import CLua
import CLuaHost
import LuaFetchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chunks compiled in this process, as bytecode by name and source (thread-safe): explore's runs
/// compile the prelude and the scenario once, not once per run.
final class CompiledChunks: @unchecked Sendable {
    static let shared = CompiledChunks()
    private var chunks: [String: (source: [UInt8], code: [UInt8])] = [:]
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private init() { pthread_mutex_init(lock, nil) }

    func bytecode(_ name: String, _ source: [UInt8]) -> [UInt8]? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let c = chunks[name], c.source == source else { return nil }
        return c.code
    }

    func keep(_ name: String, _ source: [UInt8], _ code: [UInt8]) {
        pthread_mutex_lock(lock)
        chunks[name] = (source, code)
        pthread_mutex_unlock(lock)
    }
}

// MARK: - Coverage (CLuaHost/coverage.c)

extension LuaState {
    /// Starts line coverage of scenario chunks (`edges`: also the map of consecutive line pairs
    /// explore's guidance reads). Call before any handler runs; false when it cannot be started.
    func startCoverage(edges: Bool) -> Bool { clua_coverage_start(hostRecord, edges ? 1 : 0) != nil }

    var coverageOn: Bool { hostRecord.pointee.cov != nil }

    /// Hands this run's counts to `body`, chunk by chunk (the path without its '@', hit counts by
    /// line, functions entered by the line they are defined on), then clears them.
    func takeCoverage(_ body: (String, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt8>) -> Void) {
        guard let cov = hostRecord.pointee.cov else { return }
        for i in 0..<clua_coverage_count(cov) {
            var len = 0, size: Int32 = 0
            var lines: UnsafePointer<UInt32>?, fns: UnsafePointer<UInt8>?
            guard let name = clua_coverage_chunk(cov, Int32(i), &len, &lines, &fns, &size), len > 1, size > 0,
                  let lines, let fns else { continue }
            let path = UnsafeRawBufferPointer(start: name + 1, count: len - 1)
            body(String(decoding: path, as: UTF8.self), UnsafeBufferPointer(start: lines, count: Int(size)),
                 UnsafeBufferPointer(start: fns, count: Int(size)))
        }
        clua_coverage_clear(cov)
    }

    /// The run's map of consecutive line pairs (`CLUA_COVERAGE_EDGES` saturating counts), read
    /// before `takeCoverage` clears it; nil when coverage runs without it.
    func withCoverageEdges<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        guard let cov = hostRecord.pointee.cov, let edges = clua_coverage_edges(cov) else { return nil }
        return body(UnsafeBufferPointer(start: edges, count: Int(CLUA_COVERAGE_EDGES)))
    }

    /// `source` compiled as chunk `chunkName` (in a scratch state: nothing runs) and dumped as
    /// bytecode with its debug information, which says which lines hold code and where each
    /// function begins (ChunkShape reads it); nil when it does not compile.
    static func bytecode(of source: [UInt8], chunkName: String) -> [UInt8]? {
        guard let L = luaL_newstate() else { return nil }
        defer { lua_close(L) }
        let status = source.withUnsafeBufferPointer { buf in
            buf.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) { clua_loadbuffer(L, $0, buf.count, chunkName) }
            } ?? clua_loadbuffer(L, "", 0, chunkName)
        }
        guard status == LUA_OK else { return nil }
        var size = 0
        guard let bytes = clua_dump(L, &size) else { return nil }
        defer { clua_free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }
}

// MARK: - Lua's parser as a check (`luafetch import`, SPEC 18.8.5)

/// Lua's own parser, for the importer's check that every unit it writes compiles: one scratch
/// state (nothing runs in it), a chunk at a time.
public final class LuaSyntaxCheck: @unchecked Sendable {
    private let L: OpaquePointer
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init?() {
        guard let L = luaL_newstate() else { return nil }
        self.L = L
        pthread_mutex_init(lock, nil)
    }

    deinit {
        lua_close(L)
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Lua's message when `chunk` does not compile, else nil.
    public func check(_ chunk: String, name: String) -> String? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let bytes = Array(chunk.utf8)
        let status = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) { clua_loadbuffer(L, $0, buf.count, name) }
            } ?? clua_loadbuffer(L, "", 0, name)
        }
        defer { lua_settop(L, 0) }
        guard status != LUA_OK else { return nil }
        return clua_tostring(L, -1).map { String(cString: $0) } ?? "does not compile"
    }
}
