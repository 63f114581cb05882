// SPEC 18.8.4 at real scale: what background life cannot run stays out of the slice. Each rule
// was measured on real repositories whose slices were 5-15 MiB (every SwiftUI view's body, every
// mock adopting a protocol, every static named like a leading-dot member, UI flows registered as
// event handlers, test-only coordinators behind `#if DEBUG` and release-constant flags). Each
// test imports a small app of its own through `Importer.run` and checks both sides: what is left
// out, and that the run still does what the app does.
import Testing
import LuaFetchCore
@testable import LuaFetchImport

@Suite struct SliceReachTests {
    /// SwiftUI draws a view's `body`; luafetch does not simulate views, so no body is kept, even
    /// when kept code makes the view and reads some other value's `body` (a notification's).
    @Test func aViewsBodyIsNotKept() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let content = NotificationFactory.make()
            content.body = "Saved"
            let host = UIHostingController(rootView: NoteList())
            print(host == nil)
            """, others: """
            import SwiftUI
            struct NoteList: View {
                var body: some View { Text(Renderer.title()) }
            }
            enum Renderer { static func title() -> String { print("drawn-title"); return "Notes" } }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["false"], "\(r.printed)")
        #expect(r.scenario.contains("T.NoteList = swift.type("), "the view is made")
        #expect(!r.scenario.contains("drawn-title"), "only SwiftUI calls a view's body")
    }

    /// `.mock` reaches the static of the type its context expects when the syntax says it (an
    /// annotation, an assigned property, a parameter's default), not every type's `mock`.
    @Test func aLeadingDotReachesTheStaticOfTheExpectedType() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let draft: Draft = .mock
            let other: Account? = nil
            print(draft.words, other == nil)
            """, others: """
            final class Draft {
                var words = 0
                static var mock: Draft { let d = Draft(); d.words = 3; return d }
            }
            final class Account {
                static var mock: Account { print("fake-account-server"); return Account() }
            }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["3 true"], "\(r.printed)")
        #expect(!r.scenario.contains("fake-account-server"), "Account.mock is never the expected type")
    }

    /// A call through a protocol reaches the adopters some kept code makes: a mock adopting it
    /// that nothing reached constructs is never the receiver (rapid type analysis).
    @Test func aProtocolCallReachesOnlyAdoptersThatAreMade() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            let feed: Feed = LiveFeed()
            feed.load()
            """, others: """
            protocol Feed { func load() }
            final class LiveFeed: Feed { func load() { print("live") } }
            final class MockFeed: Feed { func load() { print("mock-feed-data") } }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["live"], "\(r.printed)")
        #expect(!r.scenario.contains("mock-feed-data"))
    }

    /// The closures a stub keeps for an event luafetch does not simulate (a route, a target, a
    /// menu action) never run, so what only they call is left out; a NotificationCenter
    /// observer's closure is an entry point and stays.
    @Test func closuresKeptForAnEventAreNotFollowed() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            Router.global.addRoute("/episode/:id") { params in Screens.openEpisode() }
            let share = UIAction(title: "Share") { _ in Screens.presentShareSheet() }
            NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil) { _ in
                Saver.flush()
            }
            print(share == nil)
            """, others: """
            enum Screens {
                static func openEpisode() { print("episode-screen") }
                static func presentShareSheet() { print("share-sheet") }
            }
            enum Saver { static func flush() { print("flushed") } }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(!r.scenario.contains("episode-screen") && !r.scenario.contains("share-sheet"), "\(r.scenario)")
        #expect(r.scenario.contains("\"flushed\""))
        #expect(r.printed.first == "false", "\(r.printed)")
        #expect(r.printed.contains("flushed"), "the observer runs when the app leaves: \(r.printed)")
    }

    /// `#if DEBUG` is false in the release build the import reads: its branch reaches nothing.
    @Test func anInactiveConditionalBlockReachesNothing() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            #if DEBUG
            DebugMenu.install()
            #endif
            print("launched")
            """, others: """
            enum DebugMenu { static func install() { print("debug-menu") } }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["launched"])
        #expect(!r.scenario.contains("debug-menu"))
    }

    /// A flag whose getter is a literal in the release build (`false` outside `#if DEBUG`) fixes
    /// its `if`: the branch the app never takes reaches nothing, and the run takes the other.
    @Test func aBranchTheReleaseBuildNeverTakesReachesNothing() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            if ProcessInfo.isUITesting {
                UITestHarness.boot()
            } else {
                print("normal launch")
            }
            if !Flags.demoMode { print("real data") }
            """, others: """
            extension ProcessInfo {
                static var isUITesting: Bool {
                    #if DEBUG
                    return processInfo.arguments.contains("-ui-testing")
                    #else
                    return false
                    #endif
                }
            }
            enum Flags { static var demoMode: Bool { false } }
            enum UITestHarness { static func boot() { print("harness-boot") } }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["normal launch", "real data"], "\(r.printed)")
        #expect(!r.scenario.contains("harness-boot"))
    }

    /// A type no kept code names has no table in the scenario (no value of it exists in a run).
    @Test func aTypeNoKeptCodeNamesHasNoTable() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            print(Kept().name)
            """, others: """
            final class Kept { let name = "kept" }
            final class Orphan { let name = "orphan" }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["kept"])
        #expect(r.scenario.contains("T.Kept = swift.type("))
        #expect(!r.scenario.contains("T.Orphan"))
    }

    /// The written Lua may name a type the slice did not reach (a nested type two modules
    /// declare, resolved by the translation through a contextual `.none`): TypeReferences finds
    /// each `T.` path and its prefixes, so that type gets its table.
    @Test func theWrittenLuaNamesTheTypesItUses() throws {
        let program = Program()
        for (name, text) in [("A.swift", "enum Feed { enum Paging { case none, more } }\nstruct Other {}"), ("B.swift", "final class Unused {}")] {
            program.collect(try Parsing.parse(SwiftSource(path: name, shown: name, text: text)))
        }
        program.finish()
        let found = TypeReferences.named(in: [
            "local s = T.Feed.Paging.none  --@ A.swift:1",
            "print(xT.Other, T.Feedback)  --@ T.Unused.swift:2",
        ], types: program.typeOrder)
        #expect(found.map(\.qualified) == ["Feed", "Feed.Paging"], "\(found.map(\.qualified))")
    }

    /// `self = Other(...)` in a struct's initializer gives self the other value's fields (session's
    /// table alias delegated its `init()` so, and every read of it crashed).
    @Test func assigningSelfInAStructsInitializerTakesTheValue() throws {
        #expect(try TranslationTests().printed("""
            let a = Alias()
            print(a.name, a.table)
            """, others: """
            struct Alias {
                let name: String
                let table: String
                init(name: String, table: String) { self.name = name; self.table = table }
                init() { self = Alias(name: "alias", table: "rows") }
            }
            """) == ["alias rows"])
    }

    /// `LUAFETCH_SLICE_WHY` (ImportOptions.why): the chain of references that kept a unit, back to
    /// the entry point, and nothing when not asked.
    @Test func theTraceSaysWhyAUnitWasKept() throws {
        var files = ImportHarness.launching("Sync.start()", others: """
            enum Sync { static func start() { Store.save() } }
            enum Store { static func save() { print("saved") } }
            """)
        files["Info.plist"] = ImportHarness.plist
        let dir = try ImportHarness.folder(files)
        var options = ImportOptions(paths: [dir], luaCheck: ImportHarness.checkLua)
        #expect(try Importer.run(options).why.isEmpty)
        options.why = " save"
        let why = try Importer.run(options).why
        let lines = why.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix(" save") == true, "\(why)")
        #expect(lines.count >= 3 && lines[1].contains(" start via call(base: \"save\"") && lines[2].contains("application via call(base: \"start\""), "\(why)")
    }

    /// `Outer.Inner(...)` makes the nested type by its qualified name, and its closures are the
    /// app's to call: the slice reaches both before the translation has to widen it (session's
    /// `SessionCell.Info(...)` among a dozen types named `Info` left 649 functions to widening
    /// passes, each translating the whole slice again).
    @Test func aNestedTypeIsMadeByItsQualifiedName() throws {
        let program = Program()
        program.collect(try Parsing.parse(SwiftSource(path: "A.swift", shown: "A.swift", text: """
            import UIKit
            @main class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    let i = Cell.Info(title: "t", onTap: { Tapped.go() })
                    print(i.title)
                    return true
                }
            }
            enum Cell { struct Info { let title: String; let onTap: () -> Void } }
            enum Row { struct Info { let size: Int } }
            enum Tapped { static func go() { print("tapped") } }
            """)))
        program.finish()
        let slice = SliceBuilder(program: program, all: false).build(EntryPoints(program))
        let cell = try #require(program.type(named: "Cell.Info"))
        let row = try #require(program.type(named: "Row.Info"))
        let go = try #require(program.type(named: "Tapped")?.methods["go"]?.first)
        #expect(slice.isMade(cell) && !slice.isMade(row))
        #expect(slice.contains(go))
    }
}
