// The targets of an Xcode project (SPEC 18.8.1): each PBXNativeTarget's name, product type,
// Release settings and platforms; its Swift sources from the Sources build phase (PBXBuildFile →
// file reference, platform filters without iOS left out) and from Xcode 16 synchronized folders
// (PBXFileSystemSynchronizedRootGroup: every file under the folder, less the target's
// `membershipExceptions`; plus the files another target's folder lends it through an exception
// set naming it); what it links: frameworks of the Frameworks phase (and those it embeds), target
// dependencies, Swift
// package products (local by `relativePath`, or any local package; remote ones counted).
// Uses PBXReader, FolderWalk, BuildSettings.

extension PBXReader {
    /// One native target.
    mutating func target(_ id: String, configuration: String) -> ProjectTarget {
        let before = warnings.count
        defer { warnings.removeSubrange(before...) }
        let o = obj(id)
        let name = str(o, "name") ?? id
        let productType = str(o, "productType") ?? ""
        var t = ProjectTarget(id: id, name: name, productType: productType, kind: TargetKind.productType(productType))
        // Release settings: project, then target.
        var settings = BuildSettings()
        settings.configuration = configuration
        settings.builtins = BuildSettings.builtins(target: name, project: self.name, root: root, configuration: configuration)
        addLevels(self.configuration(str(projectObject, "buildConfigurationList"), named: configuration), to: &settings)
        addLevels(self.configuration(str(o, "buildConfigurationList"), named: configuration), to: &settings)
        t.settings = settings
        t.platforms = settings.platforms() ?? (t.kind == .watchApp ? [.watchOS] : [.iOS])
        if t.kind == .watchApp { t.platforms = [.watchOS] }
        if let ref = str(o, "productReference") { t.productFile = str(obj(ref), "path") }

        var sources = Set<String>()
        var missing = 0
        // The Sources build phase.
        for phase in ids(o, "buildPhases") where isa(phase) == "PBXSourcesBuildPhase" {
            for bf in ids(obj(phase), "files") {
                let build = obj(bf)
                guard Self.buildsForIOS(build), let ref = str(build, "fileRef"), let p = path(of: ref), p.hasSuffix(".swift") else { continue }
                if let real = ProjectPaths.onDisk(p), ProjectPaths.kind(real) == "f" { sources.insert(real) } else { missing += 1 }
            }
        }
        // Synchronized folders: the target's own, less its exceptions.
        let own = Set(ids(o, "fileSystemSynchronizedGroups"))
        for group in ids(o, "fileSystemSynchronizedGroups") {
            guard let folder = path(of: group).flatMap(ProjectPaths.onDisk) else { continue }
            var excluded = Set<String>()
            var filters: [String: [String]] = [:]
            for set in ids(obj(group), "exceptions") where isa(set) == "PBXFileSystemSynchronizedBuildFileExceptionSet" && str(obj(set), "target") == id {
                excluded.formUnion(ids(obj(set), "membershipExceptions"))
                if let byPath = obj(set)?["platformFiltersByRelativePath"] as? [String: Any] {
                    for (k, v) in byPath { filters[k] = (v as? [Any])?.compactMap { $0 as? String } ?? [] }
                }
            }
            let explicit = ids(obj(group), "explicitFolders")
            for rel in swiftFiles(under: folder) {
                if excluded.contains(rel) || excluded.contains(where: { rel.hasPrefix($0 + "/") }) { continue }
                if explicit.contains(where: { rel.hasPrefix($0 + "/") }) { continue }
                if let f = filters[rel], !f.contains("ios") { continue }
                sources.insert(ProjectPaths.join(folder, rel))
            }
        }
        // Files other targets' synchronized folders lend this one.
        for (gid, g) in objects where str(g, "isa") == "PBXFileSystemSynchronizedRootGroup" && !own.contains(gid) {
            for set in ids(g, "exceptions") where isa(set) == "PBXFileSystemSynchronizedBuildFileExceptionSet" && str(obj(set), "target") == id {
                guard let folder = path(of: gid).flatMap(ProjectPaths.onDisk) else { continue }
                for rel in ids(obj(set), "membershipExceptions") where rel.hasSuffix(".swift") {
                    let p = ProjectPaths.join(folder, rel)
                    if let real = ProjectPaths.onDisk(p), ProjectPaths.kind(real) == "f" { sources.insert(real) } else { missing += 1 }
                }
            }
        }
        t.sources = sources.sorted()
        t.missingSources = missing

        // What it links.
        var links: [Link] = []
        // The Frameworks phase, and frameworks the target embeds (a framework of a sibling project
        // in the workspace is often only embedded: Xcode links it implicitly).
        for phase in ids(o, "buildPhases") where isa(phase) == "PBXFrameworksBuildPhase" || isa(phase) == "PBXCopyFilesBuildPhase" {
            let embedding = isa(phase) == "PBXCopyFilesBuildPhase"
            for bf in ids(obj(phase), "files") {
                let build = obj(bf)
                guard Self.buildsForIOS(build), let ref = str(build, "fileRef") else { continue }
                let r = obj(ref)
                switch str(r, "isa") {
                case "PBXReferenceProxy", "PBXFileReference":
                    guard str(r, "isa") == "PBXReferenceProxy" || str(r, "sourceTree") == "BUILT_PRODUCTS_DIR", let p = str(r, "path") else { break }
                    let file = ProjectPaths.name(of: p)
                    if !embedding || file.hasSuffix(".framework") { links.append(.productFile(file)) }
                default:
                    break  // SDK frameworks and prebuilt binaries: not the app's code
                }
            }
        }
        for dep in ids(o, "dependencies") {
            let d = obj(dep)
            if let target = str(d, "target") {
                links.append(.target(target))
            } else if let proxy = obj(str(d, "targetProxy")) {
                if str(proxy, "containerPortal") == rootID, let remote = str(proxy, "remoteGlobalIDString") {
                    links.append(.target(remote))
                } else if let info = str(proxy, "remoteInfo") {
                    links.append(.targetNamed(info))
                }
            }
        }
        for dep in ids(o, "packageProductDependencies") {
            let d = obj(dep)
            guard var product = str(d, "productName") else { continue }
            if product.hasPrefix("plugin:") { continue }  // a build tool plugin, not code the app runs
            if let colon = product.lastIndex(of: ":") { product = String(product[product.index(after: colon)...]) }
            let package = str(d, "package")
            switch isa(package) {
            case "XCLocalSwiftPackageReference":
                let rel = str(obj(package), "relativePath") ?? ""
                links.append(.package(folder: ProjectPaths.join(container, rel), product: product))
            case "XCRemoteSwiftPackageReference":
                t.remotePackages.insert(Self.packageName(str(obj(package), "repositoryURL") ?? product))
            default:
                links.append(.package(folder: nil, product: product))
            }
        }
        t.links = links
        t.warnings = Array(warnings[before...])
        return t
    }

    /// Whether a build file is built for iOS (no platform filter, or one naming iOS).
    static func buildsForIOS(_ build: [String: Any]?) -> Bool {
        var filters: [String] = []
        if let f = build?["platformFilter"] as? String { filters.append(f) }
        if let fs = build?["platformFilters"] as? [Any] { filters += fs.compactMap { $0 as? String } }
        return filters.isEmpty || filters.contains("ios")
    }

    /// A package's name from its repository URL (`https://host/owner/Name.git` → `Name`).
    static func packageName(_ url: String) -> String {
        var n = ProjectPaths.name(of: url)
        if n.hasSuffix(".git") { n.removeLast(4) }
        return n
    }

    /// The Swift files under a synchronized folder, relative to it.
    mutating func swiftFiles(under folder: String) -> [String] {
        var walk = FolderWalk(maxDepth: 32, skipPackages: true, skip: { $0.hasSuffix(".xcassets") || $0.hasSuffix(".xcdatamodeld") })
        let files = walk.files(under: folder, want: { _, name in name.hasSuffix(".swift") })
        if walk.truncated {
            warnings.append((shown(folder), "more than \(FolderWalk.maxEntries) entries in this synchronized folder; the Swift files past them are left out"))
        }
        return files
    }
}
