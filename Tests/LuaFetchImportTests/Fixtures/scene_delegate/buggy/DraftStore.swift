import Foundation

/// The user's unsent drafts, autosaved while the editor is on screen.
final class DraftStore: NSObject {
    static let shared = DraftStore()

    private let titlesKey = "drafts.titles"
    private let container = DocumentContainer(name: "Drafts")
    private var autosaveTimer: Timer?
    private(set) var drafts: [String] = []

    func loadDrafts() {
        drafts = UserDefaults.standard.stringArray(forKey: titlesKey) ?? []
    }

    func add(title: String) {
        drafts.append(title)
    }

    func startAutosave() {
        autosaveTimer?.invalidate()
        autosaveTimer = Timer.scheduledTimer(timeInterval: 30, target: self,
                                             selector: #selector(autosave), userInfo: nil, repeats: true)
    }

    func stopAutosave() {
        autosaveTimer?.invalidate()
        autosaveTimer = nil
    }

    /// Writes the drafts to the document container; `completion` gets the container's error, if any.
    func save(completion: @escaping (Error?) -> Void) {
        UserDefaults.standard.set(drafts, forKey: titlesKey)
        container.saveChanges { error in
            completion(error)
        }
    }

    @objc private func autosave() {
        save { error in
            if let error = error {
                print("Autosave failed: \(error)")
            }
        }
    }
}
