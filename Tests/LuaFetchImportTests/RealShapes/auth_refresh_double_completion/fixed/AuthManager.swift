import Foundation

enum AuthError: Error, Equatable {
    case signedOut
    case network
    case expired(at: Date)
}

final class AuthManager {
    static let shared = AuthManager()

    private let keychain = KeychainStore(service: "com.example.wallet")
    private let tokenClient = TokenClient()
    private var cachedToken: String?
    private var expiry: Date = .distantPast

    var isTokenFresh: Bool {
        cachedToken != nil && expiry.timeIntervalSinceNow > 60
    }

    func withValidToken(_ completion: @escaping (Result<String, AuthError>) -> Void) {
        if isTokenFresh, let token = cachedToken {
            completion(.success(token))
            return
        }
        guard let refreshToken = keychain.string(forKey: "refreshToken") else {
            completion(.failure(.signedOut))
            return
        }
        tokenClient.refresh(using: refreshToken) { [weak self] newToken, lifetime, error in
            if let newToken = newToken {
                self?.cachedToken = newToken
                self?.expiry = Date().addingTimeInterval(lifetime)
                completion(.success(newToken))
                return
            }
            if error != nil {
                self?.cachedToken = nil
            }
            completion(.failure(.network))
        }
    }
}
