import Foundation

struct Forecast {
    let city: String
    let high: Double
    let low: Double
}

final class ForecastRefresher {
    private let client = ForecastClient(timeout: 15)

    /// Bridges the callback API to async/await.
    func refresh() async -> Bool {
        await withCheckedContinuation { continuation in
            client.fetchForecasts(cities: ["Lisbon", "Porto"]) { (result: Result<[Forecast], Error>) in
                switch result {
                case .success(let forecasts):
                    ForecastCache.save(forecasts)
                    continuation.resume(returning: true)
                case .failure(let error):
                    print("forecast failed: \(error)")
                }
            }
        }
    }
}
