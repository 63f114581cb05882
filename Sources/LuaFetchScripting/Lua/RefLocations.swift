// Where each value kept in the registry came from (`LuaState.makeRef`, `location(of:)`): the
// scenario line an error or a report names for a pending callback. A reference costs 4 bytes: the
// number of its location, each distinct (file, line) kept once and each file name once. A million
// pending `at()` closures written on one line keep 4 MB here (8 MB as packed locations, 40 MB and
// more as strings). A value type, so a warm run's save and restore copy it whole. Uses
// SourceLocation (LuaFetchCore).
import LuaFetchCore

struct RefLocations {
    /// By registry reference: 0 for nowhere, else one plus the index in `locations`.
    private var numbers: [UInt32] = []
    /// Distinct locations: the file's index in `files` plus one (high 32 bits), the line (low 32).
    private var locations: [UInt64] = []
    private var locationNumbers: [UInt64: UInt32] = [:]
    private var files: [String] = []
    private var fileNumbers: [String: Int] = [:]
    /// The location recorded last and its number: a loop making references on one line looks
    /// nothing up.
    private var last: (packed: UInt64, number: UInt32) = (0, 0)

    /// Records where the value under registry reference `ref` came from.
    mutating func record(_ ref: Int32, _ location: (file: String, line: Int)?) {
        guard ref >= 0 else { return }
        let i = Int(ref)
        if numbers.count <= i { numbers.append(contentsOf: repeatElement(0, count: i + 1 - numbers.count)) }
        guard let location else { numbers[i] = 0; return }
        let packed = UInt64(fileNumber(location.file) + 1) << 32 | UInt64(UInt32(clamping: location.line))
        if packed != last.packed {
            if let n = locationNumbers[packed] {
                last = (packed, n)
            } else {
                locations.append(packed)
                last = (packed, UInt32(locations.count))
                locationNumbers[packed] = last.number
            }
        }
        numbers[i] = last.number
    }

    /// Where the value under `ref` came from, if it was recorded.
    func location(of ref: Int) -> SourceLocation? {
        guard ref >= 0, ref < numbers.count, case let n = numbers[ref], n != 0 else { return nil }
        let packed = locations[Int(n) - 1]
        return SourceLocation(file: files[Int(packed >> 32) - 1], line: Int(packed & 0xFFFF_FFFF))
    }

    /// The number of a file name in `files` (added when new).
    private mutating func fileNumber(_ file: String) -> Int {
        if let lastFile = files.last, lastFile == file { return files.count - 1 }
        if let n = fileNumbers[file] { return n }
        files.append(file)
        fileNumbers[file] = files.count - 1
        return files.count - 1
    }
}
