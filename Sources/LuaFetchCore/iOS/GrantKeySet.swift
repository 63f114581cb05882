// The set of grants that ended (GrantBook's `completed`, for "completed a second time"), kept in
// constant memory for a long run: per kind, every serial from 1 up to a mark is in, and only the
// serials beyond the mark are kept one by one. Grants end mostly in the order they began, so the
// mark follows them (issue 29: a set of every key grew by about 30 bytes per grant, which no
// limit counted; a month of background fetches kept hundreds of megabytes). Uses GrantKey.

struct GrantKeySet: Sendable {
    /// Per kind: serials 1...mark are all in.
    private var marks: [GrantKind: Int] = [:]
    /// Serials beyond their kind's mark.
    private var beyond: Set<GrantKey> = []

    func contains(_ key: GrantKey) -> Bool {
        (key.serial >= 1 && key.serial <= marks[key.kind, default: 0]) || beyond.contains(key)
    }

    mutating func insert(_ key: GrantKey) {
        var mark = marks[key.kind, default: 0]
        guard key.serial > mark else { return }
        guard key.serial == mark + 1 else { beyond.insert(key); return }
        mark += 1
        while !beyond.isEmpty, beyond.remove(GrantKey(kind: key.kind, serial: mark + 1)) != nil { mark += 1 }
        marks[key.kind] = mark
    }
}
