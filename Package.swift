// swift-tools-version: 6.0
// luafetch: a deterministic simulator of iOS background execution, scripted in Lua 5.4.
import PackageDescription

// No unsafeFlags (SwiftPM refuses them in a dependency). scripts/build-release (scripts/run,
// scripts/install, scripts/bench) passes `-Xswiftc -enforce-exclusivity=unchecked`; a plain
// `swift build -c release` is as fast on the event loop because the stored properties on every
// event's path are `@exclusivity(unchecked)` in the source (see World.swift and docs/PERFORMANCE.md).

let package = Package(
    name: "luafetch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "luafetch", targets: ["luafetch"]),
        // `luafetch import`: luafetch runs it (only it needs swift-syntax and Foundation).
        .executable(name: "luafetch-import", targets: ["luafetch-import"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `luafetch import` (SPEC 18) parses Swift with SwiftSyntax, never a hand-written parser.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
        // XcodeGen project specs (SPEC 18.8.1) are YAML, read with Yams, never a hand-written parser.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // libedit, opened with dlopen when a REPL starts (libdl: glibc before 2.34 keeps dlopen there).
        .target(name: "CEditLine", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "CLuaHost",
            dependencies: ["CLua"]
        ),
        // The HTML pages' style and scripts, compiled into the binary (HTMLReportAssets).
        // Each folder's README.md says what lives there, what it may use and what must never use it.
        .target(
            name: "LuaFetchCore",
            exclude: ["Engine/README.md", "iOS/README.md", "Reports/README.md", "Explore/README.md"],
            resources: [.embedInCode("Reports/Page/page.css"), .embedInCode("Reports/Page/page.js"),
                        .embedInCode("Reports/Page/page-details.js"), .embedInCode("Reports/Page/page-list.js"),
                        .embedInCode("Reports/Page/index.js")]
        ),
        // SPEC 18: an app's Swift sources and Info.plist to a scenario (pure Swift, no Lua).
        .target(
            name: "LuaFetchImport",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftOperators", package: "swift-syntax"),
                .product(name: "SwiftIfConfig", package: "swift-syntax"),
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["Input/README.md", "Project/README.md", "Slice/README.md", "Translation/README.md", "Tables/README.md", "Checks/README.md", "Scenario/README.md"]
        ),
        .target(
            name: "LuaFetchScripting",
            dependencies: ["CLua", "CLuaHost", "LuaFetchCore"],
            exclude: ["Lua/README.md", "API/README.md", "API/Swift/README.md", "Runners/README.md"],
            // The runtime of imported scenarios (SPEC 18), compiled into the binary: its modules,
            // loaded in SwiftRuntimeAPI's order.
            resources: ["process", "types", "errors", "operators", "strings", "collections", "failures", "stubs",
                        "concurrency", "foundation", "app", "publishers", "urlsession"].map { Resource.embedInCode("API/Swift/\($0).lua") }
        ),
        .executableTarget(
            name: "luafetch",
            dependencies: [
                "LuaFetchCore", "LuaFetchScripting", "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The importer's executable (SPEC 18; issue #39: the simulator builds without it).
        .executableTarget(
            name: "luafetch-import",
            dependencies: [
                "LuaFetchImport", "LuaFetchScripting", "LuaFetchCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LuaFetchCoreTests", dependencies: ["LuaFetchCore"]),
        .testTarget(name: "LuaFetchImportTests", dependencies: ["LuaFetchImport", "LuaFetchScripting", "LuaFetchCore",
                    .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftParser", package: "swift-syntax")], exclude: ["Fixtures", "Snapshots", "RealShapes", "Projects"]),
        .testTarget(name: "LuaFetchScriptingTests", dependencies: ["LuaFetchScripting", "LuaFetchCore"]),
        .testTarget(name: "luafetchCLITests", dependencies: ["luafetch", "luafetch-import"], exclude: ["Snapshots", "Robustness", "pty_repl.py"]),
    ],
    swiftLanguageModes: [.v6]
)
