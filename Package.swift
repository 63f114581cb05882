// swift-tools-version: 6.0
// luafetch: a deterministic simulator of iOS background execution, scripted in Lua 5.4.
import PackageDescription

// No unsafeFlags (SwiftPM refuses them in a dependency): scripts/run and scripts/bench pass
// `-Xswiftc -enforce-exclusivity=unchecked` for release builds (about 7 % of the instructions per
// event; see docs/PERFORMANCE.md).

let package = Package(
    name: "luafetch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "luafetch", targets: ["luafetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        .target(name: "LuaFetchCore"),
        .target(
            name: "LuaFetchScripting",
            dependencies: ["CLua", "CLuaHost", "LuaFetchCore"]
        ),
        .executableTarget(
            name: "luafetch",
            dependencies: [
                "LuaFetchCore", "LuaFetchScripting", "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LuaFetchCoreTests", dependencies: ["LuaFetchCore"]),
        .testTarget(name: "LuaFetchScriptingTests", dependencies: ["LuaFetchScripting", "LuaFetchCore"]),
        .testTarget(name: "luafetchCLITests", dependencies: ["luafetch"], exclude: ["Snapshots", "Robustness", "pty_repl.py"]),
    ],
    swiftLanguageModes: [.v6]
)
