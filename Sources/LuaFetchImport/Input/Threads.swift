// Threads with a stack deep enough for Swift as people write it (SPEC 18.7.14): SwiftSyntax's
// parser, visitors and the translator recurse once per level of nesting, and a worker thread's
// default stack (or the main thread's 8 MiB, in a debug build) ends in a crash long before a
// deeply nested file does. Provides `Threads.forEach` (the files parsed on every core) and
// `Threads.onLargeStack` (the import itself). Uses pthreads only (the importer has no Foundation).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Threads {
    /// Each thread's stack: address space reserved, touched only as deep as the recursion goes.
    static let stackSize = 1 << 30

    /// The machine's cores (at least 1).
    static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Runs `body(i)` for every i in 0..<n on up to `cores` threads with large stacks, and returns
    /// when all have run. Which thread runs which index is open; callers store results by index.
    static func forEach(_ n: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard n > 0 else { return }
        let next = Counter()
        let workers = min(n, cores)
        let work: @Sendable () -> Void = {
            while true {
                let i = next.take()
                if i >= n { return }
                body(i)
            }
        }
        let threads = (0..<workers).map { _ in start(work) }
        for t in threads { join(t) }
    }

    /// Runs `body` on one thread with a large stack and returns what it returned or threw.
    static func onLargeStack<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try withoutActuallyEscaping(body) { (escapable) throws(E) -> T in
            let box = ResultBox<T, E>()
            let t = start { [box] in
                do throws(E) { box.result = .success(try escapable()) } catch { box.result = .failure(error) }
            }
            join(t)
            return try box.result!.get()
        }
    }

    // MARK: - pthreads

    private final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = PThreadLock()
        func take() -> Int { lock.locked { value += 1; return value - 1 } }
    }
    private final class ResultBox<T, E: Error>: @unchecked Sendable { var result: Result<T, E>? }
    private final class Job { let run: () -> Void; init(_ run: @escaping () -> Void) { self.run = run } }

    #if canImport(Glibc)
    private typealias Handle = pthread_t
    #else
    private typealias Handle = pthread_t?
    #endif

    private static func start(_ run: @escaping () -> Void) -> Handle {
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setstacksize(&attr, stackSize)
        let context = Unmanaged.passRetained(Job(run)).toOpaque()
        var thread: Handle = .init(bitPattern: 0)
        let rc = pthread_create(&thread, &attr, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            job.run()
            return nil
        }, context)
        if rc != 0 {
            // No thread to be had (the process's limit): run here, on the caller's stack.
            Unmanaged<Job>.fromOpaque(context).takeRetainedValue().run()
            return .init(bitPattern: 0)
        }
        return thread
    }

    private static func join(_ t: Handle) {
        #if canImport(Glibc)
        if t == 0 { return }
        pthread_join(t, nil)
        #else
        if let t { pthread_join(t, nil) }
        #endif
    }
}
