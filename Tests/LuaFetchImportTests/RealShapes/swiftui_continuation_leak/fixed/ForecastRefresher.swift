import Foundation

struct Forecast {
    let city: String
    let high: Double
    let low: Double
}

/// Resumes a continuation once, whichever of the callback and the cancellation comes first.
final class ResumeOnce {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    func set(_ c: CheckedContinuation<Bool, Never>) {
        lock.lock(); defer { lock.unlock() }
        continuation = c
    }

    func resume(_ value: Bool) {
        lock.lock()
        let c = continuation
        continuation = nil
        lock.unlock()
        c?.resume(returning: value)
    }
}

final class ForecastRefresher {
    private let client = ForecastClient(timeout: 15)

    /// Bridges the callback API to async/await.
    func refresh() async -> Bool {
        let once = ResumeOnce()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.set(continuation)
                client.fetchForecasts(cities: ["Lisbon", "Porto"]) { (result: Result<[Forecast], Error>) in
                    switch result {
                    case .success(let forecasts):
                        ForecastCache.save(forecasts)
                        once.resume(true)
                    case .failure(let error):
                        print("forecast failed: \(error)")
                        once.resume(false)
                    }
                }
            }
        } onCancel: {
            // The background task expired: give up on the forecast.
            once.resume(false)
        }
    }
}
