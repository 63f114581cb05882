enum Rides {
    static var planned: [String] = []
}
