import Foundation

final class ChatStore {
    static let shared = ChatStore()
    private let api = ChatAPI(endpoint: "https://chat.example.io/v2")
    private var lastSeen: Int {
        get { UserDefaults.standard.integer(forKey: "lastSeenMessage") }
        set { UserDefaults.standard.set(newValue, forKey: "lastSeenMessage") }
    }

    func fetchMissedMessages(completion: @escaping (Int) -> Void) {
        api.messages(after: lastSeen) { [weak self] result in
            switch result {
            case .success(let messages):
                if let last = messages.last?.id { self?.lastSeen = last }
                completion(messages.count)
            case .failure:
                completion(0)
            }
        }
    }
}
