// SPEC 18.9.1 and 18.9.2, rule by rule: which stub call sites may return nil. Declarations decide
// (the SDK's table, the app's own protocol requirements); otherwise only the code's own use of the
// call itself as an optional, never a variable declared optional, never an initializer. The test
// reads the scenario's `swift.sites{}` table, the runtime's record of what each site can do.
import Testing
@testable import LuaFetchImport

@Suite struct StubTruthTests {
    /// Each stub site of the import as (name, may be nil), in order.
    func sites(_ body: String, members: String = "", others: String = "", files: [String: String] = [:]) throws -> [(String, Bool)] {
        let app = ImportHarness.launching(body, members: members, others: others).merging(files) { a, _ in a }
        let dir = try ImportHarness.folder(app)
        let r = try Importer.run(ImportOptions(paths: [dir], luaCheck: ImportHarness.checkLua))
        let lines = r.scenario.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "swift.sites {") else { return [] }
        var out: [(String, Bool)] = []
        for line in lines[(start + 1)...] {
            if line == "}" { break }
            guard let q1 = line.firstIndex(of: "\""), let q2 = line[line.index(after: q1)...].firstIndex(of: "\"") else { continue }
            out.append((String(line[line.index(after: q1)..<q2]), line.contains("opt = true")))
        }
        return out
    }

    func mayBeNil(_ name: String, in s: [(String, Bool)]) -> [Bool] { s.filter { $0.0 == name }.map(\.1) }

    @Test func anInitializerIsNeverNilEvenIntoAnOptionalProperty() throws {
        let s = try sites("""
            window = UIWindow(frame: .zero)
            coordinator = AppCoordinator(window: window)
            if let c = AppCoordinator(window: window) { _ = c }
            """, members: "var window: UIWindow?\nvar coordinator: AppCoordinator?")
        #expect(mayBeNil("UIWindow.init", in: s) == [false])
        #expect(mayBeNil("AppCoordinator.init", in: s) == [false, false])
    }

    @Test func aVariableDeclaredOptionalProvesNothing() throws {
        let s = try sites("""
            let a: Session? = SessionStore.current()
            var b: Session?
            b = SessionStore.current()
            print(a == nil, b == nil)
            """)
        #expect(mayBeNil("SessionStore.current", in: s) == [false, false])
    }

    @Test func theCodesOwnUseOfTheCallProvesAnOptional() throws {
        let s = try sites("""
            if let a = SessionStore.current() { print(a) }
            guard let b = SessionStore.current() else { return true }
            print(b, SessionStore.current()?.name ?? "-", SessionStore.current() ?? "none", SessionStore.current() == nil)
            SessionStore.current()!.start()
            """)
        #expect(mayBeNil("SessionStore.current", in: s) == [true, true, true, true, true, true])
    }

    @Test func theSDKsTableDecides() throws {
        let s = try sites("""
            let data = FileManager.default.contents(atPath: "/x")
            let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)
            let parts = URLComponents(string: "https://example.com")
            let window = UIWindow(frame: .zero)
            print(data, docs, parts, window)
            """)
        #expect(mayBeNil("FileManager.contents", in: s) == [true])
        #expect(mayBeNil("FileManager.urls", in: s) == [false])
        #expect(mayBeNil("URLComponents.init", in: s) == [true])
        #expect(mayBeNil("UIWindow.init", in: s) == [false])
        #expect(Signatures.lookup("URL.init", labels: ["string"]) == Signature(optional: true, throwing: false, async: false))
        #expect(Signatures.lookup("URL.init", labels: ["fileURLWithPath"])?.optional == false)
        #expect(Signatures.lookup("FileManager.default.removeItem", labels: ["at"])?.throwing == true)
        #expect(Signatures.lookup("Decoder.container.decodeIfPresent", labels: ["_", "forKey"])?.optional == true)
    }

    /// A bundle's resource looked up by a literal name the repository has is never nil: the
    /// repository's `core.css` and `Model.xcdatamodeld` (compiled to `Model.momd`) are in the
    /// bundle; a name it lacks, or one made at run time, may be nil. (bitwarden's force-unwrapped
    /// model URL, NetNewsWire's stylesheet path: false crashes.)
    @Test func aResourceTheRepositoryHasIsInTheBundle() throws {
        let s = try sites("""
            let css = Bundle.main.path(forResource: "core", ofType: "css")!
            let model = Bundle(for: AppDelegate.self).url(forResource: "Model", withExtension: "momd")!
            let missing = Bundle.main.url(forResource: "absent", withExtension: "json")!
            let name = "co" + "re"
            let made = Bundle.main.path(forResource: name, ofType: "css")!
            print(css, model, missing, made)
            """, files: ["Resources/core.css": "body {}", "Model.xcdatamodeld/Model.xcdatamodel/contents": "<model/>"])
        #expect(s.filter { $0.0 == "Bundle.url" || $0.0 == "Bundle.path" }.map(\.1) == [false, false, true, true], "\(s)")
    }

    /// What is made from a resource of the bundle is there too: the model a model URL holds (kept
    /// in a `let` after `!`, or bound by `guard let`; named by a `static let`), and an entity one of
    /// the repository's models declares. A file outside the bundle, or an entity no model has, may
    /// be nil. (bitwarden's `NSManagedObjectModel(contentsOf: modelURL)!`, brave's model named by
    /// `static let modelName` and its `NSEntityDescription.entity(forEntityName: "PlaylistItem",
    /// in:)!`: false crashes.)
    @Test func whatIsMadeFromTheBundleIsThere() throws {
        let s = try sites("""
            let modelURL = Bundle.main.url(forResource: Store.modelName, withExtension: "momd")!
            let model = NSManagedObjectModel(contentsOf: modelURL)!
            guard let url = Bundle.main.url(forResource: "Model", withExtension: "momd"), let again = NSManagedObjectModel(contentsOf: url) else { fatalError("no model") }
            let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            let entity = NSEntityDescription.entity(forEntityName: "Item", in: context)!
            let gone = NSEntityDescription.entity(forEntityName: "Nothing", in: context)!
            let elsewhere = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: "/tmp/Model.momd"))!
            print(model, again, entity, gone, elsewhere)
            """, others: "enum Store { static let modelName = \"Model\" }",
            files: ["Model.xcdatamodeld/Model.xcdatamodel/contents": "<model><entity name=\"Item\" representedClassName=\"Item\"/></model>"])
        #expect(mayBeNil("Bundle.url", in: s) == [false, false], "\(s)")
        #expect(mayBeNil("NSManagedObjectModel.init", in: s) == [false, false, true], "\(s)")
        #expect(mayBeNil("NSEntityDescription.entity", in: s) == [false, true], "\(s)")
    }

    /// A library call that loads a Core Data model the repository has, by its constant name, and
    /// the first object of a nib the app instantiates, are never nil (duckduckgo's `loadModel(from:
    /// .main, named: "AppRatingPrompt")` and `nib.instantiate(withOwner:options:).first as? Self`,
    /// each in a guard whose else is a fatalError: false crashes). A model name the repository
    /// lacks may still be nil.
    @Test func aModelTheRepositoryHasAndANibsFirstObjectAreThere() throws {
        let s = try sites("""
            guard let model = CoreDataStack.loadModel(from: .main, named: "Ratings") else { fatalError("no model") }
            guard let other = CoreDataStack.loadModel(from: .main, named: "Absent") else { fatalError("no model") }
            let nib = UINib(nibName: "Banner", bundle: nil)
            guard let view = nib.instantiate(withOwner: nil, options: nil).first as? UIView else { fatalError("no view") }
            print(model, other, view)
            """, files: ["Ratings.xcdatamodeld/Ratings.xcdatamodel/contents": "<model/>"])
        #expect(mayBeNil("CoreDataStack.loadModel", in: s) == [false, true], "\(s)")
        #expect(mayBeNil("UINib.instantiate.first", in: s) == [false], "\(s)")
    }

    /// A regular expression made from a constant pattern that compiles cannot throw; an invalid
    /// constant pattern, or one made at run time, can (home-assistant's version pattern under
    /// `try!` was a false crash).
    @Test func aValidConstantPatternNeverThrows() throws {
        let app = ImportHarness.launching("""
            let good = try? NSRegularExpression(pattern: "^([0-9]+)(?:[.]([0-9]+))?$")
            let bad = try? NSRegularExpression(pattern: "([0-9]")
            let made = try? NSRegularExpression(pattern: "a" + String(3))
            print(good == nil, bad == nil, made == nil)
            """)
        let r = try Importer.run(ImportOptions(paths: [try ImportHarness.folder(app)], luaCheck: ImportHarness.checkLua))
        let lines = r.scenario.split(separator: "\n").filter { $0.contains("\"NSRegularExpression.init\"") && $0.hasPrefix("  {") }
        #expect(lines.map { $0.contains("throws = true") } == [false, true, true], "\(lines)")
    }

    /// A PromiseKit promise's body runs before the initializer returns; what is chained on the
    /// promise runs later (home-assistant began a background task inside `Promise { seal in }`;
    /// its `tap` ran first and never ended the task: a false `task-expired` in every run).
    @Test func aPromisesBodyRunsBeforeItsInitializerReturns() throws {
        let r = try ImportHarness.run(ImportHarness.launching("""
            var started = false
            let promise = Promise<Void> { seal in
                started = true
                seal.fulfill(())
            }
            print("started", started)
            promise.tap { _ in print("tapped", started) }
            """))
        #expect(r.error == nil && r.codes.isEmpty, "\(r.codes) \(r.error?.message ?? "")")
        #expect(r.printed == ["started true", "tapped true"], "\(r.printed)")
    }

    /// Arrays iOS never hands back empty: a container's store descriptions and the app's documents
    /// directory. kiwix's `guard let d = container.persistentStoreDescriptions.first else {
    /// fatalError() }` was a crash in 6.6 % of explore's runs.
    @Test func arraysIOSNeverLeavesEmptyHaveAFirst() throws {
        let s = try sites("""
            let container = NSPersistentContainer(name: "Model")
            guard let description = container.persistentStoreDescriptions.first else { fatalError("none") }
            guard let docs = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first else { return false }
            guard let other = FileManager.default.enumerator(atPath: "/")?.nextObject() else { return false }
            print(description, docs, other)
            """)
        #expect(mayBeNil("NSPersistentContainer.persistentStoreDescriptions.first", in: s) == [false])
        #expect(mayBeNil("FileManager.urls.first", in: s) == [false])
        #expect(mayBeNil("FileManager.enumerator.nextObject", in: s) == [true])
    }

    /// A stub standing for the app's own function whose Lua does not compile (here: nesting deeper
    /// than Lua's parser takes) follows its declaration (LoadCheck): what the code does with the
    /// result changes nothing.
    @Test func aStubOfTheAppsOwnFunctionFollowsItsDeclaration() throws {
        let deep = String(repeating: "(", count: 300) + "1" + String(repeating: " + 1)", count: 300)
        let s = try sites("""
            let a = Loader.latest()
            print(a == nil)
            print(Loader.count() ?? 0, Loader.size())
            """, others: """
            enum Loader {
                static func latest() -> Int? { let x = \(deep); return x > 0 ? nil : x }
                static func count() -> Int? { let y = \(deep); return y }
                static func size() -> Int { let z = \(deep); return z }
            }
            """)
        #expect(mayBeNil("Loader.latest", in: s) == [true])
        #expect(mayBeNil("Loader.count", in: s) == [true])
        #expect(mayBeNil("Loader.size", in: s) == [false])
    }
}
