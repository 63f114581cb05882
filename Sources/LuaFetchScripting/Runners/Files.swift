// Files: the one way luafetch writes files (`new`, `types`, `test --junit/--html`,
// `explore --html`, `run --trace`, the REPL's `.save`) and reads the files it does not run
// (explore's shards, an existing `.luarc.json`). The rule: write only regular files luafetch
// creates, or regular files it was told to replace; never follow a symbolic link when writing (a
// link could point anywhere, so writing through it writes outside the path asked for). A new file is made with
// open(O_CREAT | O_EXCL | O_NOFOLLOW), an existing one is looked at with lstat and opened with
// O_NOFOLLOW | O_NONBLOCK and checked again once open. Reading goes through ScenarioFile.input
// (regular files of at most 64 MiB). Plain POSIX calls, no Foundation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file was not written, in the user's terms.
public enum WriteProblem: Error, Equatable {
    /// A file is there and the command may not replace it.
    case exists
    /// A symbolic link is there (dangling or not).
    case link
    /// A folder, a device, a pipe or a socket is there.
    case notRegular
    /// The system refused (the text of errno).
    case failed(String)

    public var message: String {
        switch self {
        case .exists: return "it already exists"
        case .link: return "it is a symbolic link, and luafetch never writes through a link (it may point outside the folder you gave); remove the link or choose another path"
        case .notRegular: return "it is not a regular file (a folder, a device, a pipe or a socket); choose another path"
        case .failed(let why): return why
        }
    }
}

/// Whether a write may replace a regular file already at the path.
public enum Existing { case keep, replace }

/// Writes `text` to `path`: creates a new regular file, or, with `.replace`, replaces the regular
/// file there. Never writes through a symbolic link, into a device or a pipe, or into a file it
/// was not told to replace; returns what stopped it, or nil.
@discardableResult
public func writeFile(_ path: String, _ text: String, existing: Existing) -> WriteProblem? {
    let fd: Int32
    var st = stat()
    if lstat(path, &st) == 0 {
        switch st.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFREG: break
        default: return .notRegular
        }
        guard existing == .replace else { return .exists }
        // Not truncated before it is known to be the regular file lstat saw.
        fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno == ELOOP ? .link : .failed(String(cString: strerror(errno))) }
        var now = stat()
        guard fstat(fd, &now) == 0, (now.st_mode & S_IFMT) == S_IFREG, ftruncate(fd, 0) == 0 else {
            close(fd)
            return .notRegular
        }
    } else {
        guard errno == ENOENT else { return .failed(String(cString: strerror(errno))) }
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errno == EEXIST ? .exists : .failed(String(cString: strerror(errno))) }
    }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
            let why = String(cString: strerror(n < 0 ? errno : EIO))
            close(fd)
            return .failed(why)
        }
        offset += n
    }
    return close(fd) == 0 ? nil : .failed(String(cString: strerror(errno)))
}

/// Makes the folder `path` (and its parents) unless it exists; returns an error message on failure.
/// The folder is the one the user named: a link on its way is followed, as the user would.
public func makeFolder(_ path: String) -> String? {
    var built = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        built += "/" + part
        if mkdir(built, 0o755) != 0 && errno != EEXIST { return "\(built): \(String(cString: strerror(errno)))" }
    }
    return nil
}

/// Makes the folder `path` that luafetch owns inside a folder the user named (`.luafetch`), or
/// checks that the one there is a real folder: a link there could point anywhere.
public func makeOwnFolder(_ path: String) -> WriteProblem? {
    if mkdir(path, 0o755) == 0 { return nil }
    guard errno == EEXIST else { return .failed(String(cString: strerror(errno))) }
    var st = stat()
    guard lstat(path, &st) == 0 else { return .failed(String(cString: strerror(errno))) }
    switch st.st_mode & S_IFMT {
    case S_IFDIR: return nil
    case S_IFLNK: return .link
    default: return .failed("it is not a folder; remove it, so luafetch can make the folder")
    }
}

/// The text of the regular file at `path` (at most 64 MiB), or nil: a missing file, a folder, a
/// device or a pipe is never read.
public func readRegularFile(_ path: String) -> String? {
    let any = ScenarioFile.Input(noun: "a file", missing: "", give: "", tooLarge: "")
    return (try? ScenarioFile.input(path, as: any)).map { String(decoding: $0, as: UTF8.self) }
}
