enum Launches {
    static var count = 0
}
