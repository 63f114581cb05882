// What the project readers produce (SPEC 18.8.1), one shape for Xcode projects, XcodeGen specs
// and Swift packages: the targets with their kind, platforms, Swift sources, Release build
// settings, Info.plist and what they link (in-repository targets, local package products,
// remote packages). Uses BuildSettings; no file access.

/// The kind of project file a target came from.
enum ProjectKind: String, Sendable {
    case xcode = "Xcode project"
    case xcodegen = "XcodeGen spec"
    case package = "Swift package"
}

/// The platforms a target builds for.
enum Platform: String, Sendable, Comparable {
    case iOS, macOS, watchOS, tvOS, visionOS
    static func < (a: Platform, b: Platform) -> Bool { a.rawValue < b.rawValue }

    /// From an SDK name (`iphoneos`, `macosx`, `watchos`, `appletvos`, `xros`, with or without a
    /// version or `simulator`).
    static func sdk(_ s: String) -> Platform? {
        let l = s.lowercased()
        if l.hasPrefix("iphone") { return .iOS }
        if l.hasPrefix("macosx") || l == "macos" || l == "osx" { return .macOS }
        if l.hasPrefix("watch") { return .watchOS }
        if l.hasPrefix("appletv") || l == "tvos" { return .tvOS }
        if l.hasPrefix("xr") || l == "visionos" { return .visionOS }
        if l == "ios" || l == "maccatalyst" { return .iOS }
        return nil
    }
}

/// What a target builds, as far as choosing the app goes.
enum TargetKind: String, Sendable {
    case app = "app"
    case watchApp = "watch app"
    case appClip = "App Clip"
    case appExtension = "extension"
    case framework = "framework"
    case library = "library"
    case test = "test"
    case other = "other"

    /// From an Xcode product type (`com.apple.product-type.…`).
    static func productType(_ t: String) -> TargetKind {
        let s = t.hasPrefix("com.apple.product-type.") ? String(t.dropFirst("com.apple.product-type.".count)) : t
        switch s {
        case "application", "application.messages": return .app
        case "application.on-demand-install-capable": return .appClip
        case "application.watchapp", "application.watchapp2", "application.watchapp2-container", "watchkit-extension", "watchkit2-extension": return .watchApp
        case "framework", "framework.static", "library.static", "library.dynamic", "xcframework": return .framework
        case "tool": return .other
        case _ where s.hasPrefix("bundle.unit-test") || s.hasPrefix("bundle.ui-testing") || s.hasPrefix("bundle.ocunit-test"): return .test
        case _ where s.contains("extension") || s.hasSuffix("-ext") || s == "xpc-service": return .appExtension
        default: return .other
        }
    }
}

/// A local package product or an in-repository target a target links.
enum Link: Hashable, Sendable {
    /// A target of the same project, by its identifier in that project.
    case target(String)
    /// A product file (`X.framework`, `libX.a`) some target of the repository builds.
    case productFile(String)
    /// A target of another project of the repository, by name (a cross-project dependency).
    case targetNamed(String)
    /// A product of a local Swift package: the package's folder (nil: any local package) and the product.
    case package(folder: String?, product: String)
}

/// One target of a project.
struct ProjectTarget: Sendable {
    /// The target's identifier in its project (a pbxproj object id, or its name).
    var id: String
    var name: String
    var productType: String
    var kind: TargetKind
    var platforms: [Platform] = []
    /// Swift source files as they can be opened, in path order, each once.
    var sources: [String] = []
    /// Source files the project names that are not on disk (a missing submodule, a generated file).
    var missingSources = 0
    var settings = BuildSettings()
    /// XcodeGen's `info.properties` (merged over the Info.plist file).
    var infoProperties: [String: PlistValue] = [:]
    /// XcodeGen's `info.path` (the file XcodeGen writes): resolved before INFOPLIST_FILE.
    var generatedInfoPath: String?
    /// What it links: in-repository targets, product files, local package products.
    var links: [Link] = []
    /// Remote packages it links directly (their names).
    var remotePackages: Set<String> = []
    /// The product file name it builds (`App.app`, `Core.framework`), for matching links.
    var productFile: String?
    /// Problems met while reading this target (its xcconfig files, its sources): (where, what).
    var warnings: [(where: String, text: String)] = []

    /// The Swift module its files belong to (PRODUCT_MODULE_NAME).
    var module: String {
        let m = settings.value("PRODUCT_MODULE_NAME") ?? name
        return m.contains("$(") || m.isEmpty ? BuildSettings.c99Identifier(name) : m
    }
}

/// One project file, read.
struct Project: Sendable {
    var kind: ProjectKind
    /// The project file as given to the reader (`X.xcodeproj`, `project.yml`, `Package.swift`).
    var path: String
    /// The folder the project's relative paths start from (SRCROOT).
    var root: String
    var name: String
    var targets: [ProjectTarget] = []
    /// Local packages the project references (their folders).
    var localPackages: [String] = []
    /// Problems met while reading it: (where, what).
    var warnings: [(where: String, text: String)] = []
}

/// A local Swift package, read from its Package.swift.
struct SwiftPackage: Sendable {
    var folder: String
    var name: String
    struct Target: Sendable {
        var name: String
        var isTest: Bool
        var isExecutable = false
        var sources: [String]
        var missing = 0
        /// Targets of this package it depends on, and products of other packages: (package, product).
        var targetDependencies: [String]
        var productDependencies: [(package: String?, product: String)]
    }
    var targets: [Target] = []
    /// Product name → its targets.
    var products: [String: [String]] = [:]
    /// Local package dependencies: identity (folder name, lowercased) → folder.
    var localDependencies: [String: String] = [:]
    /// Remote package identities it depends on.
    var remoteDependencies: Set<String> = []
}
