public struct Ink {
    public var color = "black"
}
