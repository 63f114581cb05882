enum Formatting {
    static func title(for count: Int) -> String {
        count == 1 ? "one note" : "\(count) notes"
    }
}
