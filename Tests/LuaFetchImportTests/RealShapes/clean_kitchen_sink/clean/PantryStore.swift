import Foundation

final class PantryStore: Syncing {
    enum PersistReason: String {
        case resignActive, terminate
    }

    struct Item: Equatable {
        var name: String
        var quantity: Int
        var isLow: Bool { quantity < 2 }
    }

    static let shared = PantryStore()

    private let defaults = UserDefaults(suiteName: "group.com.example.pantry") ?? .standard
    private let api = PantryAPI()
    private var handlers: [String: (Int) -> Void] = [:]
    private(set) var items: [Item] = [Item(name: "rice", quantity: 3), Item(name: "oil", quantity: 1)] {
        didSet { defaults.set(items.count, forKey: "itemCount") }
    }

    func persist(reason: PersistReason) {
        let low = items.filter { $0.isLow }.map(\.name).sorted()
        defaults.set(low, forKey: "lowItems")
        defaults.set(reason.rawValue, forKey: "lastPersistReason")
    }

    func pull(completion: @escaping (Result<Int, Error>) -> Void) {
        handlers["pull"] = { n in completion(.success(n)) }
        api.fetchChanges { [weak self] changes, error in
            if let error = error {
                completion(.failure(error))
                return
            }
            self?.items.append(Item(name: "new", quantity: changes?.count ?? 0))
            self?.handlers.removeValue(forKey: "pull")?(self?.items.count ?? 0)
        }
    }

    func flushPendingEdits(progress: @escaping (Double) -> Void, completion: @escaping () -> Void) {
        var sent = 0
        let total = items.count
        for item in items where item.quantity > 0 {
            sent += 1
            progress(Double(sent) / Double(max(total, 1)))
            print("queued \(item.name)")
        }
        api.sendEdits(count: sent) { _ in
            completion()
        }
    }
}
