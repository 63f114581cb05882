public final class Planner {
    public init() {}
    public func plan(to place: String) {
        let route = Route(stops: ["home", place])
        print("route with \(route.stops.count) stops")
    }
}
