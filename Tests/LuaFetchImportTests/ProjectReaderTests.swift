// The pieces of project reading as rules (SPEC 18.8.1, 18.8.3): build settings (levels,
// `$(inherited)`, conditions, modifiers, names defined nowhere), `.xcconfig` lines, the Info.plist
// preprocessor (directives, conditions, errors at their line), INFOPLIST_KEY_* keys, globs, the
// target-choosing rule, and an XcodeGen spec's templates and per-platform targets.
import Foundation
import Testing
@testable import LuaFetchImport

@Suite struct ProjectReaderTests {
    static func settings(_ levels: [[(String, String)]]) -> BuildSettings {
        var s = BuildSettings()
        s.builtins = BuildSettings.builtins(target: "My App", project: "Proj", root: "/src", configuration: "Release")
        for l in levels { s.addLevel(l.map { Assignment(rawKey: $0.0, value: $0.1) }) }
        return s
    }

    @Test func levelsInheritAndAnAssignmentInheritsTheOneBeforeItInItsLevel() {
        let s = Self.settings([
            [("FLAGS", "A"), ("FLAGS", "$(inherited) B")],   // an xcconfig: its include's line first
            [("FLAGS", "$(inherited) C")],
            [("FLAGS", "$(FLAGS) D")],                        // a setting naming itself inherits too
        ])
        #expect(s.value("FLAGS") == "A B C D")
        #expect(!s.isSet("NOTHING") && s.value("NOTHING") == nil)
    }

    @Test func theIOSDeviceConditionWinsOverTheUnconditionalAssignment() {
        let s = Self.settings([[("ID", "plain"), ("ID[sdk=iphoneos*]", "device"), ("ID[sdk=iphonesimulator*]", "simulator"),
                                ("OTHER[sdk=macosx*]", "mac"), ("OTHER", "any"), ("ARCHY[arch=*]", "every arch"), ("CONF[config=Release]", "release")]])
        #expect(s.value("ID") == "device")
        #expect(s.value("OTHER") == "any")
        #expect(s.value("ARCHY") == "every arch")
        #expect(s.value("CONF") == "release")
    }

    @Test func referencesModifiersAndBuiltIns() {
        let s = Self.settings([[("BASE", "com.example"), ("ID", "${BASE}.$(TARGET_NAME:rfc1034identifier)"), ("PICK", "$(MODE_$(KIND))"),
                                ("KIND", "B"), ("MODE_B", "bravo"), ("BARE", "$BASE/x"), ("DOLLAR", "costs $5")]])
        #expect(s.value("ID") == "com.example.My-App")
        #expect(s.value("PRODUCT_MODULE_NAME") == "My_App")
        #expect(s.value("PICK") == "bravo")
        #expect(s.value("BARE") == "com.example/x")
        #expect(s.value("DOLLAR") == "costs $5")
        #expect(s.expand("https:/$()/example.com") == "https://example.com")
        #expect(s.expand("$(TARGET_NAME:lower)-$(TARGET_NAME:upper)") == "my app-MY APP")
        #expect(s.expand("$(SRCROOT)/x and $(CONFIGURATION) on $(PLATFORM_NAME)$(EFFECTIVE_PLATFORM_NAME)") == "/src/x and Release on iphoneos-iphoneos")
        #expect(BuildSettings.modify("a/b/File.swift", "base") == "File" && BuildSettings.modify("a/b/File.swift", "suffix") == ".swift")
        #expect(BuildSettings.c99Identifier("9 Lives-iOS") == "_9_Lives_iOS")
    }

    @Test func aNameDefinedNowhereIsEmptyAndReported() {
        let s = Self.settings([[("ID", "io.app$(SUFFIX)")]])
        let r = s.expandTracking("$(ID).refresh $(NOPE:default=fallback)")
        #expect(r.text == "io.app.refresh fallback")
        #expect(r.missing == ["SUFFIX"])
    }

    @Test func settingsThatNameEachOtherEndInBoundedWork() {
        var list: [(String, String)] = (0..<30).map { ("V\($0)", "$(V\($0 + 1))$(V\($0 + 1))") }
        list += [("LOOP", "a$(LOOP2)"), ("LOOP2", "b$(LOOP)")]
        let s = Self.settings([list])
        let start = ContinuousClock.now
        _ = s.value("V0")
        #expect(s.value("LOOP")?.hasPrefix("abab") == true)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func platformsFromTheSettingAtTheHighestLevel() {
        #expect(Self.settings([[("SDKROOT", "macosx")]]).platforms() == [.macOS])
        #expect(Self.settings([[("SDKROOT", "iphoneos")], [("SDKROOT", "watchos")]]).platforms() == [.watchOS])
        #expect(Self.settings([[("SDKROOT", "auto"), ("SUPPORTED_PLATFORMS", "iphoneos iphonesimulator macosx")]]).platforms() == [.iOS, .macOS])
        #expect(Self.settings([[]]).platforms() == nil)
    }

    @Test func xcconfigLinesIncludesAndComments() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-xcconfig-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try "#include \"sub/inner.xcconfig\"\n#include \"missing.xcconfig\"\n#include? \"optional.xcconfig\"\nURL = https:/$()/example.com // a comment\nKEY[sdk=iphoneos*][arch=arm64] = yes;\n  SPACED   =   a b  \n".write(toFile: dir + "/outer.xcconfig", atomically: true, encoding: .utf8)
        try "INNER = 1\n#include \"../outer.xcconfig\"\n".write(toFile: dir + "/sub/inner.xcconfig", atomically: true, encoding: .utf8)
        let (a, w) = XCConfig.read(dir + "/outer.xcconfig", shown: { ProjectPaths.relative($0, to: dir) })
        #expect(a.map(\.key) == ["INNER", "URL", "KEY", "SPACED"])
        // `https:/$()/...`: the way to write `//` where `//` starts a comment.
        #expect(a.map(\.value) == ["1", "https:/$()/example.com", "yes", "a b"])
        #expect(a[2].conditions.map(\.pattern) == ["iphoneos*", "arm64"])
        #expect(w.map(\.where) == ["outer.xcconfig:2"])
        #expect(w.first?.text == "#include \"missing.xcconfig\": no such file; its settings are left out")
    }

    static func preprocess(_ text: String, macros: [String: String] = [:]) throws(ImportError) -> String {
        var pp = PlistPreprocessor()
        pp.macros = macros
        return try pp.run(text, shown: "Info.plist", folder: "/nonexistent")
    }

    @Test func thePreprocessorKeepsTheBranchesItsConditionsTake() throws {
        let text = """
            a
            #ifdef ONE
            one
            #elif defined TWO && (LEVEL > 3 || !defined(THREE))
            two
            #else
            other
            #endif
              #ifndef ONE
            not one
              #endif
            #if 0
            #if 1
            never
            #endif
            #elif LEVEL == 5 && 0x10 == 16 && (7 / 2) == 3 && -1 < 0
            five
            #endif
            #define LATER 2
            #if LATER * 2 == 4 ? 1 : 0
            later NAME
            #endif
            #undef LATER
            #ifdef LATER
            gone
            #endif
            """
        #expect(try Self.preprocess(text, macros: ["TWO": "1", "LEVEL": "5", "NAME": "Beacon"]) == "a\ntwo\nnot one\nfive\nlater Beacon")
        #expect(PlistPreprocessor.hasDirectives(text) && !PlistPreprocessor.hasDirectives("<string>#fff</string>\n# heading"))
        #expect(PlistPreprocessor.definitions("A B=2 \"C=x y\" $(UNSET)") == ["A": "1", "B": "2", "C": "x y"])
    }

    @Test func preprocessorErrorsNameTheirLine() {
        let cases: [(String, String)] = [
            ("x\n#if A\ny", "Info.plist:2: #if without #endif"),
            ("#endif", "Info.plist:1: #endif without #if"),
            ("#if 1\n#else\n#else\n#endif", "Info.plist:3: #else after #else"),
            ("#if 1\n#else\n#elif 1\n#endif", "Info.plist:3: #elif after #else"),
            ("#else", "Info.plist:1: #else without #if"),
            ("\n\n#if (1", "Info.plist:3: missing ')' in #if"),
            ("#if 1 +", "Info.plist:1: #if expression ends too early"),
            ("#if 4 / 0\n#endif", "Info.plist:1: division by zero in #if"),
            ("#error stop here", "Info.plist:1: #error stop here"),
            ("#include \"nowhere.h\"", "Info.plist:1: #include \"nowhere.h\": no such file beside it"),
            ("#ifdef\n#endif", "Info.plist:1: macro name missing after #ifdef"),
        ]
        for (text, message) in cases {
            do {
                _ = try Self.preprocess(text)
                Issue.record("no error for \(text)")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test func infoPlistKeySettingsBecomeTheKeysXcodeWrites() {
        #expect(InfoPlistResolver.infoKey("UIApplicationSceneManifest_Generation", "YES")?.0 == "UIApplicationSceneManifest")
        #expect(InfoPlistResolver.infoKey("UIApplicationSceneManifest_Generation", "NO") == nil)
        #expect(InfoPlistResolver.infoKey("UIBackgroundModes", "fetch processing")?.1 == .array([.string("fetch"), .string("processing")]))
        #expect(InfoPlistResolver.infoKey("UISupportedInterfaceOrientations_iPhone", "UIInterfaceOrientationPortrait")?.0 == "UISupportedInterfaceOrientations~iphone")
        #expect(InfoPlistResolver.infoKey("LSRequiresIPhoneOS", "YES")?.1 == .bool(true))
        #expect(InfoPlistResolver.infoKey("CFBundleDisplayName", "My App")?.1 == .string("My App"))
    }

    @Test func globsAsXcodeGenWritesThem() {
        #expect(Glob.matches("**/*Tests.*", "Feature/ThingTests.swift"))
        #expect(Glob.matches("**/*Tests.*", "ThingTests.swift"))
        #expect(!Glob.matches("*.swift", "a/b.swift"))
        #expect(Glob.matches("Sources/**", "Sources/a/b/c.swift"))
        #expect(Glob.matches("{Mac,Watch}/*.swift", "Watch/Face.swift"))
        #expect(Glob.matches("Model?.swift", "Model1.swift") && !Glob.matches("Model?.swift", "Model12.swift"))
        #expect(Glob.matches("[A-C]*.swift", "Boat.swift") && !Glob.matches("[!A-C]*.swift", "Boat.swift"))
        #expect(Glob.matchesOrInside("**/TestHelpers", "App/TestHelpers/Mock.swift"))
        // A hostile pattern ends.
        #expect(!Glob.matches(String(repeating: "*", count: 40) + "x", String(repeating: "a", count: 60)))
    }

    @Test func namesLikeTheProjectIgnoreThePlatformWords() {
        #expect(TargetChoice.likeness("NetNews-iOS", "NetNews") == 3)
        #expect(TargetChoice.likeness("Aidoku (iOS)", "Aidoku") == 3)
        #expect(TargetChoice.likeness("Tandem", "Tandem") == 4)
        #expect(TargetChoice.likeness("Tandem Helper", "Tandem") == 0)
        #expect(TargetChoice.option("Share Extension") == "--target \"Share Extension\"")
    }

    @Test func xcodeGenTemplatesListsAndOneTargetPerPlatform() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-xcodegen-\(UUID().uuidString)").path
        for f in ["Shared/Model.swift", "App/Main.swift", "Kit/Kit.swift"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + ProjectPaths.folder(of: f), withIntermediateDirectories: true)
            try "let x = 1\n".write(toFile: dir + "/" + f, atomically: true, encoding: .utf8)
        }
        try """
            name: Multi
            targetTemplates:
              Base:
                sources: [Shared]
                settings:
                  base:
                    PRODUCT_BUNDLE_IDENTIFIER: com.example.${target_name}
            targets:
              Multi:
                type: application
                platform: iOS
                templates: [Base]
                sources: [App]
                dependencies:
                  - target: Kit_iOS
                  - weird: thing
              Kit:
                type: framework
                platform: [iOS, macOS]
                sources: [Kit]
            """.write(toFile: dir + "/project.yml", atomically: true, encoding: .utf8)
        let project = try XcodeGenReader.read(dir + "/project.yml", shown: { ProjectPaths.relative($0, to: dir) }).get()
        #expect(project.targets.map(\.name) == ["Kit_iOS", "Kit_macOS", "Multi"])
        let app = try #require(project.targets.first { $0.name == "Multi" })
        #expect(app.sources.map { ProjectPaths.relative($0, to: dir) } == ["App/Main.swift", "Shared/Model.swift"])
        #expect(app.settings.value("PRODUCT_BUNDLE_IDENTIFIER") == "com.example.Multi")
        #expect(app.warnings.contains { $0.text.contains("a dependency luafetch does not know (weird)") })
        #expect(project.targets.first { $0.name == "Kit_macOS" }?.platforms == [.macOS])
        // A spec that is not YAML: its line.
        try "name: [unclosed\n".write(toFile: dir + "/bad.yml", atomically: true, encoding: .utf8)
        guard case .failure(let u) = XcodeGenSpec.parse(dir + "/bad.yml", shown: "bad.yml") else { Issue.record("parsed"); return }
        #expect(u.place.hasPrefix("bad.yml:"))
    }
}
