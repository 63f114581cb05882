// What one call of a luafetch function costs the run beyond the 16 units every call pays
// (CLuaHost/host.c), for the functions that start work in the world: a request (the server's
// route, the copies, the response event and the callback), a background transfer (the same, and
// the wake or launch it may cause), a transition of the app, a wake for a fetch, a push or a task,
// a background thread or a queued block. Measured with callgrind on CI's machine, at about 20
// machine instructions per unit, so 10^9 units of such work take about as long as 10^9 counted
// VM instructions do, and a scenario that loops on them meets the run's instruction limit within
// seconds (issue 29) instead of running for a minute below the event limit. Looked up by the
// function's name when a HostFunction is made (LuaState.swift); charged before its work is done,
// to the run's limit only: it is luafetch's time, not the app's, so it never makes an app-hang.

enum HostCosts {
    /// A reference kept for the scenario (a callback, a value): where a function was defined
    /// looked up and recorded (LuaState.makeRef).
    static let reference: Int64 = 48
    /// A call that raises an error: its message built, the scenario line found, the unwinding.
    static let error: Int64 = 192

    /// Extra units by function name ("table.method" or "table:method"); absent: none.
    static let units: [String: Int64] = {
        var u: [String: Int64] = [
            // a request: about 40,000 machine instructions from the call to the callback
            "http.get": 1_850, "http.request": 1_850,
            // a transfer: about 75,000 (delivered at once) to 100,000 (with a wake or a launch)
            "session:download": 3_500, "session:upload": 3_500,
            // a wake for a fetch, a push or a task, with its suspension: about 16,000
            "system.backgroundFetch": 650, "system.launchForFetch": 650, "system.remoteNotification": 650,
            "system.launchTask": 650, "system.expireTask": 650, "system.disconnectScene": 650, "system.memoryPressure": 650,
            "BGTaskScheduler.submit": 650,
            // a thread or a queued block, started and ended: about 8,000
            "dispatch.global": 250, "queue:async": 300,
            "dispatch.asyncAfter": 300, "queue:asyncAfter": 300, "group:notify": 300,
            // a thread woken by a group, a semaphore or its wait: as `work`
            "group:leave": 100, "semaphore:signal": 100, "group:wait": 100, "semaphore:wait": 100,
            // a block on the main queue: about 4,000 with its call
            "dispatch.main": 100, "after": 100,
            // a background thread's `work`: parked, woken and resumed, about 7,000
            "work": 100,
            // a timer object made (issue 40: bench/costs.py, `timers`, 1.16x the VM loop at 80),
            // a property list copied both ways
            "timer.after": 120, "timer.every": 120, "defaults.set": 110, "defaults.get": 110,
            // a background task begun: its record, its `held` event and its timeline line
            // with the scenario's `file:line` (bench/costs.py, `bgtasks-open-text`: 1.36x the VM
            // loop at none, with the timeline written as text)
            "app:beginBackgroundTask": 64,
            // an observer added: its record and the name's list grown (`observe`: 1.31x at none)
            "notifications.observe": 48,
        ]
        // a transition (home, open, launch, a call): about 6,000
        for name in ["launch", "home", "open", "forceQuit", "interrupt"] { u["user." + name] = 200 }
        return u
    }()
}
