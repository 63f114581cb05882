import HarborModels

public struct Dock {
    public init() {}
    public func sync() {
        let berth = Berth(number: 4)
        print("synced berth \(berth.number)")
    }
}
