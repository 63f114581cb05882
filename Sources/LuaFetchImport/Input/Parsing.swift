// Parsing with SwiftSyntax (SPEC 18.1, 18.7.14): a file parses into a tree; any diagnostic of
// error severity ends the import with `File.swift:LINE:COL: message` (exit 2); `#if` keeps the
// branches an iOS release build would compile (DEBUG and the simulator off, iOS and Apple's
// frameworks on); infix operators are folded into expression trees (SwiftOperators).
import SwiftSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SwiftParser
import SwiftParserDiagnostics
import SwiftDiagnostics
import SwiftOperators
import SwiftIfConfig

/// One parsed Swift file.
struct ParsedFile {
    let source: SwiftSource
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter

    /// The 1-based line where `node` starts (its first token, not leading trivia).
    func line(_ node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }
    /// The line of `node`'s last token (a closing brace).
    func endLine(_ node: some SyntaxProtocol) -> Int {
        converter.location(for: node.endPositionBeforeTrailingTrivia).line
    }
}

/// The build an iOS app ships: `#if DEBUG` and the simulator false, `os(iOS)` and `canImport` of
/// Apple's frameworks true (18.7.14).
struct ReleaseBuild: BuildConfiguration {
    static let appleFrameworks: Set<String> = [
        "UIKit", "Foundation", "SwiftUI", "BackgroundTasks", "Combine", "UserNotifications", "CoreData", "os",
        "Darwin", "Dispatch", "CoreLocation", "AVFoundation", "WidgetKit", "CloudKit", "StoreKit", "Network",
        "CoreGraphics", "QuartzCore", "MapKit", "Photos", "SafariServices", "WebKit", "AppIntents", "ActivityKit",
        "OSLog", "CryptoKit", "Security", "SystemConfiguration", "MobileCoreServices", "UniformTypeIdentifiers",
    ]
    /// The target's SWIFT_ACTIVE_COMPILATION_CONDITIONS for Release (`MAIN_APP`, `BETA`, ...);
    /// none without a project (DEBUG is a debug build's: off).
    var conditions: Set<String> = []
    func isCustomConditionSet(name: String) throws -> Bool { conditions.contains(name) }
    func hasFeature(name: String) throws -> Bool { false }
    func hasAttribute(name: String) throws -> Bool { true }
    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool {
        importPath.first.map { Self.appleFrameworks.contains($0.1) } ?? false
    }
    func isActiveTargetOS(name: String) throws -> Bool { name == "iOS" }
    func isActiveTargetArchitecture(name: String) throws -> Bool { name == "arm64" }
    func isActiveTargetEnvironment(name: String) throws -> Bool { false }
    func isActiveTargetRuntime(name: String) throws -> Bool { name == "_ObjC" }
    func isActiveTargetPointerAuthentication(name: String) throws -> Bool { false }
    func isActiveTargetObjectFormat(name: String) throws -> Bool { name == "MachO" }
    var targetPointerBitWidth: Int { 64 }
    var targetAtomicBitWidths: [Int] { [32, 64] }
    var endianness: Endianness { .little }
    var languageVersion: VersionTuple { VersionTuple(5, 10) }
    var compilerVersion: VersionTuple { VersionTuple(6, 0) }
}

enum Parsing {
    /// How deep the parser follows nesting before it stops with an error, the same in debug and
    /// release builds (SwiftParser's own default is 20 in a debug build and 256 in a release one);
    /// the import runs on threads with room for it (Threads).
    static let maximumNestingLevel = 1024

    /// Every file parsed, on every core (SwiftSyntax trees are independent; Threads.forEach), in the order given;
    /// the first file in that order that does not parse is the error.
    static func parseAll(_ sources: [SwiftSource]) throws(ImportError) -> [ParsedFile] {
        final class Results: @unchecked Sendable {
            var files: [Result<ParsedFile, ImportError>?]
            init(_ n: Int) { files = Array(repeating: nil, count: n) }
        }
        let results = Results(sources.count)
        let lock = PThreadLock()
        Threads.forEach(sources.count) { i in
            let r: Result<ParsedFile, ImportError>
            do throws(ImportError) { r = .success(try parse(sources[i])) } catch { r = .failure(error) }
            lock.locked { results.files[i] = r }
        }
        var out: [ParsedFile] = []
        out.reserveCapacity(sources.count)
        for r in results.files {
            switch r! {
            case .success(let f): out.append(f)
            case .failure(let e): throw e
            }
        }
        return out
    }

    /// Parses `source`; the first error-severity diagnostic is an ImportError.
    static func parse(_ source: SwiftSource) throws(ImportError) -> ParsedFile {
        var text = source.text
        var tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: maximumNestingLevel) }
        let converter = SourceLocationConverter(fileName: source.shown, tree: tree)
        if tree.hasError, var spaced = attributeBeforeFunctionType(text) {
            // `(@MainActor() -> Void)?` compiles, but SwiftParser reads `()` as the attribute's
            // arguments: with a space there (`@MainActor ()`), the same code parses. Lines stay.
            let again = spaced.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: maximumNestingLevel) }
            if !again.hasError { tree = again }
        }
        if tree.hasError {
            let (position, message) = firstError(tree)
            let loc = converter.location(for: position)
            throw ImportError("\(source.shown):\(loc.line):\(loc.column): \(message) (luafetch import reads Swift that compiles)")
        }
        // Infix operators folded into trees; the text (and so every position) stays the same.
        // `#if` is resolved where the translation meets it (`activeClause(in: ReleaseBuild())`).
        let folded = OperatorTable.standardOperators.foldAll(tree) { _ in }
        guard let file = folded.as(SourceFileSyntax.self) else {
            throw ImportError("\(source.shown):1:1: the file does not parse as Swift")
        }
        let c = SourceLocationConverter(fileName: source.shown, tree: file)
        return ParsedFile(source: source, tree: file, converter: c)
    }
}

extension Parsing {
    /// `text` with a space between an attribute and the `()` of a function type that follows it
    /// with none (`@MainActor() -> Void` becomes `@MainActor () -> Void`), nil when it has none.
    static func attributeBeforeFunctionType(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var changed = false
        var i = 0
        func isIdent(_ b: UInt8) -> Bool { b == 95 || (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        while i < bytes.count {
            out.append(bytes[i])
            // `@Name` then `()` then spaces and `->`, `throws` or `async`.
            if bytes[i] == 64, i + 1 < bytes.count, isIdent(bytes[i + 1]) {
                var j = i + 1
                while j < bytes.count, isIdent(bytes[j]) { j += 1 }
                if j + 1 < bytes.count, bytes[j] == 40, bytes[j + 1] == 41 {
                    var k = j + 2
                    while k < bytes.count, bytes[k] == 32 { k += 1 }
                    let rest = bytes[k..<min(bytes.count, k + 6)]
                    if rest.starts(with: Array("->".utf8)) || rest.starts(with: Array("throws".utf8)) || rest.starts(with: Array("async".utf8)) {
                        out.append(contentsOf: bytes[(i + 1)..<j])
                        out.append(32)
                        changed = true
                        i = j
                        continue
                    }
                }
            }
            i += 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : nil
    }

    /// How many error nodes (missing tokens, unexpected code) a file may have before its first
    /// error is described from the code around it rather than from the whole file.
    static let wholeFileDiagnosticsLimit = 16

    /// Where a tree that does not parse first goes wrong, and SwiftParserDiagnostics' words for it.
    /// ParseDiagnosticsGenerator over a whole file costs about (its depth × its errors): a fix-it is
    /// formatted per missing token, each looking up its ancestors, so 900 unclosed `if`s took 10 s
    /// in a debug build. A nesting overflow is named where it starts; a file with many errors is
    /// described from the smallest enclosing node whose diagnostics have an error, found by
    /// doubling the climb from the first error node; a file with few gets the whole-file answer.
    static func firstError(_ tree: SourceFileSyntax) -> (AbsolutePosition, String) {
        if tree.hasMaximumNestingLevelOverflow, let node = overflow(Syntax(tree)) {
            return (node.positionAfterSkippingLeadingTrivia, "parsing has exceeded the maximum nesting level")
        }
        var first: Syntax?
        var count = 0
        countErrors(Syntax(tree), &first, &count)
        if count <= wholeFileDiagnosticsLimit || first == nil {
            return firstDiagnostic(of: tree) ?? (AbsolutePosition(utf8Offset: 0), "the file does not parse as Swift")
        }
        var node = first!
        var climb = 1
        while true {
            for _ in 0..<climb { node = node.parent ?? node }
            if let found = firstDiagnostic(of: node) { return found }
            if node.parent == nil { break }
            climb *= 2
        }
        return (first!.positionAfterSkippingLeadingTrivia, "the file does not parse as Swift")
    }

    private static func firstDiagnostic(of node: some SyntaxProtocol) -> (AbsolutePosition, String)? {
        let diags = ParseDiagnosticsGenerator.diagnostics(for: node)
        guard let d = diags.first(where: { $0.diagMessage.severity == .error }) else { return nil }
        return (d.position, d.message)
    }

    /// The unexpected nodes the parser gave the rest of the file to when it overflowed its nesting.
    private static func overflow(_ node: Syntax) -> Syntax? {
        if node.is(UnexpectedNodesSyntax.self) { return node }
        for child in node.children(viewMode: .all) where child.hasMaximumNestingLevelOverflow {
            return overflow(child)
        }
        return nil
    }

    /// Counts error nodes (up to the limit, plus one) in source order, keeping the first.
    private static func countErrors(_ node: Syntax, _ first: inout Syntax?, _ count: inout Int) {
        guard count <= wholeFileDiagnosticsLimit, node.hasError else { return }
        if let token = node.as(TokenSyntax.self) {
            if token.presence == .missing { count += 1; if first == nil { first = node } }
            return
        }
        if node.is(UnexpectedNodesSyntax.self) {
            count += 1
            if first == nil { first = node }
            return
        }
        for child in node.children(viewMode: .all) { countErrors(child, &first, &count) }
    }
}

/// A pthread mutex (the importer uses no Foundation lock).
final class PThreadLock: @unchecked Sendable {
    private let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(m, nil) }
    deinit { pthread_mutex_destroy(m); m.deallocate() }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(m)
        defer { pthread_mutex_unlock(m) }
        return body()
    }
}
