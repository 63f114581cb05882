import Foundation

final class SessionController {
    private let presence = PresenceClient()
    private(set) var sessionID: String?

    func start() {
        sessionID = UUID().uuidString
        presence.announce(online: true, session: sessionID ?? "")
    }

    /// Tells the server that this device went offline before the process goes away.
    func endSessionSynchronously() {
        guard let id = sessionID else { return }
        let done = DispatchSemaphore(value: 0)
        presence.announceOffline(session: id) { _ in
            done.signal()
        }
        done.wait()
        sessionID = nil
    }
}
