// `Bundle.main` reads the app's resolved Info.plist at run time (SPEC 18.8.3): the bundle
// identifier, `infoDictionary[...]` and `object(forInfoDictionaryKey:)`, typed (`as? String` of a
// string value is that string); the scenario carries the dictionary only when the code reads it.
import Foundation
import Testing
@testable import LuaFetchImport

@Suite struct BundleInfoTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.reader</string>
        <key>CFBundleShortVersionString</key><string>2.3</string>
        <key>ReaderBuild</key><integer>42</integer>
        <key>ReaderBeta</key><true/>
        <key>ReaderLimits</key><dict><key>items</key><integer>5</integer></dict>
        <key>UIBackgroundModes</key><array><string>fetch</string><string>processing</string></array>
        <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.reader.refresh</string></array>
        </dict></plist>
        """

    @Test func bundleMainReadsTheInfoPlist() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let id = Bundle.main.bundleIdentifier ?? "none"
            print("id \\(id)")
            let version = Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String ?? "-"
            print("version \\(version)")
            if let build = Bundle.main.object(forInfoDictionaryKey: "ReaderBuild") as? Int { print("build \\(build + 1)") }
            if let beta = Bundle.main.object(forInfoDictionaryKey: "ReaderBeta") as? Bool, beta { print("beta") }
            if let modes = Bundle.main.object(forInfoDictionaryKey: "UIBackgroundModes") as? [String] { print("modes \\(modes.count) \\(modes[1])") }
            if let limits = Bundle.main.infoDictionary?["ReaderLimits"] as? [String: Int] { print("items \\(limits["items"] ?? 0)") }
            let missing = Bundle.main.object(forInfoDictionaryKey: "Nope") as? String
            print("missing \\(missing == nil)")
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "\\(id).refresh", using: nil) { task in
                task.setTaskCompleted(success: true)
            }
            """), plist: Self.plist)
        #expect(r.error == nil, "\(String(describing: r.error))")
        #expect(Array(r.printed.prefix(7)) == ["id com.example.reader", "version 2.3", "build 43", "beta", "modes 2 processing", "items 5", "missing true"])
        #expect(r.scenario.contains("swift.infoPlist({"))
        #expect(r.scenario.contains("  [\"ReaderLimits\"] = { [\"items\"] = 5 },"))
        #expect(r.scenario.contains("}, \"com.example.reader\")"))
        #expect(!r.codes.contains("bgtask-not-permitted"), "\(r.codes)")
    }

    @Test func theDictionaryIsWrittenOnlyWhenTheCodeReadsIt() throws {
        let r = try ImportHarness.run(ImportHarness.launching("print(\"no bundle\")"), plist: Self.plist)
        #expect(!r.scenario.contains("swift.infoPlist"))
        let none = try ImportHarness.run(ImportHarness.launching("print(Bundle.main.bundleIdentifier ?? \"nil\")"), plist: nil)
        #expect(none.scenario.contains("swift.infoPlist(nil, nil)"))
        #expect(none.printed.first == "nil")
    }
}
