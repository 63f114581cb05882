public struct Berth {
    public var number: Int
}
