//
//  AppDelegate.swift
//  Logbook
//

import UIKit

let kLastBackgroundSave = "LastBackgroundSave"
var gLaunchCount = 0

@UIApplicationMain
class AppDelegate: UIResponder, UIApplicationDelegate {

    var window: UIWindow?
    var bgTask: UIBackgroundTaskIdentifier = UIBackgroundTaskInvalid
    var logbook: Logbook!

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplicationLaunchOptionsKey: Any]?) -> Bool {
        gLaunchCount += 1
        logbook = Logbook(path: NSHomeDirectory() + "/Documents/logbook.plist")
        NotificationCenter.default.addObserver(self, selector: #selector(AppDelegate.didReceiveMemoryWarning(_:)), name: NSNotification.Name.UIApplicationDidReceiveMemoryWarning, object: nil)
        NotificationCenter.default.addObserver(forName: NSNotification.Name.UIApplicationWillResignActive, object: nil, queue: OperationQueue.main) { [weak self] _ in
            self?.logbook.markDirty()
        }
        return true
    }

    @objc func didReceiveMemoryWarning(_ note: NSNotification) {
        logbook.dropCaches()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        if bgTask != UIBackgroundTaskInvalid {
            application.endBackgroundTask(bgTask)
            bgTask = UIBackgroundTaskInvalid
        }
        bgTask = application.beginBackgroundTask(expirationHandler: { () -> Void in
            application.endBackgroundTask(self.bgTask)
            self.bgTask = UIBackgroundTaskInvalid
        })

        DispatchQueue.global(qos: .default).async(execute: { () -> Void in
            self.logbook.save()
            UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: kLastBackgroundSave)
            UserDefaults.standard.synchronize()
            DispatchQueue.main.async(execute: { () -> Void in
                if self.bgTask != UIBackgroundTaskInvalid {
                    application.endBackgroundTask(self.bgTask)
                    self.bgTask = UIBackgroundTaskInvalid
                }
            })
        })
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        let last = UserDefaults.standard.double(forKey: kLastBackgroundSave)
        if last > 0 {
            NSLog("last background save %.0f s ago, launch #%d", Date().timeIntervalSince1970 - last, gLaunchCount)
        }
    }
}
