// `luafetch types` cannot drift from the runtime: every API name the runtime declares has a
// definition with documentation, every definition names something the runtime has (globals, API
// tables, methods and fields, and the methods of the objects it hands out), option classes come
// from the runtime's own OptionSpecs, and the file is valid Lua.
import LuaFetchCore
@testable import LuaFetchScripting
import Testing

@Suite struct TypeDefinitionTests {
    /// A runtime that has made every kind of object (a server is made on demand).
    static func runtime() throws -> ScenarioRuntime {
        LuaState.recordObjectMembers = true
        let r = ScenarioRuntime(path: "types.lua")
        try r.run(source: Array("local s = server \"api.test\" {}\n".utf8), chunkName: "@types.lua")
        return r
    }

    @Test func everyAPINameIsDefinedAndDocumented() throws {
        let runtime = try Self.runtime()
        // The runtime of imported scenarios is made on first use: its globals are defined too.
        let names = Set(runtime.lua.declaredNames + TypeDefinitions.lazyGlobals)
        let meta = TypeDefinitions.meta(names: runtime.lua.declaredNames, version: "test")
        for name in names where !TypeDefinitions.lazyGlobals.contains(name) {
            #expect(TypeDefinitions.docs[name] != nil, "\(name) has no documentation in TypeDefinitions.docs")
            let defined: Bool
            if name.contains(":") || (name.contains(".") && TypeDefinitions.isFunctionMember(name)) {
                defined = meta.contains("function \(name)(")
            } else if name.contains(".") {
                let field = name.split(separator: ".", maxSplits: 1)[1]
                defined = meta.contains("---@field \(field) ")
            } else {
                defined = meta.contains("function \(name)(") || meta.contains("\n\(name) = ")
            }
            #expect(defined, "\(name) has no definition")
        }
        // And nothing is documented or defined that the runtime does not have.
        for name in TypeDefinitions.docs.keys { #expect(names.contains(name), "TypeDefinitions.docs has \(name), which the runtime does not declare") }
        for line in meta.split(separator: "\n") where line.hasPrefix("function ") || (!line.hasPrefix("-") && line.contains(" = ")) {
            let name = line.hasPrefix("function ") ? String(line.dropFirst(9).prefix { $0 != "(" }) : String(line.prefix { $0 != " " })
            #expect(names.contains(name), "the definitions define \(name), which the runtime does not declare")
        }
    }

    @Test func objectDefinitionsMatchTheRuntimesObjects() throws {
        let runtime = try Self.runtime()
        let members = runtime.lua.objectMembers
        for o in TypeDefinitions.objects {
            guard let table = TypeDefinitions.objectTables[o.name] else { continue }  // plain tables (Launch, Request, ...)
            let runtimeMembers = try #require(members[table], "no runtime table \(table) for \(o.name)")
            let methods = o.members.filter { $0.1.hasPrefix("fun(self") }.map(\.0)
            for m in methods { #expect(runtimeMembers.contains(m), "\(o.name):\(m) is defined but the runtime's \(table) has no \(m)") }
        }
        // Every method of the runtime's objects is defined on some class for that table.
        for (name, table) in TypeDefinitions.objectTables {
            let defined = Set(TypeDefinitions.objects.filter { TypeDefinitions.objectTables[$0.name] == table }.flatMap { $0.members.map(\.0) })
            for m in members[table] ?? [] { #expect(defined.contains(m), "the runtime's \(table) has \(m), which no class defines (\(name))") }
        }
    }

    @Test func optionClassesComeFromTheOptionSpecs() {
        let meta = TypeDefinitions.meta(names: [], version: "test")
        for f in ScenarioRuntime.scenarioSpec.fields { #expect(meta.contains("---@field \(f.name)? "), "scenario{ \(f.name) }") }
        for f in ScenarioRuntime.appSpec.fields { #expect(meta.contains("---@field \(f.name)? "), "app{ \(f.name) }") }
        for f in ScenarioRuntime.requestSpec.fields { #expect(meta.contains("---@field \(f.name)? "), "http.request{ \(f.name) }") }
        #expect(meta.contains("---@field performFetch? fun(app: luafetch.App, completionHandler: fun(result: string))"))
        #expect(meta.contains("---@field os? \"ios6\"|\"ios7\"|\"ios13\"|\"ios26\""))
    }

    @Test func theDefinitionsAreValidLua() throws {
        let runtime = ScenarioRuntime(path: "types.lua")
        let meta = TypeDefinitions.meta(version: "test")
        guard case .success = runtime.lua.compile(Array(meta.utf8), chunkName: "=luafetch.lua") else {
            Issue.record("the definitions do not compile")
            return
        }
        #expect(meta.hasPrefix("---@meta luafetch\n"))
        let rc = TypeDefinitions.luacheckrc(version: "test")
        for g in TypeDefinitions.globals() { #expect(rc.contains("  \"\(g)\",\n")) }
        let project = TypeDefinitions.projectLuacheckrc(folders: ["scenarios"], version: "test")
        for g in TypeDefinitions.globals() { #expect(project.contains("    \"\(g)\",\n")) }
        guard case .success = runtime.lua.compile(Array(project.utf8), chunkName: "=.luacheckrc") else {
            Issue.record("the project's luacheck settings do not compile")
            return
        }
    }

    /// Every option table is an exact class, so LuaLS reports a field the runtime would refuse
    /// (`durration = 5`) where it checks exact classes; their fields are the runtime's own.
    @Test func optionClassesAreExact() {
        let meta = TypeDefinitions.meta(names: [], version: "test")
        let options = ["ScenarioOptions", "ScenarioDevice", "ScenarioBudgets", "ScenarioLimits", "AppOptions", "Delegate", "SceneDelegate",
                       "ServerOptions", "RequestOptions", "TransferRequest", "BGTaskRequest", "ContinuedProcessingOptions",
                       "QueueOptions", "AsyncOptions", "PushOptions", "RouteResponse"]
        for name in options { #expect(meta.contains("---@class (exact) luafetch.\(name)\n"), "luafetch.\(name) is not an exact class") }
        #expect(!meta.contains("---@class luafetch.ScenarioOptions"))
        for f in ScenarioRuntime.queueOptions.fields + ScenarioRuntime.asyncOptions.fields + ScenarioRuntime.pushOptions.fields
            + ScenarioRuntime.continuedSpec.fields { #expect(meta.contains("---@field \(f.name)? "), "\(f.name)") }
        for (name, _, _) in ScenarioRuntime.responseFields { #expect(meta.contains("---@field \(name)? "), "response \(name)") }
        // Inline table types would not be exact: the API's option parameters name the classes.
        let full = TypeDefinitions.meta(version: "test")
        #expect(full.contains("---@param options luafetch.QueueOptions|nil"))
        #expect(full.contains("---@param options luafetch.PushOptions|nil"))
        #expect(full.contains("options: luafetch.AsyncOptions|nil"))
        #expect(full.contains("response: luafetch.RouteResponse|luafetch.RouteResponse[]|fun(request: luafetch.Request): luafetch.RouteResponse"))
    }

    /// The project's settings list their folders, and `luafetch types` reads the list back to add one.
    @Test func projectLuacheckSettingsListTheirFolders() {
        let folders = ["app/scenarios", "odd \"name\\"]
        let text = TypeDefinitions.projectLuacheckrc(folders: folders, version: "test")
        #expect(TypeDefinitions.projectFolders(in: text) == folders)
        #expect(TypeDefinitions.projectFolders(in: TypeDefinitions.luacheckrc(version: "test")) == nil)
        #expect(TypeDefinitions.projectFolders(in: "local folders = { \"mine\" }\n") == nil)
    }
}
