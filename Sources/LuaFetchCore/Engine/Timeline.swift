// The scenario's own timeline as a subsystem of World: `at`, `every`, typed lines and the actions
// the REPL and explore inject (kept in a side table: no closures in the event queue). Uses World's
// calls into scenario code.

/// The scenario's own timeline: `at`, `every`, and actions injected by the REPL and explore.
final class Timeline: Subsystem {
    enum Kind: UInt8 { case call, every, action, typed, explore }
    /// Injected actions by number (from 1; a slot is emptied when its action runs).
    private var actions: [(() -> Void)?] = []

    func keep(_ body: @escaping () -> Void) -> Int {
        actions.append(body)
        return actions.count
    }

    private func take(_ number: Int) -> (() -> Void)? {
        guard number >= 1, number <= actions.count, let body = actions[number - 1] else { return nil }
        actions[number - 1] = nil
        // Numbers of actions that ran are free again once nothing after them is pending.
        while actions.last.map({ $0 == nil }) == true { actions.removeLast() }
        return body
    }

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        switch event.kind(Kind.self) {
        case .call:
            world.callWorld(ScriptRef(id: event.a))
        case .every:
            world.schedule(event, at: time + Millis(event.a), recurring: true)
            world.callWorld(ScriptRef(id: event.b))
        case .action:
            take(event.a)?()
        case .typed:
            world.callWorld(ScriptRef(id: event.a), as: .repl)
        case .explore:
            world.onExploreAction?(event.a)
        }
    }

    func location(of event: Event, in world: World) -> SourceLocation? {
        switch event.kind(Kind.self) {
        case .action, .explore: return nil
        case .every: return world.host.location(of: ScriptRef(id: event.b))
        case .call, .typed: return world.host.location(of: ScriptRef(id: event.a))
        }
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension Timeline {
    func copyState(from o: Timeline) {
        // Usually none were kept: keep this book's capacity for the next run's.
        if o.actions.isEmpty { actions.removeAll(keepingCapacity: true) } else { actions = o.actions }
    }
}
