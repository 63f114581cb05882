// Issue 38.7, shape by shape: values the importer cannot see take a typed default, never a crash.
// A stub's value passed where a mapped iOS API takes a number or an identifier (an app constant
// defined outside what was imported) returns the row's default of TypedDefaults, written as its
// `result` in stubs{} and named in the report; a library property wrapper whose attribute names a
// `defaultValue:` starts at it. Each test imports a small app and runs it.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct TypedDefaultTests {
    @Test func aConstantOutOfSightPassedToTheFetchIntervalIsTheMinimum() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            application.setMinimumBackgroundFetchInterval(Config.fetchInterval)
            """, members: """
            func application(_ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
                print("fetched")
                completionHandler(.newData)
            }
            """))
        #expect(r.error == nil)
        #expect(r.codes.isEmpty, "\(r.codes)")
        #expect(r.messages.contains { $0.contains("minimum background fetch interval: Minimum") })
        #expect(r.scenario.contains("[\"Config.fetchInterval\"] = { result = UIApplicationBackgroundFetchIntervalMinimum },"))
        #expect(r.result.report.contains("  Config.fetchInterval = UIApplicationBackgroundFetchIntervalMinimum: a background fetch interval (the minimum), passed to iOS at AppDelegate.swift:10"))
        #expect(r.result.report.contains("typed        1 stub value passed to iOS is out of the import's sight and returns a typed default (set the real value in stubs{}):"))
    }

    @Test func anIdentifierOutOfSightIsThePermittedOneNoCodeNames() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>UIBackgroundModes</key><array><string>fetch</string><string>processing</string></array>
            <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.clean</string><string>com.example.refresh</string></array>
            </dict></plist>
            """
        let r = try ImportHarness.run(ImportHarness.launching("""
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.clean", using: nil) { task in task.setTaskCompleted(success: true) }
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Identifiers.refresh, using: nil) { task in
                print("refreshing")
                task.setTaskCompleted(success: true)
            }
            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Identifiers.refresh))
            """), plist: plist)
        #expect(r.error == nil)
        #expect(r.codes.isEmpty, "\(r.codes)")
        #expect(r.printed.contains("refreshing"))
        #expect(r.scenario.contains("[\"Identifiers.refresh\"] = { result = \"com.example.refresh\" },"))
    }

    @Test func delaysTimeoutsAndIntervalsOutOfSightAreNumbers() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let semaphore = DispatchSemaphore(value: Limits.slots)
            _ = semaphore.wait(timeout: .now() + Limits.timeout)
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(Limits.pauseMs)) { print("after the pause") }
            DispatchQueue.main.asyncAfter(deadline: .now() + Limits.delay * 2) { print("after twice the delay") }
            Thread.sleep(forTimeInterval: TimeInterval(Limits.nap))
            let queue = DispatchQueue(label: Limits.queueName)
            queue.async { print("on the queue") }
            let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
            request.earliestBeginDate = Date(timeIntervalSinceNow: Limits.earliest)
            """))
        #expect(r.error == nil)
        #expect(r.codes.isEmpty, "\(r.codes)")
        #expect(Set(r.printed) == ["after the pause", "after twice the delay", "on the queue"])
        for line in ["[\"Limits.slots\"] = { result = 1 }", "[\"Limits.timeout\"] = { result = 10 }", "[\"Limits.pauseMs\"] = { result = 1000 }",
                     "[\"Limits.delay\"] = { result = 1 }", "[\"Limits.nap\"] = { result = 1 }", "[\"Limits.queueName\"] = { result = \"Limits.queueName\" }",
                     "[\"Limits.earliest\"] = { result = 1 }"] {
            #expect(r.scenario.contains(line), "\(line)")
        }
    }

    @Test func aStubUsedOnlyAsAValueStaysOpaque() throws {
        // Not passed to iOS: nothing typed, nothing in the report.
        let r = try ImportHarness.run(ImportHarness.launching("print(Config.fetchInterval == nil)"))
        #expect(!r.scenario.contains("result ="))
        #expect(!r.result.report.contains { $0.hasPrefix("typed") })
    }

    @Test func aLibraryWrapperStartsAtItsDefaultValue() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(lastSync, syncEnabled, name)
            lastSync += 1
            print(lastSync)
            """, members: """
            @UserDefault(key: "lastSync", defaultValue: 41) var lastSync: Int
            @UserDefault(key: "enabled", defaultValue: false) var syncEnabled: Bool
            @Stored("name") var name: String = "anon"
            """))
        #expect(r.error == nil)
        #expect(r.printed == ["41 false anon", "42"])
    }
}
