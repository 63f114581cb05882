import Foundation

final class EditorSession {
    static let shared = EditorSession()

    private let store = DocumentStore(directory: "Documents")
    private var isDirty = false
    private var openFiles: [String] = []

    func restore() {
        openFiles = UserDefaults.standard.stringArray(forKey: "openFiles") ?? []
        isDirty = UserDefaults.standard.bool(forKey: "dirty")
    }

    func saveDocument(completion: @escaping (Bool) -> Void) {
        guard isDirty || !openFiles.isEmpty else {
            completion(true)
            return
        }
        store.write(files: openFiles) { [weak self] error in
            if let error = error {
                print("save failed: \(error)")
                completion(false)
                return
            }
            self?.isDirty = false
            UserDefaults.standard.set(false, forKey: "dirty")
            completion(true)
        }
    }

    func closeTransientFiles() {
        openFiles.removeAll { $0.hasPrefix("tmp-") }
        UserDefaults.standard.set(openFiles, forKey: "openFiles")
    }
}
