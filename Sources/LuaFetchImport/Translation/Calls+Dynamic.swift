// What a call on a receiver of unknown type needs from the app's declarations: whether any of the
// app's functions has the stub's base name (a closure handed to a stub that never calls it is
// then not followed, SPEC 18.8.4), and the Lua name the run-time dispatch (`swift.call`) looks up
// first, the one overload whose labels fit. Uses Program's types and FuncInfo.accepts.

extension Translator {
    /// Whether the app declares a function or method of the base name a stub's name ends with.
    func declaresFunction(_ name: String) -> Bool {
        let base = String(name.split(separator: ".").last ?? "")
        if base == "init" { return false }
        return program.functions[base] != nil || methods(named: base) != nil
    }

    /// The methods of the app's types (and its extensions of others) named `base`, indexed once.
    private func methods(named base: String) -> [FuncInfo]? {
        if methodsByBase == nil {
            var m: [String: [FuncInfo]] = [:]
            for t in program.typeOrder + program.externalOrder { for (b, list) in t.methods { m[b, default: []] += list } }
            methodsByBase = m
        }
        return methodsByBase?[base]
    }

    /// The Lua name a dynamic call (`swift.call(site, recv, name, labelled, ...)`) looks up first:
    /// the one overload of the app's methods named `name` whose labels fit the call's, when only
    /// one name fits (duckduckgo's `pixelFiring.fire(pixel:withAdditionalParameters:
    /// includedParameters:)` found `fire_pixel`, another overload, by its first label alone), else
    /// `name_firstLabel` as before.
    func dynamicName(_ name: String, _ args: [CallArg]) -> String? {
        let first = args.first?.label.map { "\(name)_\($0)" }
        // Only where the first label's name is another overload's: elsewhere it finds the method.
        let all = methods(named: name) ?? []
        guard let first, all.contains(where: { $0.lua == first }) else { return first }
        let labels: [String?] = args.map { $0.label }
        let fitting = all.filter { $0.accepts(labels) }
        // One that takes exactly these arguments wins over one that fits through its defaults.
        let exact = Set(fitting.filter { $0.params.count == labels.count }.map(\.lua))
        if exact.count == 1 { return exact.first }
        let names = Set(fitting.map(\.lua))
        return names.count == 1 ? names.first : first
    }
}
