import Foundation

enum FeedError: Error {
    case notModified
    case badResponse(Int)
    case transport(Error)
}

struct FeedItem: Equatable {
    let id: String
    let title: String
}

final class FeedStore {
    private var items: [FeedItem] = []
    private let session = URLSession.shared
    private let feedURL = URL(string: "https://feeds.podcast.example.org/subscriptions.json")!

    func refreshSubscriptions(completion: @escaping (Result<[FeedItem], FeedError>) -> Void) {
        let task = session.dataTask(with: feedURL) { [weak self] data, response, error in
            if let error = error {
                completion(.failure(.transport(error)))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(.badResponse(-1)))
                return
            }
            switch http.statusCode {
            case 304:
                completion(.failure(.notModified))
            case 200..<300:
                let fresh = FeedParser.parse(data ?? Data())
                let known = Set(self?.items.map { $0.id } ?? [])
                let added = fresh.filter { !known.contains($0.id) }
                self?.items.append(contentsOf: added)
                completion(.success(added))
            default:
                completion(.failure(.badResponse(http.statusCode)))
            }
        }
        task.resume()
    }
}
