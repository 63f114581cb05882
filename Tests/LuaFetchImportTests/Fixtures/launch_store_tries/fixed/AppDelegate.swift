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

    /// Opens the journal's storage; when it cannot, the app keeps going on a scratch store and
    /// says so, instead of crashing at every launch.
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
            print("Could not open the journal, using a scratch store: \(error)")
            Journal.shared.useScratchStore()
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard uploadTask == .invalid else { return }
        uploadTask = application.beginBackgroundTask(withName: "outbox") {
            print("The outbox upload ran out of time")
            self.endUploadTask()
        }
        OutboxUploader.shared.uploadPending { sent in
            print("Sent \(sent) entries")
            self.endUploadTask()
        }
    }

    func endUploadTask() {
        guard uploadTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(uploadTask)
        uploadTask = .invalid
    }
}
