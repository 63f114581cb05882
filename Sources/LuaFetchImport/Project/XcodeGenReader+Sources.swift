// An XcodeGen target's Swift sources and links (SPEC 18.8.1): each `sources` entry's files (a
// file, or every file under a folder; `excludes` and `includes` globs relative to the entry;
// entries built in another phase, folder references and entries filtered to other platforms
// left out; a missing non-optional path counted), and its `dependencies` as links (targets,
// frameworks built in the repository, local package products; remote packages counted).
// Uses XcodeGenReader, FolderWalk, Glob.

extension XcodeGenReader {
    /// The Swift files of a `sources` block, how many it names that are missing, and the
    /// Info.plists among its files.
    mutating func sources(_ node: YAMLValue?, target: String) -> (swift: [String], missing: Int, plists: [String]) {
        guard let node else { return ([], 0, []) }
        let entries = node.list ?? [node]
        var swift = Set<String>(), plists: [String] = []
        var missing = 0
        for entry in entries {
            let path: String
            var excludes: [String] = [], includes: [String] = []
            var optional = false
            if let s = entry.string {
                path = s
            } else if let m = entry.map, let p = m["path"]?.string {
                path = p
                excludes = m["excludes"]?.strings ?? []
                includes = m["includes"]?.strings ?? []
                optional = m["optional"]?.string.map { ["true", "yes"].contains($0.lowercased()) } ?? false
                if let phase = m["buildPhase"] {
                    // Only the Sources phase compiles Swift.
                    if phase.string != "sources" { continue }
                }
                if m["type"]?.string == "folder" { continue }
                let filters = (m["destinationFilters"]?.strings ?? []) + (m["platformFilters"]?.strings ?? [])
                if !filters.isEmpty && !filters.contains(where: { ["iOS", "ios", "macCatalyst"].contains($0) }) { continue }
            } else {
                warnings.append((shown(specPath), "target \(target): a sources entry luafetch cannot read; it is left out"))
                continue
            }
            let joined = ProjectPaths.join(root, path)
            let full = ProjectPaths.onDisk(joined) ?? joined
            switch ProjectPaths.kind(full) {
            case "f":
                if full.hasSuffix(".swift") { swift.insert(full) }
                if full.hasSuffix("/Info.plist") { plists.append(full) }
            case "d":
                var walk = FolderWalk(maxDepth: 32, skipPackages: true, skip: { $0.hasSuffix(".xcassets") })
                let files = walk.files(under: full, want: { rel, name in
                    guard name.hasSuffix(".swift") || name == "Info.plist" else { return false }
                    if excludes.contains(where: { Glob.matchesOrInside($0, rel) }) { return false }
                    if !includes.isEmpty && !includes.contains(where: { Glob.matchesOrInside($0, rel) }) { return false }
                    return true
                })
                if walk.truncated {
                    warnings.append((shown(specPath), "target \(target): more than \(FolderWalk.maxEntries) entries under \(shown(full)); the files past them are left out"))
                }
                for rel in files {
                    let p = ProjectPaths.join(full, rel)
                    if rel.hasSuffix(".swift") { swift.insert(p) } else { plists.append(p) }
                }
            default:
                if !optional && path.hasSuffix(".swift") || !optional && !path.contains(".") { missing += 1 }
            }
        }
        return (swift.sorted(), missing, plists.sorted())
    }

    /// A target's `dependencies` as links.
    mutating func links(_ node: YAMLValue?, into target: inout ProjectTarget) {
        let packages = spec["packages"]?.map ?? [:]
        for dep in node?.list ?? [] {
            guard let m = dep.map else { continue }
            let filters = (m["destinationFilters"]?.strings ?? []) + (m["platformFilter"]?.strings ?? []) + (m["platformFilters"]?.strings ?? [])
            if !filters.isEmpty && !filters.contains(where: { ["iOS", "ios", "all"].contains($0) }) { continue }
            if let t = m["target"]?.string {
                // `Project/Target` names a target of another project.
                if let slash = t.lastIndex(of: "/") { target.links.append(.targetNamed(String(t[t.index(after: slash)...]))) }
                else { target.links.append(.target(t)) }
            } else if let f = m["framework"]?.string {
                let name = ProjectPaths.name(of: f)
                if name.hasSuffix(".framework") { target.links.append(.productFile(name)) }
            } else if let pkg = m["package"]?.string {
                var products = m["products"]?.strings ?? []
                if let p = m["product"]?.string { products.append(p) }
                if products.isEmpty { products = [pkg] }
                if let def = packages[pkg] {
                    if let path = def["path"]?.string {
                        for p in products { target.links.append(.package(folder: ProjectPaths.join(root, path), product: p)) }
                    } else {
                        target.remotePackages.insert(pkg)
                    }
                } else {
                    for p in products { target.links.append(.package(folder: nil, product: p)) }
                }
            } else if m["sdk"] == nil && m["carthage"] == nil && m["bundle"] == nil {
                warnings.append((shown(specPath), "target \(target.name): a dependency luafetch does not know (\(m.keys.sorted().joined(separator: ", "))); it is left out"))
            }
        }
    }
}
