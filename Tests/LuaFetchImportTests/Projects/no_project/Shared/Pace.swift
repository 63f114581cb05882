enum Pace {
    static var current = 5
}
