// The constructs the RealShapes corpus (Tests/LuaFetchImportTests/RealShapes) needed, rule by
// rule: Swift in, what the translated app printed (or the scenario it wrote) out, compared with
// what Swift does. Uses ImportHarness (import in-process, run the scenario with the default world).
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct RealShapesTranslationTests {
    func printed(_ body: String, members: String = "", others: String = "", extra: String = "") throws -> [String] {
        let r = try ImportHarness.run(ImportHarness.launching(body, members: members, others: others), extra: extra)
        #expect(r.error == nil, "\(r.error?.message ?? "")\n\(r.scenario)")
        #expect(r.codes.isEmpty, "\(r.codes) \(r.world?.violations.map(\.message) ?? [])\n\(r.scenario)")
        return r.printed
    }

    @Test func inoutParametersWriteBackToLocalsAndProperties() throws {
        #expect(try printed("""
            var id = 5
            reset(&id)
            reset(&stored)
            bump(&counter, by: 2)
            print(id, stored, counter)
            """, members: """
            var stored = 9
            var counter = 1
            """, others: """
            func reset(_ x: inout Int) {
                guard x != 0 else { return }
                x = 0
            }
            func bump(_ x: inout Int, by n: Int) { x += n }
            """) == ["0 0 3"])
    }

    @Test func collectionTypeInitializersAndKeyPathsAsFunctions() throws {
        #expect(try printed("""
            var names = [String]()
            names.append("b")
            var table = [String: Int]()
            table["a"] = 1
            let zeros = [Int](repeating: 0, count: 3)
            let items = [Item(name: "y", size: 2), Item(name: "x", size: 1)]
            print(names, table["a"] ?? 0, zeros, items.map(\\.name), items.map(\\.size).reduce(0, +))
            """, others: "struct Item { let name: String; let size: Int }") == ["[\"b\"] 1 [0, 0, 0] [\"y\", \"x\"] 3"])
    }

    @Test func dateArithmeticOnVirtualTime() throws {
        // Virtual time 0 is midnight of the first day; the launch is at 0.
        #expect(try printed("""
            let later = Calendar.current.date(byAdding: .minute, value: 30, to: Date())!
            let start: Date = .now
            print(later.timeIntervalSince(start), Calendar.current.component(.hour, from: later.addingTimeInterval(7200)))
            print(Calendar.current.isDateInToday(Date()), Calendar.current.startOfDay(for: later).timeIntervalSince1970 - start.timeIntervalSince1970)
            """) == ["1800.0 2", "true 0.0"])
    }

    @Test func protocolExtensionMethodsReachAdoptersAndOwnMethodsWin() throws {
        #expect(try printed("""
            let a = Plain()
            let b = Custom()
            print(a.greet(), b.greet(), a.twice())
            """, others: """
            protocol Greeter { func name() -> String }
            protocol Polite: Greeter {}
            extension Greeter {
                func greet() -> String { "hello " + name() }
                func twice() -> String { greet() + "!" }
            }
            class Base { func greet() -> String { "base" } }
            final class Plain: Polite { func name() -> String { "plain" } }
            final class Custom: Base, Greeter { func name() -> String { "custom" } }
            """) == ["hello plain base hello plain!"])
    }

    @Test func subscriptDeclarationsReadAndWrite() throws {
        #expect(try printed("""
            let cache = Cache()
            cache["a"] = 3
            print(cache["a"] ?? -1, cache["b"] ?? -1, cache.count)
            """, others: """
            final class Cache {
                private var storage: [String: Int] = [:]
                var count: Int { storage.count }
                subscript(key: String) -> Int? {
                    get { storage[key] }
                    set { storage[key] = newValue }
                }
            }
            """) == ["3 -1 1"])
    }

    @Test func optionalChainedAssignmentSkipsNil() throws {
        #expect(try printed("""
            var box: Box? = nil
            box?.value = 5
            box = Box()
            box?.value = 7
            print(box?.value ?? 0)
            """, others: "final class Box { var value = 0 }") == ["7"])
    }

    @Test func theAppDelegateIsUIApplicationsDelegate() throws {
        #expect(try printed("""
            (UIApplication.shared.delegate as? AppDelegate)?.hello()
            if let d = application.delegate as? AppDelegate { d.hello() }
            """, members: "func hello() { print(\"hello from the app delegate\") }") == ["hello from the app delegate", "hello from the app delegate"])
    }

    @Test func asyncLetIsAwaitedAndTaskGroupsCollectTheirChildren() throws {
        #expect(try printed("""
            Task {
                async let a = double(2)
                async let b = double(3)
                let (x, y) = await (a, b)
                let total = await withTaskGroup(of: Int.self) { group in
                    for i in 1...3 { group.addTask { await double(i) } }
                    var sum = 0
                    for await v in group { sum += v }
                    return sum
                }
                print(x + y, total)
            }
            """, others: """
            func double(_ n: Int) async -> Int {
                try? await Task.sleep(nanoseconds: 1_000_000)
                return n * 2
            }
            """) == ["10 12"])
    }

    @Test func cancellingATaskWakesItsSleepWithACancellationError() throws {
        #expect(try printed("""
            let t = Task {
                do {
                    try await Task.sleep(nanoseconds: 60 * NSEC_PER_SEC)
                    print("slept")
                } catch is CancellationError {
                    print("cancelled", Task.isCancelled)
                } catch {
                    print("other")
                }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                t.cancel()
                print("handle cancelled", t.isCancelled)
            }
            """) == ["handle cancelled true", "cancelled true"])
    }

    @Test func aCancellationHandlerRunsWhenTheTaskIsCancelled() throws {
        #expect(try printed("""
            let t = Task {
                await withTaskCancellationHandler {
                    try? await Task.sleep(nanoseconds: 30 * NSEC_PER_SEC)
                    print("operation ends")
                } onCancel: {
                    print("on cancel")
                }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 2) { t.cancel() }
            """) == ["on cancel", "operation ends"])
    }

    @Test func operationSubclassesRunOnTheirQueueAndSeeCancellation() throws {
        #expect(try printed("""
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let first = Step(name: "first")
            let second = Step(name: "second")
            second.cancel()
            first.completionBlock = { print("first done", first.isCancelled) }
            second.completionBlock = { print("second done", second.isCancelled) }
            queue.addOperations([first, second], waitUntilFinished: false)
            queue.addOperation { print("block ran") }
            """, others: """
            final class Step: Operation {
                let name: String
                init(name: String) { self.name = name; super.init() }
                override func main() {
                    guard !isCancelled else { return }
                    print("main", name)
                }
            }
            """) == ["main first", "first done false", "second done true", "block ran"])
    }

    @Test func urlsAreStringsWithTheirMembersAndTasksHaveIdentifiers() throws {
        #expect(try printed("""
            let url = URL(string: "https://cdn.example.com/issues/next.pdf")!
            let task = URLSession.shared.dataTask(with: url) { _, _, _ in }
            let other = URLSession.shared.dataTask(with: url.deletingLastPathComponent().appendingPathComponent("a.pdf"))
            print(url.lastPathComponent, url.pathExtension, url.host ?? "-", task.taskIdentifier != other.taskIdentifier)
            print(other.originalRequest?.url?.absoluteString ?? "-")
            """) == ["next.pdf pdf cdn.example.com true", "https://cdn.example.com/issues/a.pdf"])
    }

    @Test func timersFromCombineAndDispatchSourcesFireOnTime() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            ticker = Timer.publish(every: 10, on: .main, in: .common).autoconnect().sink { _ in
                self.ticks += 1
                if self.ticks == 2 { print("publisher ticked twice at", Int(Date().timeIntervalSince1970 - 1379462400)); self.ticker?.cancel() }
            }
            let source = DispatchSource.makeTimerSource(queue: .main)
            source.schedule(deadline: .now() + 5, repeating: .seconds(20))
            source.setEventHandler {
                self.fired += 1
                if self.fired == 2 { print("source fired twice at", Int(Date().timeIntervalSince1970 - 1379462400)); source.cancel() }
            }
            source.resume()
            """, members: """
            var ticker: AnyCancellable?
            var ticks = 0
            var fired = 0
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")")
        #expect(r.printed == ["source fired twice at 25", "publisher ticked twice at 20"] || r.printed == ["publisher ticked twice at 20", "source fired twice at 25"], "\(r.printed)")
    }

    @Test func notificationsNamedIsAnAsyncSequence() throws {
        // The person goes Home at 60 s and opens the app again at 3660 s (the default world).
        #expect(try printed("""
            Task {
                for await _ in NotificationCenter.default.notifications(named: UIApplication.willEnterForegroundNotification) {
                    print("foreground at", Int(Date().timeIntervalSince1970 - 1379462400))
                }
            }
            """) == ["foreground at 3660"])
    }

    @Test func suitesAndTheirFallbackAreTheAppsDefaults() throws {
        #expect(try printed("""
            store.set(4, forKey: "n")
            print(UserDefaults.standard.integer(forKey: "n"), ProcessInfo.processInfo.isLowPowerModeEnabled)
            """, members: "let store = UserDefaults(suiteName: \"group.com.example\") ?? .standard") == ["4 false"])
    }

    @Test func aClosureThatAwaitsRunsAsATaskWhereAStubCallsIt() throws {
        // The stub calls its closure on the main queue, outside any task: the closure's body runs
        // as a task, so its sleep does not block the main thread (no hang, no overrun).
        #expect(try printed("""
            SDK.shared.onReady {
                try? await Task.sleep(nanoseconds: 20 * NSEC_PER_SEC)
                print("after the sleep")
            }
            """, extra: "stubs{ [\"SDK.onReady\"] = { seconds = 1 } }\n") == ["after the sleep"])
    }

    @Test func identifiersFromConstantsCountAsRegistered() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshID, using: nil) { task in
                task.setTaskCompleted(success: true)
            }
            """, members: "static let refreshID = \"com.example.refresh\""))
        #expect(!r.result.warnings.contains { $0.contains("no code registers it") }, "\(r.result.warnings)")
    }

    @Test func aProtocolOverBGTaskSchedulerReachesTheScheduler() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let scheduler: TaskScheduling = BGTaskScheduler.shared
            scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                print("launched", task.identifier)
                task.setTaskCompleted(success: true)
            }
            let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
            try? scheduler.submit(request)
            """, others: """
            protocol TaskScheduling {
                func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, launchHandler: @escaping (BGTask) -> Void) -> Bool
                func submit(_ taskRequest: BGTaskRequest) throws
            }
            extension BGTaskScheduler: TaskScheduling {}
            """), extra: "at(120, function() system.launchTask(\"com.example.refresh\") end)\n")
        #expect(r.error == nil, "\(r.error?.message ?? "")\n\(r.scenario)")
        #expect(r.codes.isEmpty, "\(r.codes)")
        #expect(r.printed == ["launched com.example.refresh"], "\(r.messages)")
    }

    @Test func propertyWrappersOfTheFilesWrapTheirStorage() throws {
        #expect(try printed("""
            count += 1
            count += 1
            Settings.lastSync = 42.0
            print(count, UserDefaults.standard.integer(forKey: "count"), Settings.lastSync, api != nil)
            """, members: """
            @Stored(key: "count", defaultValue: 0) var count: Int
            @Injected var api: APIClient
            """, others: """
            @propertyWrapper
            struct Stored<Value> {
                let key: String
                let defaultValue: Value
                var wrappedValue: Value {
                    get { UserDefaults.standard.object(forKey: key) as? Value ?? defaultValue }
                    set { UserDefaults.standard.set(newValue, forKey: key) }
                }
            }
            enum Settings {
                @Stored(key: "lastSync", defaultValue: 0.0) static var lastSync: Double
            }
            """) == ["2 2 42.0 true"])
    }

    @Test func extensionsOfIOSAndSwiftTypesAreCalledWithTheValueAsSelf() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print("  hi ".trimmed.prefixed(">"), [1, 2, 3].total(), ["  a "].map { $0.trimmed })
            UIApplication.logState()
            var id = application.beginTask(named: "Work")
            print("begun", id != .invalid, application.isActive)
            application.endTaskIfValid(&id)
            application.endTaskIfValid(&id)
            print("ended", id == .invalid)
            """, others: """
            extension UIApplication {
                func beginTask(named name: String) -> UIBackgroundTaskIdentifier {
                    beginBackgroundTask(withName: name) { print("expired") }
                }
                func endTaskIfValid(_ id: inout UIBackgroundTaskIdentifier) {
                    guard id != .invalid else { return }
                    endBackgroundTask(id)
                    id = .invalid
                }
                var isActive: Bool { applicationState == .active }
                static func logState() { print("state", shared.applicationState) }
            }
            extension String {
                var trimmed: String { trimmingCharacters(in: .whitespaces) }
                func prefixed(_ p: String) -> String { p + self }
            }
            extension Array where Element == Int {
                func total() -> Int { reduce(0, +) }
            }
            """))
        #expect(r.error == nil, "\(r.error?.message ?? "")\n\(r.scenario)")
        #expect(r.codes.isEmpty, "\(r.codes) \(r.world?.violations.map(\.message) ?? [])")
        #expect(r.printed == [">hi 6 [\"a\"]", "state inactive", "begun true false", "ended true"], "\(r.printed)")
    }

    @Test func resultsAndNumericLimits() throws {
        #expect(try printed("""
            let ok: Result<Int, Error> = Result.success(3)
            let bad = Result<Int, Error> { try risky() }
            let value = try? ok.get()
            let lost = try? bad.get()
            if case .failure = bad { print("failed") }
            print(value ?? -1, lost ?? -1, 5 < Int.max, Double.infinity > 1e300)
            """, others: """
            enum Oops: Error { case no }
            func risky() throws -> Int { throw Oops.no }
            """) == ["failed", "3 -1 true true"])
    }

    @Test func reduceIntoAndTuplesSpreadOverClosureParameters() throws {
        #expect(try printed("""
            let words = ["a", "b", "a"]
            let counts = words.reduce(into: [String: Int]()) { acc, w in acc[w, default: 0] += 1 }
            let squares = (1...3).reduce(into: 0) { $0 += $1 * $1 }
            var seen: [String] = []
            counts.forEach { key, value in seen.append("\\(key)=\\(value)") }
            print(counts["a"] ?? 0, squares, seen.sorted(), zip([1, 2], ["x", "y"]).map { "\\($0)\\($1)" })
            print([3, 9, 4].max(by: { $0 < $1 }) ?? 0)
            """) == ["2 14 [\"a=2\", \"b=1\"] [\"1x\", \"2y\"]", "9"])
    }

    @Test func aCompletionPassedOnToAStubGetsTheValueItsTypeSays() throws {
        // `done` is typed `(Result<Int, Error>) -> Void` by the function it came from: the stub
        // calls it with `.success(...)`, so the switch takes a case.
        #expect(try printed("""
            load { result in
                switch result {
                case .success: print("loaded")
                case .failure: print("failed")
                }
            }
            """, members: """
            func load(_ completion: @escaping (Result<Int, Error>) -> Void) {
                fetch({ done in Backend.shared.pull(completion: done) }, completion: completion)
            }
            func fetch(_ op: (@escaping (Result<Int, Error>) -> Void) -> Void, completion: @escaping (Result<Int, Error>) -> Void) {
                op(completion)
            }
            """) == ["loaded"])
    }

    @Test func tryBangIsNotAFailurePathForExplore() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let a = try! Vault.open()
            let b = try? Vault.open()
            print(a != nil, b != nil)
            """))
        let sites = r.scenario.split(separator: "\n").filter { $0.contains("\"Vault.open\"") && $0.contains("AppDelegate.swift") && $0.hasPrefix("  {") }
        #expect(sites.count == 2 && !sites[0].contains("throws = true") && sites[1].contains("throws = true"), "\(sites)")
    }
}
