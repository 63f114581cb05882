import WatchKit

class ExtensionDelegate: NSObject, WKApplicationDelegate {
    func applicationDidFinishLaunching() {
        print("pace on the wrist")
    }
}
