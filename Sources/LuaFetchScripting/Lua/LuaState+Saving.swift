// Saving a LuaState and putting it back (explore's warm runs): the host record and the Swift
// bookkeeping (idle threads, reference locations, declared names) kept beside CLuaHost's arena
// image, the boxes of host functions a run collects while a state is saved, and math.random's
// state. Uses CLuaHost's arena (arena.c); LuaState.swift keeps the stored properties.
import CLua
import CLuaHost
import LuaFetchCore

extension LuaState {
    // MARK: - Saving and restoring (explore's warm runs)

    /// What `save` kept: the host record and the Swift side of the state (the heap is the arena's);
    /// a class, so a restore reads it without copying it.
    final class Saved {
        var host: clua_Host
        var idleThreads: [(OpaquePointer, Int32)]
        var spareThread: OpaquePointer?
        var spareRef: Int32
        var refLocations: RefLocations
        var declaredNames: [String]
        var objectMembers: [String: Set<String>]
        var show: ScriptRef?
        init(_ s: LuaState) {
            host = s.hostRecord.pointee; idleThreads = s.idleThreads; spareThread = s.spareThread; spareRef = s.spareRef
            refLocations = s.refLocations; declaredNames = s.declaredNames; objectMembers = s.objectMembers; show = s.show
        }
    }
    /// While a state is saved, a box made before the save belongs to the saved heap: when a run's
    /// garbage collection frees its userdata the function stays alive (a restore brings the
    /// userdata back); boxes made since are released when collected, or by the restore.
    var keepsBoxes: Bool { saved != nil }

    func boxCollected(_ box: UnsafeMutableRawPointer, slot: UnsafeMutableRawPointer) {
        if let made = transientBoxes.removeValue(forKey: slot) {
            made.release()
        } else {
            collectedSaved.append(Unmanaged.fromOpaque(box))
            savedBoxesCollected += 1
        }
    }

    /// Saves the heap and the state's own bookkeeping, so `restore` can put them back (a second
    /// save replaces the first); false when the state cannot be saved (an ordinary heap, a block
    /// outside the region, a call running).
    func save() -> Bool {
        guard let arena = hostRecord.pointee.arena, running == nil, nesting == 0 else { return false }
        guard clua_arena_save(arena) == 0 else { return false }
        // The earlier image is gone: what it alone held goes now; what was made since is the new image's.
        for box in collectedSaved { box.release() }
        collectedSaved.removeAll()
        transientBoxes.removeAll()
        saved = Saved(self)
        return true
    }

    /// Puts the saved heap and bookkeeping back (everything since the save is forgotten).
    func restore() {
        guard let s = saved, let arena = hostRecord.pointee.arena else { return }
        for (_, box) in transientBoxes { box.release() }
        transientBoxes.removeAll(keepingCapacity: true)
        collectedSaved.removeAll(keepingCapacity: true)
        _ = clua_arena_restore(arena)
        hostRecord.pointee = s.host
        idleThreads = s.idleThreads
        spareThread = s.spareThread
        spareRef = s.spareRef
        refLocations = s.refLocations
        declaredNames = s.declaredNames
        objectMembers = s.objectMembers
        show = s.show
        running = nil
        nesting = 0
    }

    /// math.random's generator state now (empty when unknown).
    var randomState: [UInt8] {
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { clua_get_random(L, $0.baseAddress, 64) }
        return Array(buf.prefix(n))
    }

    /// The generator state `math.randomseed(seed)` leaves (empty when unknown).
    func seededRandomState(_ seed: Int64) -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { clua_seeded_random(L, lua_Integer(seed), $0.baseAddress, 64) }
        return Array(buf.prefix(n))
    }

    /// Gives math.random the state `math.randomseed(seed)` leaves.
    func reseedRandom(_ seed: Int64) { clua_reseed_random(L, lua_Integer(seed)) }

}
