import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?
    var uploadTask: UIBackgroundTaskIdentifier = .invalid

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        openJournal()
        return true
    }

    /// Opens the journal's storage; the app cannot work without it.
    func openJournal() {
        do {
            let folder = try JournalFiles.containerFolder()
            try JournalFiles.createIfNeeded(folder)
            let database = try JournalDatabase.open(folder)
            try database.migrate()
            try database.attachMedia()
            try database.vacuumIfNeeded()
            Journal.shared.database = database
        } catch {
            fatalError("Could not open the journal: \(error)")
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        uploadTask = application.beginBackgroundTask(withName: "outbox") {
            print("The outbox upload ran out of time")
        }
        OutboxUploader.shared.uploadPending { sent in
            print("Sent \(sent) entries")
        }
    }
}
