// Remote notifications (SPEC 14): `system.remoteNotification(userInfo, { contentAvailable })`
// delivers a push. In the foreground the app's `didReceiveRemoteNotification(app, userInfo,
// completionHandler)` is called at once for every push, with no time limit; a content-available
// push wakes or launches an eligible app in the background, where its completion keeps the app
// running until it is called or `pushCompletion` passes (`push-no-completion`); anything else is
// dropped with a line saying why. A background push is a grant (Grants.swift) of kind `.push`;
// a foreground one is a loose grant (its completion is checked, nothing waits for it). A
// subsystem of World through the grant book; this file says what a push's completion means.

/// What the push behaviour needs to remember: nothing beyond the grant book.
final class PushBehaviour: GrantBehaviour {
    func invalid(_ value: CompletionValue, of grant: Grant, in world: World) -> (ViolationCode, String)? {
        World.invalidPushResult(value)
    }

    func completed(_ grant: Grant, with value: CompletionValue, in world: World) {
        guard case .string(let s) = value else { return }
        world.log("push", .fetch, "#\(grant.detail) completed: \(s) after \(Time.human(world.now - grant.began))",
                  detail: .grantEnded(kind: "push", id: grant.detail, outcome: s))
    }

    func missed(_ grant: Grant, in world: World) -> String {
        "didReceiveRemoteNotification did not call its completionHandler within \(Time.human(world.budgets.pushCompletion ?? 0)) (push #\(grant.detail))"
    }

    func abandoned(_ grant: Grant, in world: World) {
        world.log("push", .fetch, "#\(grant.detail) ended without completion",
                  detail: .grantEnded(kind: "push", id: grant.detail, outcome: "missed"))
    }
}

extension World {
    static func invalidPushResult(_ value: CompletionValue) -> (ViolationCode, String)? {
        if case .string(let s) = value, FetchResult(rawValue: s) != nil { return nil }
        return (.pushBadResult,
                "completionHandler(\(value.shown)): the result of a remote notification must be \"newData\", \"noData\" or \"failed\" (UIBackgroundFetchResult)")
    }

    /// Why a content-available push cannot reach an app that is not in the foreground (nil: it can).
    var pushIneligibility: String? {
        if !os.hasFetchAPI { return "the \(os.rawValue) profile has no background pushes" }
        if !app.backgroundModes.contains("remote-notification") { return "\"remote-notification\" is not in backgroundModes" }
        if !device.backgroundRefresh { return "Background App Refresh is off" }
        if device.lowPowerMode { return "Low Power Mode is on" }
        if forceQuitBlocked { return "the app was force-quit" }
        return nil
    }

    /// `system.remoteNotification(userInfo, { contentAvailable = ... })`. Takes ownership of
    /// `userInfo` (a copy the host made).
    public func systemRemoteNotification(_ userInfoRef: ScriptRef?, contentAvailable: Bool) {
        stats.pushes += 1
        let serial = stats.pushes
        log("system", .action, "remote notification #\(serial)\(contentAvailable ? " (content-available)" : "")")
        defer { if let userInfoRef { host.release(userInfoRef) } }
        let userInfo: ScriptValue = userInfoRef.map { .ref($0) } ?? .table([])
        if isForeground {
            stats.pushesDelivered += 1
            guard let fn = grantHandler(.push) else {
                log("push", .fetch, "#\(serial) delivered: the app does not implement didReceiveRemoteNotification")
                return
            }
            // iOS 6 has no completion handler; later, the completion is checked but nothing waits for it.
            let completion: ScriptValue = os.hasFetchAPI ? .completion(grants.beginLoose(.push)) : .null
            log("push", .fetch, "#\(serial) delivered in the foreground")
            callApp(fn, Invocation(.app, userInfo, completion))
            return
        }
        guard contentAvailable else {
            stats.pushesDropped += 1
            log("push", .info, "#\(serial) not delivered: an alert push reaches a background app only when the person taps it",
                detail: .pushDropped(id: serial, reason: "not content-available"))
            return
        }
        if let why = pushIneligibility {
            stats.pushesDropped += 1
            log("push", .info, "#\(serial) dropped: \(why)", detail: .pushDropped(id: serial, reason: why))
            return
        }
        stats.pushesDelivered += 1
        deliverGrant(.push, allowed: budgets.pushCompletion ?? 30 * Time.second, launch: .remoteNotification,
                     wakeNote: "woken for a remote notification", detail: serial,
                     announce: { [unowned self] _ in
                         log("push", .fetch, "#\(serial) delivered in the background",
                             detail: .grantBegan(kind: "push", id: serial, name: "remote notification #\(serial)"))
                     },
                     unhandled: { [unowned self] key in
                         log("push", .fetch, "the app does not implement didReceiveRemoteNotification")
                         _ = completeGrant(key, with: .string(FetchResult.noData.rawValue), at: nil)
                     },
                     call: { [unowned self] key in
                         guard let fn = grantHandler(.push) else {
                             log("push", .fetch, "the app does not implement didReceiveRemoteNotification")
                             return completeGrant(key, with: .string(FetchResult.noData.rawValue), at: nil)
                         }
                         return callApp(fn, Invocation(.app, userInfo, .completion(key)))
                     })
    }
}
