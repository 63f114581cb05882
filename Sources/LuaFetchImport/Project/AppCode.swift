// The app's code (SPEC 18.8.1): the chosen target's Swift sources plus those of the
// in-repository frameworks and local package products it links, transitively (a framework's own
// links, a package target's dependencies inside its package and into other local packages), each
// file with its module; tests, other targets and remote packages are left out (remote ones
// counted for the report). Local packages are read once each. Uses ProjectModel,
// SwiftPackageReader.

/// What the chosen target brings in.
struct AppCode {
    /// (file as it can be opened, module), the target's own first, each file once.
    var files: [(path: String, module: String)] = []
    /// In-repository framework targets linked, by name.
    var frameworks: [String] = []
    /// Local packages linked (their names).
    var packages: [String] = []
    /// Remote packages (or products of unknown packages) linked, left out.
    var remote: Set<String> = []
    /// Source files projects name that are not on disk.
    var missing = 0
    var warnings: [(where: String, text: String)] = []

    /// Gathers the code of `target` (of `projects[project]`). `knownPackages` are the folders of
    /// every Package.swift found, searched for products a project links without saying where.
    static func gather(_ target: ProjectTarget, project: Int, projects: [Project], knownPackages: [String],
                       shown: (String) -> String) -> AppCode {
        var code = AppCode()
        var seenFiles = Set<String>()
        var seenTargets = Set<String>()
        var packageCache: [String: SwiftPackage?] = [:]
        var packageNames: [String] = []

        func add(_ paths: [String], module: String) {
            for p in paths where seenFiles.insert(p).inserted { code.files.append((p, module)) }
        }
        func package(_ folder: String) -> SwiftPackage? {
            if let cached = packageCache[folder] { return cached }
            let p = SwiftPackageReader.read(folder, shown: shown, warnings: &code.warnings)
            packageCache[folder] = p
            if p == nil && ProjectPaths.kind(ProjectPaths.join(folder, "Package.swift")) != "f" {
                code.warnings.append((shown(folder), "a local package the app links, but its Package.swift is not in the repository; its code is left out"))
            }
            return p
        }
        func firstPackage(_ folders: [String], with product: String) -> SwiftPackage? {
            for f in folders { if let p = package(f), p.products[product] != nil { return p } }
            return nil
        }
        func packageTarget(_ pkg: SwiftPackage, _ name: String, depth: Int) {
            guard depth < 64, seenTargets.insert("pkg:\(pkg.folder):\(name)").inserted,
                  let t = pkg.targets.first(where: { $0.name == name }), !t.isTest else { return }
            if !packageNames.contains(pkg.name) { packageNames.append(pkg.name) }
            add(t.sources, module: t.name)
            code.missing += t.missing
            for d in t.targetDependencies { packageTarget(pkg, d, depth: depth + 1) }
            for (pname, product) in t.productDependencies {
                if let pname, let folder = pkg.localDependencies[pname.lowercased()] {
                    if let other = package(folder) { packageProduct(other, product, depth: depth + 1) }
                } else if let pname, pkg.remoteDependencies.contains(where: { $0.lowercased() == pname.lowercased() }) {
                    code.remote.insert(pname)
                } else if let other = firstPackage(pkg.localDependencies.values.sorted(), with: product) {
                    packageProduct(other, product, depth: depth + 1)
                } else {
                    code.remote.insert(pname ?? product)
                }
            }
        }
        func packageProduct(_ pkg: SwiftPackage, _ product: String, depth: Int) {
            let targets = pkg.products[product] ?? (pkg.targets.contains { $0.name == product } ? [product] : [])
            for t in targets { packageTarget(pkg, t, depth: depth) }
        }
        func projectTarget(_ t: ProjectTarget, in pi: Int, depth: Int) {
            guard depth < 64, seenTargets.insert("\(projects[pi].path):\(t.id)").inserted else { return }
            add(t.sources, module: t.module)
            code.missing += t.missingSources
            code.warnings += t.warnings
            code.remote.formUnion(t.remotePackages)
            for link in t.links {
                switch link {
                case .target(let id):
                    let p = projects[pi]
                    if let dep = p.targets.first(where: { $0.id == id }) ?? p.targets.first(where: { $0.name == id + "_iOS" }), linkable(dep) {
                        linkFramework(dep, in: pi, depth: depth)
                    }
                case .targetNamed(let name):
                    if let (dpi, dep) = find({ $0.name == name }, preferring: pi) { linkFramework(dep, in: dpi, depth: depth) }
                case .productFile(let file):
                    if let (dpi, dep) = find({ $0.productFile == file || $0.name + ".framework" == file }, preferring: pi) {
                        linkFramework(dep, in: dpi, depth: depth)
                    }
                case .package(let folder, let product):
                    if let folder {
                        if let pkg = package(folder) { packageProduct(pkg, product, depth: depth + 1) }
                    } else {
                        let folders = (projects[pi].localPackages + knownPackages).sorted()
                        if let pkg = firstPackage(folders, with: product) {
                            packageProduct(pkg, product, depth: depth + 1)
                        } else {
                            code.remote.insert(product)
                        }
                    }
                }
            }
        }
        func linkable(_ t: ProjectTarget) -> Bool { t.kind == .framework }
        func find(_ match: (ProjectTarget) -> Bool, preferring pi: Int) -> (Int, ProjectTarget)? {
            let order = [pi] + projects.indices.filter { $0 != pi }
            for i in order { if let t = projects[i].targets.first(where: { match($0) && linkable($0) }) { return (i, t) } }
            return nil
        }
        func linkFramework(_ t: ProjectTarget, in pi: Int, depth: Int) {
            if !seenTargets.contains("\(projects[pi].path):\(t.id)") && !code.frameworks.contains(t.name) { code.frameworks.append(t.name) }
            projectTarget(t, in: pi, depth: depth + 1)
        }
        projectTarget(target, in: project, depth: 0)
        code.packages = packageNames
        return code
    }
}
