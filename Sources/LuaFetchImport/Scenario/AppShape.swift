// The app's entry points and the `app{}` they make (SPEC 18.2, 18.3, 18.6, 18.7.13): the app
// delegate (UIApplicationDelegate, or the one a SwiftUI `App` adapts), the scene delegate, a
// SwiftUI `App` and its views' `scenePhase` handlers, wired as `delegate = function(app) ... end`
// so every process starts fresh; one table maps the delegate methods' Swift selectors to
// luafetch's delegate fields. Also the import-time warnings about the app.
import SwiftSyntax

struct DelegateRow {
    let selector: String
    let field: String
    /// The Lua parameters luafetch passes, and the arguments the Swift method takes (in Lua).
    let params: String
    let args: String
}

enum AppShape {
    /// UIApplicationDelegate methods luafetch calls (SPEC 4.1, 4.4, 14, 15).
    static let appDelegateRows: [DelegateRow] = [
        DelegateRow(selector: "application(_:willFinishLaunchingWithOptions:)", field: "didFinishLaunching", params: "app, launch", args: "app, swift.launchOptions(launch)"),
        DelegateRow(selector: "application(_:didFinishLaunchingWithOptions:)", field: "didFinishLaunching", params: "app, launch", args: "app, swift.launchOptions(launch)"),
        DelegateRow(selector: "applicationDidFinishLaunching(_:)", field: "didFinishLaunching", params: "app, launch", args: "app"),
        DelegateRow(selector: "applicationDidBecomeActive(_:)", field: "didBecomeActive", params: "app", args: "app"),
        DelegateRow(selector: "applicationWillResignActive(_:)", field: "willResignActive", params: "app", args: "app"),
        DelegateRow(selector: "applicationDidEnterBackground(_:)", field: "didEnterBackground", params: "app", args: "app"),
        DelegateRow(selector: "applicationWillEnterForeground(_:)", field: "willEnterForeground", params: "app", args: "app"),
        DelegateRow(selector: "applicationWillTerminate(_:)", field: "willTerminate", params: "app", args: "app"),
        DelegateRow(selector: "application(_:performFetchWithCompletionHandler:)", field: "performFetch", params: "app, completionHandler",
                    args: "app, swift.completion(completionHandler)"),
        DelegateRow(selector: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", field: "didReceiveRemoteNotification",
                    params: "app, userInfo, completionHandler", args: "app, swift.dict(userInfo), swift.completion(completionHandler)"),
        DelegateRow(selector: "application(_:didReceiveRemoteNotification:)", field: "didReceiveRemoteNotification",
                    params: "app, userInfo, completionHandler", args: "app, swift.dict(userInfo)"),
        DelegateRow(selector: "application(_:handleEventsForBackgroundURLSession:completionHandler:)", field: "handleEventsForBackgroundURLSession",
                    params: "app, identifier, completionHandler", args: "app, identifier, completionHandler"),
    ]

    /// UISceneDelegate methods (SPEC 16), with the scene phase SwiftUI sees after each.
    static let sceneRows: [(selector: String, field: String, phase: String?)] = [
        ("scene(_:willConnectTo:options:)", "willConnect", nil),
        ("sceneWillEnterForeground(_:)", "willEnterForeground", "inactive"),
        ("sceneDidBecomeActive(_:)", "didBecomeActive", "active"),
        ("sceneWillResignActive(_:)", "willResignActive", "inactive"),
        ("sceneDidEnterBackground(_:)", "didEnterBackground", "background"),
        ("sceneDidDisconnect(_:)", "didDisconnect", nil),
    ]

    static let lifecycleSelectors: Set<String> = [
        "applicationDidBecomeActive(_:)", "applicationWillResignActive(_:)", "applicationDidEnterBackground(_:)", "applicationWillEnterForeground(_:)",
    ]
}

/// What the translation found of the app's structure.
struct EntryPoints {
    var appDelegate: TypeDecl?
    var sceneDelegate: TypeDecl?
    var swiftUIApp: TypeDecl?
    var views: [TypeDecl] = []

    init(_ program: Program) {
        let delegates = program.typeOrder.filter { $0.kind == .class && $0.conforms(to: "UIApplicationDelegate") }
        appDelegate = delegates.first { t in
            t.file.tree.description.contains("@main") || t.file.tree.description.contains("@UIApplicationMain")
        } ?? delegates.first
        sceneDelegate = program.typeOrder.first { $0.kind == .class && ($0.conforms(to: "UIWindowSceneDelegate") || $0.conforms(to: "UISceneDelegate")) }
        swiftUIApp = program.typeOrder.first { $0.kind == .struct && $0.conforms(to: "App") }
        if appDelegate == nil, let app = swiftUIApp,
           let adaptor = app.properties.values.first(where: { $0.wrapper == "UIApplicationDelegateAdaptor" }), let name = adaptor.type?.name {
            appDelegate = program.type(named: name)
        }
        views = program.typeOrder.filter { $0.conforms(to: "View") }
    }
}

extension Translator {
    /// The Lua name of the method with `selector` in `t` (or a superclass).
    func method(_ t: TypeDecl, _ selector: String) -> FuncInfo? {
        var c: TypeDecl? = t
        while let x = c {
            for list in x.methods.values {
                if let f = list.first(where: { $0.selector == selector }) { calledFunctions.append(f); return f }
            }
            c = x.superclass
        }
        return nil
    }

    /// `{ didFinishDownloading = "...", ... }`: the Lua names of a URL session delegate's methods.
    func sessionDelegateMethods(_ a: CallArg) -> String? {
        let e = expr(a.syntax)
        guard let tn = e.type, let t = program.type(named: tn.name, from: currentType) else { return nil }
        var fields: [String] = []
        for (field, selector) in [("didFinishDownloading", "urlSession(_:downloadTask:didFinishDownloadingTo:)"),
                                  ("didComplete", "urlSession(_:task:didCompleteWithError:)"),
                                  ("didFinishEvents", "urlSessionDidFinishEvents(forBackgroundURLSession:)")] {
            if let m = method(t, selector) { fields.append("\(field) = \(Literals.quote(m.lua))") }
        }
        return "{ \(fields.joined(separator: ", ")) }"
    }

    /// The `app{}` block.
    func appBlock(_ entry: EntryPoints, plist: InfoPlist?, modes: [String], permitted: [String], scenes: Bool) -> [String] {
        var lines: [String] = []
        lines.append("app {")
        lines.append("  backgroundModes = { \(modes.map(Literals.quote).joined(separator: ", ")) },")
        if !permitted.isEmpty { lines.append("  permittedIdentifiers = { \(permitted.map(Literals.quote).joined(separator: ", ")) },") }
        if scenes { lines.append("  scenes = true,") }
        out = []
        indent = 1
        let d = entry.appDelegate
        if let d { setFile(d.file) } else if let a = entry.swiftUIApp { setFile(a.file) }
        emitPlainLine("delegate = function(app)", d?.line ?? entry.swiftUIApp?.line)
        indent = 2
        // A main storyboard: UIKit made the delegate's window (and its root view controller).
        let storyboard = plist?.mainStoryboard == true && d?.property("window") != nil ? ", true" : ""
        emitPlainLine("local appDelegate = swift.launch(app, \(d?.lua ?? "nil")\(storyboard))", d?.line)
        if let a = entry.swiftUIApp {
            setFile(a.file)
            emitPlainLine("local appStruct = swift.new(\(a.lua), \"init\")  -- the SwiftUI App: its init is the launch", a.line)
            if swiftUITypes.contains(where: { $0 === a }) { emitPlainLine("appStruct:__swiftui()", a.line) }
            if d == nil { emitPlainLine("appDelegate = swift.adaptorInstance()", a.line) }
        }
        emitPlainLine("return {", nil)
        indent = 3
        if let d {
            var byField: [String: [(DelegateRow, FuncInfo)]] = [:]
            var order: [String] = []
            for row in AppShape.appDelegateRows {
                guard let m = method(d, row.selector) else { continue }
                if scenes && AppShape.lifecycleSelectors.contains(row.selector) { continue }
                if byField[row.field] == nil { order.append(row.field) }
                byField[row.field, default: []].append((row, m))
            }
            for field in order {
                let rows = byField[field]!
                setFile(rows[0].1.file)
                let line = rows.last!.1.file.line(rows.last!.1.node)
                emitPlainLine("\(field) = function(\(rows[0].0.params))", line)
                indent += 1
                for (row, m) in rows {
                    setFile(m.file)
                    let mLine = m.file.line(m.node)
                    if m.isAsync, field == "didReceiveRemoteNotification" {
                        emitPlainLine("swift.runAsync(function() return appDelegate:\(m.lua)(\(row.args)) end, function(result) if completionHandler then completionHandler(swift.fetchResult(result)) end end)", mLine)
                    } else if m.isAsync {
                        emitPlainLine("swift.runAsync(function() return appDelegate:\(m.lua)(\(row.args)) end)", mLine)
                    } else {
                        emitPlainLine("appDelegate:\(m.lua)(\(row.args))", mLine)
                    }
                }
                indent -= 1
                emitPlainLine("end,", line)
            }
        }
        if scenes {
            emitPlainLine("scene = {", nil)
            indent += 1
            for row in AppShape.sceneRows {
                var calls: [(String, Int?)] = []
                var line: Int?
                if let s = entry.sceneDelegate, let m = method(s, row.selector) {
                    setFile(m.file)
                    line = m.file.line(m.node)
                    let args = row.field == "willConnect" ? "scene, swift.opaque(\"UISceneSession\"), swift.opaque(\"UIScene.ConnectionOptions\")" : "scene"
                    let target = row.field == "willConnect" ? connectScene(s, plist) : "swift.sceneDelegate()"
                    calls.append(("\(target):\(m.lua)(\(args))", line))
                } else if row.field == "willConnect", let s = entry.sceneDelegate {
                    calls.append((connectScene(s, plist), s.line))
                }
                if row.field == "willConnect" {
                    for v in swiftUITypes where v !== entry.swiftUIApp && v.conforms(to: "View") {
                        calls.append((liftedView(v), v.line))
                    }
                }
                if let phase = row.phase, entry.swiftUIApp != nil { calls.append(("swift.scenePhase(\(Literals.quote(phase)))", nil)) }
                guard !calls.isEmpty else { continue }
                emitPlainLine("\(row.field) = function(scene)", line)
                indent += 1
                for (c, l) in calls { emitPlainLine(c, l ?? line) }
                indent -= 1
                emitPlainLine("end,", line)
            }
            indent -= 1
            emitPlainLine("},", nil)
        }
        indent = 2
        emitPlainLine("}", nil)
        indent = 1
        emitPlainLine("end,", nil)
        lines += out
        out = []
        indent = 0
        lines.append("}")
        return lines
    }

    /// A line of the generated wiring, marked with a Swift line when it stands for one.
    /// The scene delegate made as the scene connects; with a storyboard named in the scene
    /// manifest, its `window` is the one UIKit made (18.9.7), never nil.
    func connectScene(_ s: TypeDecl, _ plist: InfoPlist?) -> String {
        plist?.sceneStoryboard == true && s.property("window") != nil ? "swift.connectScene(\(s.lua), true)" : "swift.connectScene(\(s.lua))"
    }

    /// A view made for its background handlers (SwiftUILift): made without the arguments its
    /// parent would pass, so each non-optional (or implicitly unwrapped) stored property it leaves nil is an opaque value of
    /// its type (what the view was given is unknown; a nil would crash where the app cannot). A
    /// view with initializers of its own is made by the one with the fewest parameters, given an
    /// opaque value of each parameter's type (nil for an optional one): its body reads them
    /// (`manga.wrappedValue` of a `Binding` parameter).
    func liftedView(_ v: TypeDecl) -> String {
        let unknown = v.propertyOrder.filter { name in
            guard let p = v.properties[name], !p.isStatic, p.kind == .stored || p.kind == .observed else { return false }
            // An implicitly unwrapped one (`@State var state: AppState!`) is set once the view
            // appears (its `onAppear`, which luafetch never runs): the app reads it as set.
            return p.type?.optional != true || p.binding.typeAnnotation?.type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) == true
        }
        var initCall = "\"init\""
        if let i = v.inits.filter({ !$0.failable && keeps($0) }).min(by: { $0.params.count < $1.params.count }) {
            let args = i.params.map { p in p.type?.optional == true || p.variadic ? "nil" : "swift.opaque(\(Literals.quote(p.type?.name ?? p.name)))" }
            initCall = ([Literals.quote(i.lua)] + args).joined(separator: ", ")
        }
        guard !unknown.isEmpty else { return "swift.new(\(v.lua), \(initCall)):__swiftui()" }
        return "swift.liftedView(\(v.lua), { \(unknown.map { Literals.quote(Naming.field($0)) }.joined(separator: ", ")) }, \(initCall)):__swiftui()"
    }

    func emitPlainLine(_ code: String, _ line: Int?) {
        if let line { emit(code, line) } else { plain(code) }
    }
}
