import UIKit
import CoreData

@main
class AppDelegate: UIResponder, UIApplicationDelegate {

    lazy var persistentContainer: NSPersistentContainer = {
        let container = NSPersistentContainer(name: "Habits")
        if let groupURL = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.habits") {
            let description = NSPersistentStoreDescription(url: groupURL.appendingPathComponent("Habits.sqlite"))
            container.persistentStoreDescriptions = [description]
        }
        container.loadPersistentStores { _, error in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        }
        return container
    }()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        _ = persistentContainer
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // The widget reads today's streaks from the shared store. Keep the app running until the
        // save has released the database file (0xdead10cc otherwise).
        var taskID: UIBackgroundTaskIdentifier = .invalid
        taskID = application.beginBackgroundTask(withName: "SaveStreaks") {
            application.endBackgroundTask(taskID)
            taskID = .invalid
        }
        persistentContainer.performBackgroundTask { context in
            StreakCalculator.recalculate(in: context)
            do {
                try context.save()
            } catch {
                print("could not save streaks: \(error)")
            }
            DispatchQueue.main.async {
                if taskID != .invalid {
                    application.endBackgroundTask(taskID)
                    taskID = .invalid
                }
            }
        }
    }

    func applicationWillTerminate(_ application: UIApplication) {
        let context = persistentContainer.viewContext
        if context.hasChanges {
            try? context.save()
        }
    }
}
