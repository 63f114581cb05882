import Foundation

enum RefreshOutcome: String {
    case updated
    case unchanged
    case failed
}

/// Fetches the forecast for the saved city and tells whether it changed.
final class ForecastLoader {
    private let client = WeatherClient(host: "https://api.example-weather.com", timeout: 20)
    private let defaults = UserDefaults(suiteName: "group.com.example.weather")
    private var lastIssuedAt: Date?

    var city: String {
        return defaults?.string(forKey: "forecast.city") ?? "Lisbon"
    }

    func refresh(token: String, completion: @escaping (RefreshOutcome) -> Void) {
        client.forecast(for: city, token: token) { [weak self] forecast, error in
            guard let self = self else {
                completion(.failed)
                return
            }
            if let error = error {
                print("Forecast request failed: \(error)")
                completion(.failed)
                return
            }
            guard let forecast = forecast else {
                completion(.unchanged)
                return
            }
            let changed = forecast.issuedAt != self.lastIssuedAt
            self.lastIssuedAt = forecast.issuedAt
            self.defaults?.set(Date().timeIntervalSince1970, forKey: "forecast.lastFetch")
            completion(changed ? .updated : .unchanged)
        }
    }
}
