// LuaState basics: value conversion both ways (integer vs float, nested tables, cycles), protected
// loading and calls with tracebacks, and the instruction budget on a plain handler.
import Testing
import CLua
@testable import LuaFetchScripting

@Suite struct LuaValueTests {
    func roundTrip(_ value: LuaValue) throws -> LuaValue {
        let lua = LuaState(memoryCap: 0, instructionBudget: 0)
        value.push(lua.L)
        return try LuaValue.read(lua.L, -1)
    }

    @Test func scalarsKeepTheirKinds() throws {
        #expect(try roundTrip(.nil_) == .nil_)
        #expect(try roundTrip(.boolean(true)) == .boolean(true))
        #expect(try roundTrip(.integer(3)) == .integer(3))
        #expect(try roundTrip(.number(3.0)) == .number(3.0))
        #expect(try roundTrip(.string("héllo")) == .string("héllo"))
    }

    @Test func nestedTablesRoundTripInOrder() throws {
        let t = LuaValue.table([.init(.integer(1), .string("a")), .init(.integer(2), .table([.init(.string("x"), .number(1.5))])),
                                .init(.string("k"), .boolean(false))])
        #expect(try roundTrip(t) == t)
        #expect(t.display == "{ \"a\", { x = 1.5 }, k = false }")
    }

    @Test func cyclesAreDetected() throws {
        let lua = LuaState(memoryCap: 0, instructionBudget: 0)
        #expect(lua.load(Array("local t = { a = {} }; t.a.back = t; return t".utf8), chunkName: "=test") == nil)
        #expect(lua.protectedCall(nargs: 0, nresults: 1) == nil)
        #expect(throws: LuaValue.ConversionError.cycle) { try LuaValue.read(lua.L, -1) }
        #expect(lua_gettop(lua.L) == 1)
    }

    @Test func sharedButAcyclicTablesAreFine() throws {
        let lua = LuaState(memoryCap: 0, instructionBudget: 0)
        _ = lua.load(Array("local s = { 1 }; return { s, s }".utf8), chunkName: "=test")
        _ = lua.protectedCall(nargs: 0, nresults: 1)
        #expect(try LuaValue.read(lua.L, -1).display == "{ { 1 }, { 1 } }")
    }

    @Test func protectedCallsReturnTheMessage() {
        let lua = LuaState(memoryCap: 0, instructionBudget: 0)
        _ = lua.load(Array("error('bad')".utf8), chunkName: "@x.lua")
        #expect(lua.protectedCall(nargs: 0, nresults: 0)?.hasPrefix("x.lua:1: bad\nstack traceback:") == true)
        #expect(lua.load(Array("local = 1".utf8), chunkName: "@y.lua")?.hasPrefix("y.lua:1:") == true)
    }

    @Test func handlersAreStoppedByTheBudget() {
        let lua = LuaState(memoryCap: 0, instructionBudget: 100_000)
        _ = lua.load(Array("local n = 0\nwhile true do n = n + 1 end".utf8), chunkName: "@loop.lua")
        let r = lua.runHandler(nargs: 0)
        #expect(r.status == .budget)
        #expect(r.location?.line == 2)
        #expect(lua_gettop(lua.L) == 0)
    }
}
