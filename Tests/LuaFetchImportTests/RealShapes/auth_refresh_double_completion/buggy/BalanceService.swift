import Foundation

struct BalanceService {
    let token: String
    var client: WalletClient { WalletClient(token: token) }

    func refresh(completion: @escaping (Bool) -> Void) {
        let previous = UserDefaults.standard.double(forKey: "balance")
        client.fetchBalance { balance in
            guard let balance = balance else {
                completion(false)
                return
            }
            UserDefaults.standard.set(balance, forKey: "balance")
            completion(balance != previous)
        }
    }
}
