// A Swift package's manifest (SPEC 18.8.1), read with SwiftSyntax and never run: the
// `Package(...)` call's name, `products` (`.library(name:targets:)`), `dependencies`
// (`.package(path:)` local, `.package(url:...)` remote) and `targets` (`.target`,
// `.executableTarget`, `.testTarget`, ...: name, `path` (default `Sources/NAME`, or `Tests/NAME`),
// `sources`, `exclude`, `dependencies` as target names, `.target(name:)`, `.product(name:package:)`,
// `.byName(name:)`). String constants declared at the top level (`let name = "X"`) are followed;
// anything else unreadable is a warning. Uses SwiftParser, FolderWalk, ProjectPaths.
import SwiftParser
import SwiftSyntax

enum SwiftPackageReader {
    /// Reads the package in `folder` (its Package.swift); nil when there is none or it has no
    /// `Package(...)` call.
    static func read(_ folder: String, shown: (String) -> String, warnings: inout [(where: String, text: String)]) -> SwiftPackage? {
        let manifest = ProjectPaths.join(folder, "Package.swift")
        guard let bytes = try? SourceFiles.read(manifest), !bytes.contains(0) else { return nil }
        let tree = Parser.parse(source: String(decoding: bytes, as: UTF8.self))
        // Top-level string and array constants.
        var constants: [String: ExprSyntax] = [:]
        for item in tree.statements {
            guard let v = item.item.as(VariableDeclSyntax.self) else { continue }
            for b in v.bindings {
                if let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let e = b.initializer?.value { constants[name] = e }
            }
        }
        guard let call = findPackageCall(tree) else {
            warnings.append((shown(manifest), "no Package(...) call luafetch can read; the package is left out"))
            return nil
        }
        var pkg = SwiftPackage(folder: folder, name: ProjectPaths.name(of: folder))
        func argument(_ label: String, of c: FunctionCallExprSyntax) -> ExprSyntax? {
            c.arguments.first { $0.label?.text == label }?.expression
        }
        func string(_ e: ExprSyntax?, depth: Int = 0) -> String? {
            guard let e, depth < 8 else { return nil }
            if let s = e.as(StringLiteralExprSyntax.self) {
                var out = ""
                for seg in s.segments {
                    guard let t = seg.as(StringSegmentSyntax.self) else { return nil }
                    out += t.content.text
                }
                return out
            }
            if let r = e.as(DeclReferenceExprSyntax.self) { return string(constants[r.baseName.text], depth: depth + 1) }
            return nil
        }
        func list(_ e: ExprSyntax?, depth: Int = 0) -> [ExprSyntax] {
            guard let e, depth < 8 else { return [] }
            if let a = e.as(ArrayExprSyntax.self) { return a.elements.map(\.expression) }
            if let r = e.as(DeclReferenceExprSyntax.self) { return list(constants[r.baseName.text], depth: depth + 1) }
            if let seq = e.as(SequenceExprSyntax.self) {
                // `a + b` of arrays.
                return seq.elements.filter { !$0.is(BinaryOperatorExprSyntax.self) }.flatMap { list($0, depth: depth + 1) }
            }
            return []
        }
        func member(_ e: ExprSyntax) -> (String, FunctionCallExprSyntax)? {
            guard let c = e.as(FunctionCallExprSyntax.self), let m = c.calledExpression.as(MemberAccessExprSyntax.self) else { return nil }
            return (m.declName.baseName.text, c)
        }
        if let n = string(argument("name", of: call)) { pkg.name = n }
        for e in list(argument("products", of: call)) {
            guard let (_, c) = member(e), let name = string(argument("name", of: c)) else { continue }
            pkg.products[name] = list(argument("targets", of: c)).compactMap { string($0) }
        }
        for e in list(argument("dependencies", of: call)) {
            guard let (kind, c) = member(e), kind == "package" else { continue }
            if let path = string(argument("path", of: c)) {
                let f = ProjectPaths.join(folder, path)
                pkg.localDependencies[ProjectPaths.name(of: f).lowercased()] = f
                if let n = string(argument("name", of: c)) { pkg.localDependencies[n.lowercased()] = f }
            } else if let url = string(argument("url", of: c)) {
                pkg.remoteDependencies.insert(PBXReader.packageName(url))
            } else if let id = string(argument("id", of: c)) {
                pkg.remoteDependencies.insert(id)
            }
        }
        let targetKinds: Set<String> = ["target", "executableTarget", "testTarget", "macro", "plugin", "binaryTarget", "systemLibrary"]
        var declared: [(kind: String, call: FunctionCallExprSyntax, name: String)] = []
        for e in list(argument("targets", of: call)) {
            guard let (kind, c) = member(e), targetKinds.contains(kind) else { continue }
            guard let name = string(argument("name", of: c)) else {
                warnings.append((shown(manifest), "a target whose name is not a string literal; it is left out"))
                continue
            }
            declared.append((kind, c, name))
        }
        let names = Set(declared.map(\.name))
        for (kind, c, name) in declared where ["target", "executableTarget", "testTarget"].contains(kind) {
            let isTest = kind == "testTarget"
            let defaultRoots = isTest ? ["Tests"] : ["Sources", "Source", "src", "srcs"]
            var path: String
            if let p = string(argument("path", of: c)) {
                path = ProjectPaths.join(folder, p)
            } else {
                path = defaultRoots.map { ProjectPaths.join(folder, "\($0)/\(name)") }.first { ProjectPaths.kind($0) == "d" }
                    ?? ProjectPaths.join(folder, "\(defaultRoots[0])/\(name)")
            }
            path = ProjectPaths.onDisk(path) ?? path
            let excludes = list(argument("exclude", of: c)).compactMap { string($0) }
            let only = argument("sources", of: c).map { list($0).compactMap { string($0) } }
            var t = SwiftPackage.Target(name: name, isTest: isTest, sources: [], targetDependencies: [], productDependencies: [])
            t.isExecutable = kind == "executableTarget"
            if ProjectPaths.kind(path) == "d" {
                var walk = FolderWalk(maxDepth: 32)
                t.sources = walk.files(under: path, want: { rel, name in
                    guard name.hasSuffix(".swift") else { return false }
                    if excludes.contains(where: { rel == $0 || rel.hasPrefix($0 + "/") }) { return false }
                    if let only { return only.contains { rel == $0 || rel.hasPrefix($0 + "/") } }
                    return true
                }).map { ProjectPaths.join(path, $0) }
            } else {
                t.missing = 1
            }
            for d in list(argument("dependencies", of: c)) {
                if let s = string(d) {
                    if names.contains(s) { t.targetDependencies.append(s) } else { t.productDependencies.append((nil, s)) }
                } else if let (k, dc) = member(d), let n = string(argument("name", of: dc)) {
                    switch k {
                    case "target": t.targetDependencies.append(n)
                    case "product": t.productDependencies.append((string(argument("package", of: dc)), n))
                    default:
                        if names.contains(n) { t.targetDependencies.append(n) } else { t.productDependencies.append((nil, n)) }
                    }
                }
            }
            pkg.targets.append(t)
        }
        return pkg
    }

    /// The first `Package(...)` call in the manifest.
    private static func findPackageCall(_ tree: SourceFileSyntax) -> FunctionCallExprSyntax? {
        final class Finder: SyntaxVisitor {
            var found: FunctionCallExprSyntax?
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if found == nil, node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Package" { found = node }
                return found == nil ? .visitChildren : .skipChildren
            }
        }
        let f = Finder(viewMode: .sourceAccurate)
        f.walk(tree)
        return f.found
    }
}
