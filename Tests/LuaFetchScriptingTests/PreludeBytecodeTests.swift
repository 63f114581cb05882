// The prelude's recorded bytecode (issue #19): a run loads it instead of compiling the prelude,
// only when it was compiled from today's Prelude.source by this Lua release; otherwise the source
// is compiled. Re-record after changing the prelude:
//   LUAFETCH_RECORD=1 swift test --filter PreludeBytecodeTests
import CLua
import CLuaHost
@testable import LuaFetchScripting
import Testing
import Foundation

@Suite struct PreludeBytecodeTests {
    /// What the prelude compiles to now, with its debug information (chunk "=luafetch").
    static func compiled() -> [UInt8] {
        let lua = LuaState(memoryCap: 64 << 20, instructionBudget: 0)
        #expect(lua.load(Array(Prelude.source.utf8), chunkName: "=luafetch") == nil)
        var size = 0
        let bytes = clua_dump(lua.L, &size)!
        defer { clua_free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }

    static func sourceHash(_ text: String) -> UInt64 {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { UInt64(clua_fnv1a($0.baseAddress, $0.count)) }
        }
    }

    @Test func theRecordedBytecodeIsTodaysPrelude() throws {
        var size = 0, release = 0, current = 0
        var hash: UInt64 = 0
        let recorded = clua_prelude_bytecode(&size, &release, &current, &hash)!
        let now = Self.compiled()
        if ProcessInfo.processInfo.environment["LUAFETCH_RECORD"] != nil {
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/CLuaHost/prelude_bytecode.c").standardized
            let rows = stride(from: 0, to: now.count, by: 16).map { start in
                "    " + now[start..<min(start + 16, now.count)].map { String(format: "0x%02x,", $0) }.joined(separator: " ")
            }
            let text = """
                /* prelude_bytecode.c: the prelude (Prelude.swift) compiled by this Lua release, so a run loads it
                 * instead of compiling it. Generated: LUAFETCH_RECORD=1 swift test --filter PreludeBytecodeTests */
                #include <stddef.h>
                const long clua_prelude_release = \(current);
                const unsigned long long clua_prelude_source_hash = 0x\(String(Self.sourceHash(Prelude.source), radix: 16))ULL;
                const size_t clua_prelude_source_size = \(Prelude.source.utf8.count), clua_prelude_size = \(now.count);
                const unsigned char clua_prelude_code[] = {
                \(rows.joined(separator: "\n"))
                };

                """
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        // A different Lua release compiles its own (the runtime falls back; a run still works).
        guard release == current else {
            #expect(simulate("scenario { duration = 1 }\nprint(tostring({}))").printed == ["table: #1"])
            return
        }
        #expect(hash == Self.sourceHash(Prelude.source), "the prelude changed: re-record its bytecode with LUAFETCH_RECORD=1 swift test --filter PreludeBytecodeTests")
        #expect(Array(UnsafeBufferPointer(start: recorded, count: size)) == now, "re-record the prelude's bytecode with LUAFETCH_RECORD=1 swift test --filter PreludeBytecodeTests")
    }

    /// The recorded bytecode loads only for the source it was compiled from.
    @Test func onlyTheSameSourceLoadsTheRecordedBytecode() throws {
        let lua = LuaState(memoryCap: 64 << 20, instructionBudget: 0)
        func load(_ text: String) -> Int32 {
            var copy = text
            let status = copy.withUTF8 { b in b.withMemoryRebound(to: CChar.self) { clua_loadprelude(lua.L, $0.baseAddress, $0.count) } }
            if status != -1 { clua_pop(lua.L, 1) }
            return status
        }
        var size = 0, release = 0, current = 0
        var hash: UInt64 = 0
        _ = clua_prelude_bytecode(&size, &release, &current, &hash)
        #expect(load(Prelude.source) == (release == current ? LUA_OK : -1))
        #expect(load(Prelude.source + " ") == -1)
        #expect(load(String(Prelude.source.dropLast()) + "x") == -1)
        // Either way a runtime's prelude works, and its errors name the scenario's line.
        let sim = simulate("scenario { duration = 1 }\nlocal t = setmetatable({}, {})\nprint(next(t, 'nope'))")
        #expect(String(describing: sim.error).contains("test.lua:3"), "\(String(describing: sim.error))")
    }
}
