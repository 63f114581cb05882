// The project readers on the fixture repositories of Tests/LuaFetchImportTests/Projects (SPEC
// 18.8.1–18.8.3), through the input stage a user's import goes through (ImportInput.read): the
// target chosen and why, its Swift files and each file's module, what is left out, the
// Info.plist resolved, and bad input.
import Foundation
import Testing
@testable import LuaFetchImport

@Suite struct ProjectTests {
    static let projects = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Projects").path

    static func read(_ name: String, target: String? = nil) throws -> ImportInput {
        try ImportInput.read(ImportOptions(paths: [projects + "/" + name], target: target))
    }

    static func failure(_ name: String, target: String? = nil) -> ImportError? {
        do { _ = try read(name, target: target); return nil } catch let e as ImportError { return e } catch { return nil }
    }

    static func files(_ input: ImportInput) -> [String] { input.sources.map(\.shown) }
    static func modules(_ input: ImportInput) -> [String: String] {
        Dictionary(uniqueKeysWithValues: input.sources.map { ($0.shown, $0.module) })
    }

    @Test func anXcodeProjectsSourcesPhaseThroughItsGroups() throws {
        let input = try Self.read("groups_and_sources_phase")
        // `<group>` paths through nested groups, a SOURCE_ROOT file; not a file of no phase, not the
        // test target's, not one filtered to macOS.
        #expect(Self.files(input) == ["Quill/AppDelegate.swift", "Quill/Storage/NoteStore.swift", "Shared/Formatting.swift"])
        #expect(Set(input.sources.map(\.module)) == ["Quill"])
        #expect(input.reportHead.first == "project  Quill.xcodeproj (Xcode project)")
        #expect(input.reportHead.contains { $0.hasPrefix("target   Quill (the only iOS application target; 3 Swift files") })
        #expect(input.plist?.path == "Quill/Info.plist")
        #expect(input.plist?.permittedIdentifiers == ["com.example.quill.refresh"])
        #expect(input.plist?.bundleIdentifier == "com.example.quill")
    }

    @Test func synchronizedFoldersLessTheTargetsExceptionsPlusWhatAnotherFolderLendsIt() throws {
        let input = try Self.read("synchronized_folders")
        #expect(Self.files(input) == ["Lantern/LanternApp.swift", "Lantern/Sync/FeedSync.swift", "LanternWidget/Shared/Palette.swift"])
        // The xcconfig inside a synchronized folder (baseConfigurationReferenceAnchor) with its include.
        #expect(input.plist?.bundleIdentifier == "com.example.lantern")
        // Its Info.plist file, with the generated keys merged in.
        #expect(input.plist?.values["CFBundleDisplayName"] == .string("Lantern"))
        #expect(input.plist?.permittedIdentifiers == ["com.example.lantern.feed"])
        #expect(input.reportHead.contains("others   --target LanternWidget (extension)"))
    }

    @Test func xcodeGenWithAnIncludedSpecAndALocalPackage() throws {
        let input = try Self.read("xcodegen_local_package")
        #expect(Self.files(input) == ["App/Sources/HarborApp.swift", "Packages/HarborKit/Sources/HarborCore/Dock.swift",
                                      "Packages/HarborKit/Sources/HarborModels/Berth.swift"])
        #expect(Self.modules(input) == ["App/Sources/HarborApp.swift": "Harbor", "Packages/HarborKit/Sources/HarborCore/Dock.swift": "HarborCore",
                                        "Packages/HarborKit/Sources/HarborModels/Berth.swift": "HarborModels"])
        #expect(input.reportHead.first == "project  project.yml (XcodeGen spec)")
        // bundleIdPrefix + the target's name; `info.properties` typed, with settings substituted.
        let plist = try #require(input.plist)
        #expect(plist.bundleIdentifier == "com.example.Harbor")
        #expect(plist.permittedIdentifiers == ["com.example.Harbor.sync"])
        #expect(plist.backgroundModes == ["fetch", "processing"])
        #expect(plist.values["ITSAppUsesNonExemptEncryption"] == .bool(false))
        #expect(plist.values["HarborBuild"] == .integer(7))
        #expect(input.compilationConditions == ["HARBOR_RELEASE"])
        // `#if` keeps the branch the target's Release conditions select.
        let dir = Self.projects + "/xcodegen_local_package"
        let scenario = try Importer.run(ImportOptions(paths: [dir], luaCheck: ImportHarness.checkLua)).scenario
        #expect(scenario.contains("\"release build\"") && !scenario.contains("\"some other build\""))
        #expect(input.notes.contains { $0.hasPrefix("1 remote package the app links left out (Confetti)") })
    }

    @Test func theIOSAppIsChosenOverAWatchAppAWidgetAndAMacApp() throws {
        let input = try Self.read("apps_and_extensions")
        #expect(Self.files(input) == ["Orbit/AppDelegate.swift", "Orbit/Launches.swift"])
        #expect(input.plist?.path == "Orbit/Info.plist")
        #expect(input.reportHead == [
            "project  Orbit.xcodeproj (Xcode project)",
            "target   Orbit (the only iOS application target; 2 Swift files)",
            "others   --target OrbitMac (macOS app), --target OrbitWatch (watchOS app), --target OrbitWidget (extension)",
        ])
    }

    @Test func targetPicksAnyTargetAndAnUnknownOneNamesThemAll() throws {
        let widget = try Self.read("apps_and_extensions", target: "OrbitWidget")
        #expect(Self.files(widget) == ["OrbitWidget/OrbitWidget.swift"])
        #expect(widget.reportHead.contains { $0.hasPrefix("target   OrbitWidget (chosen with --target") })
        #expect(widget.reportHead.contains { $0.contains("--target Orbit (iOS app)") })
        let e = try #require(Self.failure("apps_and_extensions", target: "Orbt"))
        #expect(e.unknownTarget == "Orbt")
        #expect(e.targets == ["Orbit", "OrbitWatch", "OrbitWidget", "OrbitMac"])
        #expect(e.message.contains("--target Orbt: no such target in Orbit.xcodeproj; its targets: Orbit, OrbitWatch, OrbitWidget, OrbitMac"))
    }

    @Test func aHelperAppLosesToTheAppNamedLikeTheProjectThoughItHasMoreFiles() throws {
        let input = try Self.read("helper_app")
        #expect(Self.files(input) == ["Tandem/AppDelegate.swift", "Tandem/Rides.swift"])
        #expect(input.reportHead.contains { $0.hasPrefix("target   Tandem (the iOS application target named like the project;") })
        #expect(input.reportHead.contains("others   --target \"Tandem Helper\" (iOS app)"))
        // GENERATE_INFOPLIST_FILE alone: the bundle's own keys.
        #expect(input.plist?.values["CFBundleIdentifier"] == .string("com.example.tandem"))
        #expect(input.plist?.values["CFBundleName"] == .string("Tandem"))
    }

    @Test func aPreprocessedInfoPlistWithTheTargetsDefinitions() throws {
        let plist = try #require(try Self.read("plist_ifdef").plist)
        // ENABLE_REFRESH from INFOPLIST_PREPROCESSOR_DEFINITIONS, FLAVOR=2 through a setting,
        // WANTS_PUSH from the included header, DISABLE_FETCH and ENABLE_LOCATION undefined.
        #expect(plist.backgroundModes == ["processing", "remote-notification", "fetch"])
        #expect(plist.values["CFBundleDisplayName"] == .string("Beacon"))
    }

    @Test func aPermittedIdentifierWrittenWithTheBundleIdentifierSetting() throws {
        let input = try Self.read("permitted_identifier_setting")
        let plist = try #require(input.plist)
        #expect(plist.permittedIdentifiers == ["com.example.ember.refresh"])
        #expect(plist.values["CFBundleName"] == .string("Ember"))
        #expect(plist.values["EmberURLScheme"] == .string("com.example.ember-callback"))
        #expect(plist.bundleIdentifier == "com.example.ember")
        // A setting defined nowhere: empty, as Xcode has it, and a warning naming the key.
        #expect(plist.values["EmberBuildChannel"] == .string(""))
        #expect(input.warnings.contains { $0.where == "Ember/Info.plist" && $0.text.hasPrefix("EmberBuildChannel: $(EMBER_CHANNEL) is defined nowhere") })
    }

    @Test func aGeneratedInfoPlistFromInfoPlistKeySettings() throws {
        let plist = try #require(try Self.read("generated_plist").plist)
        #expect(plist.path == "Sprout's generated Info.plist")
        #expect(plist.name == "Sprout Garden")
        #expect(plist.hasSceneManifest)
        #expect(plist.backgroundModes == ["fetch", "remote-notification"])
        #expect(plist.values["UISupportedInterfaceOrientations~ipad"] == .array([.string("UIInterfaceOrientationPortrait"), .string("UIInterfaceOrientationLandscapeLeft")]))
        #expect(plist.values["ITSAppUsesNonExemptEncryption"] == .bool(false))
        #expect(plist.values["NSCameraUsageDescription"] == .string("Sprout photographs your plants."))
        #expect(plist.values["CFBundleShortVersionString"] == .string("1.4"))
        #expect(plist.values["CFBundleVersion"] == .string("12"))
        #expect(plist.values["UILaunchScreen"] == .dict([:]))
    }

    @Test func xcconfigFilesWithInheritedIncludesAndConditions() throws {
        let input = try Self.read("xcconfig_inherited")
        // Project xcconfig (its include first) < project settings < target xcconfig < target settings.
        #expect(input.compilationConditions == ["RELAY_APP", "RELAY_BASE", "RELAY_PROJECT", "RELAY_SHARED", "RELAY_TARGET"])
        // The iOS device's assignment, not the simulator's.
        #expect(input.plist?.bundleIdentifier == "com.example.relay")
        #expect(input.plist?.values["CFBundleName"] == .string("Relay Messenger"))
        // PRODUCT_NAME with a space: the module is its C99 identifier.
        #expect(input.sources.map(\.module) == ["Relay_Messenger"])
        // `#include?` of a missing file says nothing.
        #expect(input.warnings.isEmpty, "\(input.warnings)")
    }

    @Test func anInRepositoryFrameworkTheAppLinksAndNotOneItDoesNot() throws {
        let input = try Self.read("linked_framework")
        #expect(Self.files(input) == ["Atlas/AppDelegate.swift", "AtlasKit/Planner.swift", "AtlasKit/Route.swift"])
        #expect(Self.modules(input)["AtlasKit/Route.swift"] == "AtlasKit")
        #expect(input.reportHead.contains { $0.contains("3 Swift files: 1 of its own, the rest from 1 framework it links (AtlasKit)") })
    }

    @Test func twoModulesWithTheSameGlobalNameKeepTheirModules() throws {
        let input = try Self.read("same_global_two_modules")
        // DuetCore's PRODUCT_NAME is DuetEngine: its module.
        #expect(Self.modules(input) == ["Duet/AppDelegate.swift": "Duet", "Duet/Timeouts.swift": "Duet", "DuetCore/Timeouts.swift": "DuetEngine"])
    }

    @Test func withoutAProjectTheFolderSearchPrefersTheIOSAppsFolder() throws {
        let input = try Self.read("no_project")
        #expect(Self.files(input) == ["PhoneApp/AppDelegate.swift", "Shared/Pace.swift"])
        #expect(input.plists.map(\.path) == ["PhoneApp/Info.plist"])
        #expect(input.reportHead == ["app      the iOS app in PhoneApp/ (AppDelegate.swift); left out WatchApp/ (watch app)"])
    }

    @Test func noIOSAppIsAnErrorNamingTheTargets() throws {
        let mac = try #require(Self.failure("mac_only"))
        #expect(mac.message == "luafetch import: no iOS application target in Desk.xcodeproj (Xcode project); its targets: Desk (macOS app), DeskKit (framework). Pick one with --target NAME, or give the app's source folder")
        let package = try #require(Self.failure("package_only"))
        #expect(package.message.hasPrefix("luafetch import: no iOS application target in Package.swift (Swift package); its targets: Inkwell (library), inkwell-cli (command-line tool)"))
    }

    @Test func aMalformedProjectIsAWarningWithItsLineAndTheFolderSearchGoesOn() throws {
        let input = try Self.read("malformed_project")
        #expect(Self.files(input) == ["AppDelegate.swift"])
        let w = try #require(input.warnings.first)
        #expect(w.where == "Broken.xcodeproj/project.pbxproj:13")
        #expect(w.text.hasSuffix("; this project is left out"))
    }

    @Test func aPreprocessorErrorInTheInfoPlistNamesItsLine() throws {
        let e = try #require(Self.failure("plist_error"))
        #expect(e.message == "Slate/Info.plist:7: #if without #endif")
    }

    @Test func aProjectFileGivenDirectlyIsReadAlone() throws {
        let input = try ImportInput.read(ImportOptions(paths: [Self.projects + "/apps_and_extensions/Orbit.xcodeproj"]))
        #expect(Self.files(input) == ["Orbit/AppDelegate.swift", "Orbit/Launches.swift"])
        let spec = try ImportInput.read(ImportOptions(paths: [Self.projects + "/xcodegen_local_package/project.yml"]))
        #expect(spec.sources.count == 3)
    }

    @Test func theSameInputTwiceIsTheSameInput() throws {
        for name in ["synchronized_folders", "xcodegen_local_package", "apps_and_extensions"] {
            let a = try Self.read(name), b = try Self.read(name)
            #expect(Self.files(a) == Self.files(b) && a.reportHead == b.reportHead && a.plist?.values == b.plist?.values)
        }
    }
}
