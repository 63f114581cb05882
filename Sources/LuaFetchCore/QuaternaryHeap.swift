// A 4-ary min-heap of small plain entries, the event queue's ordering structure. Issue #7 measured
// the heap as the largest cost per event; with integer keys a 4-ary heap halves the depth of a
// binary one and touches one cache line per level, so it beats swift-collections' min-max Heap
// (which this replaced) by about 2× here. See docs/PERFORMANCE.md.

struct QuaternaryHeap<Element: Comparable> {
    private(set) var items: [Element] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var min: Element? { items.first }

    /// Becomes a copy of `other`, keeping this heap's storage (a warm run's restore).
    mutating func assign(_ other: QuaternaryHeap) {
        items.removeAll(keepingCapacity: true)
        items.append(contentsOf: other.items)
    }

    mutating func insert(_ e: Element) {
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
    var unordered: [Element] { items }
}
