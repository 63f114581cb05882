// `luafetch import ...` runs the importer, `luafetch-import`, a separate executable (issue #39:
// the simulator is built, installed and started without swift-syntax and Foundation, which only
// the importer needs). It is looked for beside this executable, then in the build folder of the
// source tree luafetch was built from (built there the first time it is needed, saying so in one
// line: a few minutes, mostly swift-syntax). The arguments pass through unchanged, so
// `luafetch import --help` is the importer's own help.
import ArgumentParser
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The subcommand as `luafetch --help` lists it; `luafetch import ...` never parses here (see
/// `ImporterFront.run`, called before ArgumentParser).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a scenario from an app's Swift sources and Info.plist (luafetch import --help).",
        shouldDisplay: true
    )

    @Argument(parsing: .captureForPassthrough, help: "The importer's arguments (luafetch import --help lists them).")
    var arguments: [String] = []

    func run() throws { ImporterFront.run(arguments) }
}

enum ImporterFront {
    static let name = "luafetch-import"

    /// Replaces this process with the importer, given `arguments`; exits 2 when there is none.
    static func run(_ arguments: [String]) -> Never {
        guard let path = locate() else {
            Output.error("luafetch import: the importer (\(name)) is not beside luafetch and cannot be built here; build it in luafetch's source folder with `swift build -c release --product \(name)` and put it beside luafetch\n")
            exit(2)
        }
        Output.flush()
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, &argv)
        Output.error("luafetch import: cannot run \(path): \(String(cString: strerror(errno)))\n")
        exit(2)
    }

    /// The importer beside this executable, or in the source tree's build folder (built there
    /// when missing).
    static func locate() -> String? {
        let exe = executablePath()
        if let exe {
            let beside = dirname(exe) + "/" + name
            if access(beside, X_OK) == 0 { return beside }
        }
        // The source tree luafetch was built from (this file's path when it was compiled).
        let source = #filePath
        let marker = "/Sources/luafetch/ImportFront.swift"
        guard source.hasSuffix(marker) else { return nil }
        let root = String(source.dropLast(marker.count))
        guard access(root + "/Package.swift", R_OK) == 0 else { return nil }
        let debug = exe.map { $0.hasPrefix(root + "/.build/") && $0.contains("/debug/") } ?? false
        let built = root + "/.build/" + (debug ? "debug" : "release") + "/" + name
        if access(built, X_OK) == 0 { return built }
        Output.error("luafetch import: building the importer (first use only: a few minutes, mostly swift-syntax)\n")
        let command = debug ? "swift build --package-path '\(root)' --product \(name) >'\(root)/.build/build-importer.log' 2>&1"
                            : "'\(root)/scripts/build-release' --quiet --importer"
        guard system(command) == 0, access(built, X_OK) == 0 else {
            Output.error("luafetch import: the importer's build failed" + (debug ? " (its log is in \(root)/.build/build-importer.log)" : "") + "\n")
            return nil
        }
        return built
    }

    static func executablePath() -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 { return String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        guard let arg0 = CommandLine.arguments.first, arg0.contains("/"), let r = realpath(arg0, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    static func dirname(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
