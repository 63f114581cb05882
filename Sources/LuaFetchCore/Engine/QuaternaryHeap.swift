// A 4-ary min-heap of small plain entries beside a sorted run, the event queue's ordering
// structure. Issue #7 measured the heap as the largest cost per event; with integer keys a 4-ary
// heap halves the depth of a binary one and touches one cache line per level, so it beats
// swift-collections' min-max Heap (which this replaced) by about 2× here. The run (issue #19):
// an entry greater than every entry of the run is appended to it instead of sifted into the heap,
// and the smaller of the two fronts is the minimum. Events scheduled in the order they will fire
// (a recurring timer rescheduled one period on, a world `every`, a reply after a fixed latency)
// cost an append and an index; only out-of-order entries pay the heap's sifting. Both live in
// buffers the heap owns (`PlainBuffer`), not Swift arrays: every event touches them several
// times, and an array's uniqueness and bounds checks were a fifth of the queue's cost. The heap
// is a noncopyable struct, not a class: a generic class's metadata is made at run time, and
// checking its requirements scanned every conformance record (150,000 instructions of each
// start). See docs/PERFORMANCE.md. Uses PlainBuffer.

struct QuaternaryHeap<Element: Comparable & BitwiseCopyable>: ~Copyable {
    private var items = PlainBuffer<Element>()
    /// Ascending; `run[runStart..<run.count]` are the pending ones.
    private var run = PlainBuffer<Element>()
    private var runStart = 0

    init() {}
    deinit { items.free(); run.free() }

    var isEmpty: Bool { items.count == 0 && runStart == run.count }
    var count: Int { items.count + run.count - runStart }
    var min: Element? {
        guard runStart < run.count else { return items.count > 0 ? items[0] : nil }
        guard items.count > 0 else { return run[runStart] }
        return items[0] < run[runStart] ? items[0] : run[runStart]
    }

    /// Becomes a copy of `other`, keeping this heap's storage (a warm run's restore).
    mutating func assign(_ other: borrowing QuaternaryHeap) {
        items.assign(other.items)
        run.assign(other.run)
        runStart = other.runStart
    }

    @inline(__always)
    mutating func insert(_ e: Element) {
        if runStart == run.count {
            // The run is spent: start it again (its storage stays).
            runStart = 0
            run.count = 0
            run.append(e)
            return
        }
        if run[run.count - 1] < e { run.append(e); return }
        siftIn(e)
    }

    private mutating func siftIn(_ e: Element) {
        items.append(e)
        let b = items.base
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) >> 2
            guard e < b[parent] else { break }
            b[i] = b[parent]
            i = parent
        }
        b[i] = e
    }

    @inline(__always)
    mutating func popMin() -> Element? {
        if runStart < run.count, items.count == 0 || run[runStart] < items[0] {
            let e = run[runStart]
            runStart += 1
            if runStart >= 4096, runStart * 2 >= run.count {
                run.removeFirst(runStart)  // amortised: the spent half goes
                runStart = 0
            }
            return e
        }
        guard items.count > 0 else { return nil }
        return popHeap()
    }

    private mutating func popHeap() -> Element {
        let top = items[0]
        items.count -= 1
        let n = items.count
        guard n > 0 else { return top }
        siftDown(items[n], from: 0)
        return top
    }

    /// Calls `body` with every entry, in storage order (the heap's, then the run's pending ones).
    func forEach(_ body: (Element) -> Void) {
        for e in items.elements { body(e) }
        for i in runStart..<run.count { body(run[i]) }
    }

    /// Removes every entry `drop` picks, in O(count): the run stays sorted as it is filtered and
    /// the heap is rebuilt bottom-up (Floyd). For the rare moment most entries are dead (a process
    /// ending cancels all of its events, EventQueue.cancelAll).
    mutating func removeAll(where drop: (Element) -> Bool) {
        var kept = 0
        for i in 0..<items.count where !drop(items[i]) {
            items[kept] = items[i]
            kept += 1
        }
        items.count = kept
        var keptRun = 0
        for i in runStart..<run.count where !drop(run[i]) {
            run[keptRun] = run[i]
            keptRun += 1
        }
        run.count = keptRun
        runStart = 0
        guard kept > 1 else { return }
        var i = (kept - 2) >> 2
        while i >= 0 {
            siftDown(items[i], from: i)
            i -= 1
        }
    }

    /// Places `e` at `i` or below, moving smaller children up (the heap below `i` is a heap).
    @inline(__always)
    private mutating func siftDown(_ e: Element, from start: Int) {
        let b = items.base
        let n = items.count
        var i = start
        while true {
            let first = 4 * i + 1
            if first >= n { break }
            var best = first
            let end = Swift.min(first + 4, n)
            var c = first + 1
            while c < end {
                if b[c] < b[best] { best = c }
                c += 1
            }
            guard b[best] < e else { break }
            b[i] = b[best]
            i = best
        }
        b[i] = e
    }

    /// Every entry, in no particular order.
    var unordered: [Element] { Array(items.elements) + Array(run.elements[runStart...]) }

    /// The entries as stored, the heap's then the run's pending ones: two heaps that are copies of
    /// each other show the same (WorldStateTests), whatever their capacity.
    var stored: (heap: [Element], run: [Element]) { (Array(items.elements), Array(run.elements[runStart...])) }
}

/// A growable buffer of plain values whose owner frees it in its `deinit` (`free()`): the event
/// queue's storage. Indexing is unchecked (the owner keeps indices below `count`); growth doubles,
/// as an array's does. Copying the struct copies the pointer, not the values (use `assign`).
struct PlainBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    /// Elements in use; the owner may lower it (a reset, a pop from the end).
    var count = 0
    private(set) var capacity = 0

    init() { base = UnsafeMutablePointer<Element>.allocate(capacity: 0) }

    func free() { base.deallocate() }

    @inline(__always)
    subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func append(_ e: Element) {
        if count == capacity { grow(to: Swift.max(16, capacity * 2)) }
        base[count] = e
        count += 1
    }

    private mutating func grow(to newCapacity: Int) {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        bigger.initialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    /// Drops the first `n` elements, moving the rest to the front.
    mutating func removeFirst(_ n: Int) {
        UnsafeMutableRawPointer(base).copyMemory(from: base + n, byteCount: (count - n) * MemoryLayout<Element>.stride)  // may overlap
        count -= n
    }

    /// Becomes a copy of `other`'s elements, growing only when they do not fit.
    mutating func assign(_ other: PlainBuffer) {
        if capacity < other.count { count = 0; grow(to: other.count) }
        base.update(from: other.base, count: other.count)
        count = other.count
    }
}
