final class NoteStore {
    static let shared = NoteStore()
    var notes: [String] = []

    func load() {
        notes = ["first", "second"]
        print("loaded \(notes.count) notes, \(Formatting.title(for: notes.count))")
    }
}
