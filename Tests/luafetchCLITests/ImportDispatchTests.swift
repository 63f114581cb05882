// SPEC 18.7.3 end to end: Swift code that uses DispatchGroup, DispatchSemaphore, a concurrent queue,
// asyncAfter and BGTaskScheduler's `using:` queue imports to the scenario API of those primitives
// (an implicit `.main` in a queue argument is the main queue) and runs as the Swift would.
import Foundation
import Testing

@Suite struct ImportDispatchTests {
    static let app = """
        import UIKit
        import BackgroundTasks

        @main
        class AppDelegate: UIResponder, UIApplicationDelegate {
            func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: .main) { task in
                    task.setTaskCompleted(success: true)
                }
                let group = DispatchGroup()
                let queue = DispatchQueue(label: "work", attributes: .concurrent)
                for i in 0..<3 {
                    group.enter()
                    queue.async {
                        Thread.sleep(forTimeInterval: Double(i))
                        group.leave()
                    }
                }
                group.notify(queue: .main) {
                    print("all done")
                }
                let semaphore = DispatchSemaphore(value: 0)
                queue.asyncAfter(deadline: .now() + 1) {
                    semaphore.signal()
                }
                DispatchQueue.global().async {
                    let result = semaphore.wait(timeout: .now() + 5)
                    print("signalled \\(result == .success)")
                }
                return true
            }
        }
        """

    @Test func dispatchCodeImportsToThePrimitivesAndRunsAsTheSwiftWould() throws {
        let dir = try tempDir("import-dispatch")
        try Self.app.write(to: dir.appendingPathComponent("AppDelegate.swift"), atomically: true, encoding: .utf8)
        let imported = try runIn(dir, ["import", ".", "-o", "app.lua"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let scenario = try String(contentsOf: dir.appendingPathComponent("app.lua"), encoding: .utf8)
        #expect(scenario.contains("dispatch.queue(\"work\", { concurrent = true })"))
        #expect(scenario.contains("BGTaskScheduler.register(\"com.example.refresh\", function(task)"))
        #expect(scenario.contains("end, \"main\")"), "the implicit .main of using: and notify(queue:) is the main queue")
        let run = try runIn(dir, ["run", "app.lua", "--no-color"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("+0d00:00:01.000  app     signalled true") }, "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("+0d00:00:02.000  app     all done") }, "\(run.stdout)")
    }
}
