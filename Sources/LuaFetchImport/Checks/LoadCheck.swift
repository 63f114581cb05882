// A scenario that loads, always (SPEC 18.8.5): each unit the translation writes (a function, an
// initializer, a property's accessors, a stored property's initial value, a global) is compiled
// on its own with Lua's parser (the check the command hands in: the importer knows no Lua)
// before it is kept. A unit whose Lua does not compile is taken back (its lines and its stub
// sites) and replaced by a stub shaped by its declaration: it returns what its declared result
// allows, throws only if declared `throws`, suspends only if `async`, calls its closure
// parameters. The report warns `File.swift:LINE: NAME could not be translated (reason); it is a
// stub`. Uses the Translator's output and the stub book.
import SwiftSyntax

/// What a unit stands for, so a stub of the same shape can take its place.
enum UnitShape {
    case function(FuncInfo, owner: TypeDecl?, isStatic: Bool)
    case property(PropertyInfo, owner: TypeDecl)
    case stored(PropertyInfo)
    case global(PropertyInfo)
    /// The handlers lifted out of a SwiftUI body (`__swiftui`).
    case swiftUI(TypeDecl, line: Int)
    case other(name: String, line: Int)
}

extension Translator {
    /// Writes a unit with `body`, keeping it only if its Lua compiles; otherwise a stub shaped
    /// like `shape` takes its place.
    func checkedUnit(_ shape: UnitShape, _ body: () -> Void) {
        guard let check = luaCheck else { body(); return }
        let start = out.count
        let sites = stubs.checkpoint()
        let savedIndent = indent
        body()
        guard out.count > start else { return }
        let lines = Translator.finish(Array(out[start...]), files: fileNames)
        var chunk = lines.joined(separator: "\n")
        if case .stored = shape { chunk = "return function(self)\n" + chunk + "\nend" }
        guard let message = check(chunk, "=unit") else { return }
        out.removeSubrange(start...)
        stubs.rollback(to: sites)
        indent = savedIndent
        let (name, line) = describe(shape)
        warnings.append(("\(file.source.shown):\(line)", "\(name) could not be translated (\(Self.luaReason(message))); it is a stub"))
        untranslatedUnits += 1
        declarationStub(shape, line: line)
    }

    /// Lua's message without its chunk name and line (`[string "unit"]:3: ` or `unit:3: `).
    static func luaReason(_ message: String) -> String {
        var m = Substring(message)
        if let r = m.range(of: ": "), m[..<r.lowerBound].contains(":") { m = m[r.upperBound...] }
        return "Lua: " + m.prefix(160)
    }

    private func describe(_ shape: UnitShape) -> (String, Int) {
        switch shape {
        case .function(let f, let owner, _):
            return ((owner.map { "\($0.name)." } ?? "") + f.selector, f.file.line(f.node))
        case .property(let p, let owner): return ("\(owner.name).\(p.name)", p.file.line(p.binding))
        case .stored(let p), .global(let p): return (p.name, p.file.line(p.binding))
        case .swiftUI(let t, let line): return ("\(t.name).body's handlers", line)
        case .other(let name, let line): return (name, line)
        }
    }

    /// The stub a unit that does not compile becomes (18.8.5, 18.9.1).
    private func declarationStub(_ shape: UnitShape, line: Int) {
        switch shape {
        case .function(let f, let owner, let isStatic):
            let params = f.params.map { Naming.local($0.name) }
            let head = functionHead(f, owner: owner, isStatic: isStatic, params: params)
            if f.base == "init" {
                emit(head + " end", line)
                return
            }
            let site = declarationSite(f, owner: owner, line: line)
            let recv = owner != nil && !isStatic ? "self" : "nil"
            emit(head + " return swift.stubCall(\(([String(site), recv] + params).joined(separator: ", "))) end", line)
        case .property(let p, let owner):
            let site = stubs.site("\(owner.name).\(p.name)", where: "\(p.file.source.shown):\(line)", optional: p.type?.optional ?? false,
                                  node: Syntax(p.binding), declared: true)
            let q = Literals.quote(Naming.field(p.name))
            if p.isStatic {
                emit("swift.staticComputed(\(owner.lua), \(q), function() return swift.stubCall(\(site), nil) end)", line)
            } else {
                emit("swift.computed(\(owner.lua), \(q), function(self) return swift.stubCall(\(site), self) end)", line)
            }
        case .stored(let p):
            emit("self.\(Naming.field(p.name)) = \(typedDefault(p.type))", line)
        case .global(let p):
            emit("function T.__global_\(Naming.field(program.globalKey(p)))() return \(typedDefault(p.type)) end", line)
        case .swiftUI(let t, _):
            // The app still calls it: an empty one (the handlers are not registered).
            emit("function \(t.lua):__swiftui() end", line)
        case .other:
            return
        }
    }

    /// A stub site for a function the app declares: what its declaration allows.
    private func declarationSite(_ f: FuncInfo, owner: TypeDecl?, line: Int) -> Int {
        var closures: [StubClosure] = []
        for (i, p) in f.params.enumerated() where p.isClosure {
            let kinds = p.closureParams.map { StubClosure.kind(ofType: $0) }
            closures.append(StubClosure(index: i + 1, label: p.label == "_" ? nil : p.label, params: max(1, p.closureParams.count), kinds: kinds,
                                        failure: StubClosure.isFailureLabel(p.label)))
        }
        let name = (owner.map { "\($0.name)." } ?? "") + f.base
        return stubs.site(name, where: "\(f.file.source.shown):\(line)", optional: f.returnType?.optional ?? false, node: Syntax(f.node),
                          closures: closures, awaited: f.isAsync, tried: f.throwsErrors, declared: true)
    }

    /// The value a declared type starts with when its code cannot run: nil for an optional,
    /// Swift's zero values for numbers, strings, flags and collections, else an opaque value.
    func typedDefault(_ type: TypeName?) -> String {
        guard let t = type, !t.optional else { return "nil" }
        switch t.name {
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return "0"
        case "Double", "Float", "CGFloat", "TimeInterval": return "0.0"
        case "Bool": return "false"
        case "String", "Substring": return "\"\""
        case "Array": return "swift.array({})"
        case "Dictionary": return "swift.dict({})"
        default: return "swift.opaque(\(Literals.quote(t.name)))"
        }
    }
}
