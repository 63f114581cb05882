// A 4-ary min-heap of small plain entries beside a sorted run, the event queue's ordering
// structure. Issue #7 measured the heap as the largest cost per event; with integer keys a 4-ary
// heap halves the depth of a binary one and touches one cache line per level, so it beats
// swift-collections' min-max Heap (which this replaced) by about 2× here. The run (issue #19):
// an entry greater than every entry of the run is appended to it instead of sifted into the heap,
// and the smaller of the two fronts is the minimum. Events scheduled in the order they will fire
// (a recurring timer rescheduled one period on, a world `every`, a reply after a fixed latency)
// cost an append and an index; only out-of-order entries pay the heap's sifting. See
// docs/PERFORMANCE.md.

struct QuaternaryHeap<Element: Comparable> {
    private var items: [Element] = []
    /// Ascending; `run[runStart...]` are the pending ones.
    private var run: [Element] = []
    private var runStart = 0

    var isEmpty: Bool { items.isEmpty && runStart == run.count }
    var count: Int { items.count + run.count - runStart }
    var min: Element? {
        guard runStart < run.count else { return items.first }
        guard let top = items.first else { return run[runStart] }
        return top < run[runStart] ? top : run[runStart]
    }

    /// Becomes a copy of `other`, keeping this heap's storage (a warm run's restore).
    mutating func assign(_ other: QuaternaryHeap) {
        items.removeAll(keepingCapacity: true)
        items.append(contentsOf: other.items)
        run.removeAll(keepingCapacity: true)
        run.append(contentsOf: other.run)
        runStart = other.runStart
    }

    mutating func insert(_ e: Element) {
        if runStart == run.count {
            // The run is spent: start it again (its storage stays).
            if runStart > 0 { run.removeAll(keepingCapacity: true); runStart = 0 }
            run.append(e)
            return
        }
        if run[run.count - 1] < e { run.append(e); return }
        items.append(e)
        items.withUnsafeMutableBufferPointer { b in
            var i = b.count - 1
            while i > 0 {
                let parent = (i - 1) >> 2
                guard e < b[parent] else { break }
                b[i] = b[parent]
                i = parent
            }
            b[i] = e
        }
    }

    mutating func popMin() -> Element? {
        if runStart < run.count, items.isEmpty || run[runStart] < items[0] {
            let e = run[runStart]
            runStart += 1
            if runStart >= 4096, runStart * 2 >= run.count {
                run.removeSubrange(0..<runStart)  // amortised: the spent half goes
                runStart = 0
            }
            return e
        }
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items.withUnsafeMutableBufferPointer { b in
            let n = b.count
            var i = 0
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
                guard b[best] < last else { break }
                b[i] = b[best]
                i = best
            }
            b[i] = last
        }
        return top
    }

    /// Every entry, in no particular order.
    var unordered: [Element] { items + run[runStart...] }
}
