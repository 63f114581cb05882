import Foundation
import GRDB

struct JournalEntry: Codable, FetchableRecord, PersistableRecord {
    var id: String
    var text: String
    var createdAt: TimeInterval
}

/// Entries written while offline, waiting for the next database write.
final class DraftInbox {
    static let shared = DraftInbox()
    private var entries: [JournalEntry] = []

    func add(_ text: String) {
        let now = Date().timeIntervalSince1970
        entries.append(JournalEntry(id: "draft-\(now)", text: text, createdAt: now))
    }

    func takeAll() -> [JournalEntry] {
        let taken = entries
        entries.removeAll()
        return taken
    }
}

/// The journal's SQLite database. It lives in the app-group container so the widget can read it.
final class JournalDatabase {
    static let shared = JournalDatabase()
    static let appGroup = "group.com.example.journal"

    private var dbQueue: DatabaseQueue?
    private let writeQueue = DispatchQueue(label: "com.example.journal.db-writes")

    private init() {}

    func open() {
        let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: JournalDatabase.appGroup)!
        let path = container.appendingPathComponent("journal.sqlite").path
        do {
            dbQueue = try DatabaseQueue(path: path)
            print("Journal database open")
        } catch {
            print("Could not open the journal database: \(error)")
        }
    }

    /// Stores the drafts and the session's length; `completion` runs on the main queue.
    func saveSession(duration: TimeInterval, drafts: [JournalEntry], completion: @escaping (Error?) -> Void) {
        writeQueue.async {
            do {
                try self.dbQueue?.write { db in
                    for entry in drafts {
                        try entry.insert(db)
                    }
                    try db.execute(sql: "UPDATE stats SET lastSessionSeconds = ?", arguments: [duration])
                }
                DispatchQueue.main.async { completion(nil) }
            } catch {
                DispatchQueue.main.async { completion(error) }
            }
        }
    }

    /// Aborts the statement running now, if any (SQLite then releases its file lock).
    func interruptWrites() {
        dbQueue?.interrupt()
    }
}
