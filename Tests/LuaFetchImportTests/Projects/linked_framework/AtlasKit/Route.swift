public struct Route {
    public var stops: [String]
}
