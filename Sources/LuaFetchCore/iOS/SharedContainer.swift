// The app-group container's file locks (SPEC 12.1): `sharedContainer.lock(name)` holds a file of
// the shared container open (a SQLite database, say) until `unlock`. iOS terminates a process
// that is suspended while holding one (`0xdead10cc`, `lock-held-at-suspension`); termination
// releases a process's locks. A subsystem of World.

/// One lock a process holds.
struct ContainerLock {
    let id: Int
    let name: String
    let pid: Int
    let location: SourceLocation?
}

/// The locks held now, oldest first.
final class SharedContainer: Subsystem {
    private(set) var held: [ContainerLock] = []
    private var lastID = 0

    func take(_ name: String, pid: Int, at location: SourceLocation?) -> Int {
        lastID += 1
        held.append(ContainerLock(id: lastID, name: name, pid: pid, location: location))
        return lastID
    }

    func release(_ id: Int) { held.removeAll { $0.id == id } }

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {}

    /// A process suspended with a lock held is terminated (the World checks the state after).
    func appSuspending(_ world: World) {
        guard let oldest = held.first(where: { $0.pid == world.pid }) else { return }
        world.watchdogTerminate(.lockHeldAtSuspension, at: oldest.location,
                    "the app was suspended while holding the shared-container lock on \"\(oldest.name)\" (lock #\(oldest.id), taken here); iOS terminates it. Unlock before the app can be suspended: before ending the last background task or calling the completion handler")
    }

    func processEnding(_ pid: Int, in world: World) { held.removeAll { $0.pid == pid } }

    func pendingLines(in world: World) -> [String] {
        held.map { "lock       #\($0.id) on \"\($0.name)\" in the shared container\($0.location.map { ", taken at \($0)" } ?? "")" }
    }
}

extension World {
    /// `sharedContainer.lock(name)`: returns the lock's number.
    public func lockContainer(_ name: String, at location: SourceLocation?) -> Int {
        container.take(name, pid: pid, at: location)
    }

    /// `lock:unlock()` (a second unlock, or one after the process ended, does nothing).
    public func unlockContainer(_ id: Int) { container.release(id) }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension SharedContainer {
    func copyState(from o: SharedContainer) { held = o.held; lastID = o.lastID }
}
