import Foundation

struct Settings {
    static let currentVersion = 3

    static func migrateIfNeeded() {
        let defaults = UserDefaults.standard
        let stored = defaults.integer(forKey: "settingsVersion")
        guard stored < currentVersion else { return }
        for version in (stored + 1)...currentVersion {
            print("migrating settings to v\(version)")
        }
        defaults.set(currentVersion, forKey: "settingsVersion")
    }
}
