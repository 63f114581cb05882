// What the iOS SDK, Foundation and Combine declare for the calls apps make into them (SPEC 18.9.1):
// whether a result can be nil, whether the call throws, whether it suspends. A stub of one of these
// follows its declaration, whatever the code around it does with the result; a stub of a call
// found nowhere here follows 18.9.2 (nil only where the code itself proves an optional, an
// initializer never nil). One row per API, as Apple's documentation declares it
// (developer.apple.com/documentation, the SDK's Swift interface); the rows start with the calls the
// survey of real apps' background code met most (docs/IMPORT.md, "Stubs that tell the truth").
// Provides `Signatures.lookup`; used by the stub book (Stubs.swift).

struct Signature: Equatable {
    /// The result can be nil (`-> T?`, `init?`).
    let optional: Bool
    let throwing: Bool
    let async: Bool
    /// The result is a `Bool` (`bool = true`): a stub's is true, but false after 100 answers at one
    /// site at one virtual instant, so a loop or a recursion on `fileExists` ends (stubs.lua).
    var bool = false
}

enum Signatures {
    /// `Type.member(labels:)` (or `Type.member` for any labels) → its declaration, written as Swift
    /// writes it: `T?` an optional result, `T` a value, `Void`, with `throws` and `async` before it.
    static let rows: [(String, String)] = [
        // Initializers: never nil unless declared `init?`.
        ("URL.init(string:)", "URL?"), ("URL.init(string:relativeTo:)", "URL?"),
        ("URL.init(fileURLWithPath:)", "URL"), ("URL.init(fileURLWithPath:isDirectory:)", "URL"),
        ("URL.init(resolvingBookmarkData:options:relativeTo:bookmarkDataIsStale:)", "throws URL"),
        ("URLComponents.init(string:)", "URLComponents?"), ("URLComponents.init(url:resolvingAgainstBaseURL:)", "URLComponents?"),
        ("UUID.init(uuidString:)", "UUID?"), ("Data.init(base64Encoded:)", "Data?"), ("Data.init(base64Encoded:options:)", "Data?"),
        ("Data.init(contentsOf:)", "throws Data"), ("Data.init(contentsOf:options:)", "throws Data"),
        ("String.init(contentsOf:)", "throws String"), ("String.init(contentsOf:encoding:)", "throws String"),
        ("String.init(contentsOfFile:)", "throws String"), ("String.init(contentsOfFile:encoding:)", "throws String"),
        ("String.init(data:encoding:)", "String?"), ("String.init(bytes:encoding:)", "String?"),
        ("UserDefaults.init(suiteName:)", "UserDefaults?"),
        ("UIImage.init(named:)", "UIImage?"), ("UIImage.init(data:)", "UIImage?"), ("UIImage.init(contentsOfFile:)", "UIImage?"),
        ("UIImage.init(systemName:)", "UIImage?"),
        ("NSDictionary.init(contentsOf:)", "NSDictionary?"), ("NSDictionary.init(contentsOfFile:)", "NSDictionary?"),
        ("NSRegularExpression.init(pattern:)", "throws NSRegularExpression"),
        ("NSRegularExpression.init(pattern:options:)", "throws NSRegularExpression"),
        ("FileHandle.init(forReadingFrom:)", "throws FileHandle"), ("FileHandle.init(forWritingTo:)", "throws FileHandle"),
        ("FileHandle.init(forReadingAtPath:)", "FileHandle?"), ("FileHandle.init(forWritingAtPath:)", "FileHandle?"),
        ("UNNotificationAttachment.init(identifier:url:options:)", "throws UNNotificationAttachment"),
        ("NSManagedObjectModel.init(contentsOf:)", "NSManagedObjectModel?"),
        ("Decimal.init(string:)", "Decimal?"), ("NSNumber.init(value:)", "NSNumber"),
        ("Int.init(exactly:)", "Int?"), ("Double.init(exactly:)", "Double?"),
        ("TimeZone.init(identifier:)", "TimeZone?"), ("TimeZone.init(secondsFromGMT:)", "TimeZone?"),
        ("Locale.init(identifier:)", "Locale"), ("Calendar.init(identifier:)", "Calendar"),
        ("UIColor.init(named:)", "UIColor?"), ("UIStoryboard.init(name:bundle:)", "UIStoryboard"),
        ("UIWindow.init", "UIWindow"), ("UIWindow.init(frame:)", "UIWindow"), ("UIWindow.init(windowScene:)", "UIWindow"),
        ("AVAudioPlayer.init(contentsOf:)", "throws AVAudioPlayer"), ("AVAudioPlayer.init(data:)", "throws AVAudioPlayer"),
        ("SecAccessControlCreateWithFlags", "SecAccessControl?"),

        // Files.
        ("FileManager.containerURL(forSecurityApplicationGroupIdentifier:)", "URL?"),
        ("FileManager.urls(for:in:)", "[URL]"),
        ("FileManager.url(for:in:appropriateFor:create:)", "throws URL"),
        ("FileManager.contents(atPath:)", "Data?"),
        ("FileManager.fileExists(atPath:)", "Bool"), ("FileManager.fileExists(atPath:isDirectory:)", "Bool"),
        ("FileManager.createDirectory(at:withIntermediateDirectories:attributes:)", "throws Void"),
        ("FileManager.createDirectory(atPath:withIntermediateDirectories:attributes:)", "throws Void"),
        ("FileManager.createFile(atPath:contents:attributes:)", "Bool"),
        ("FileManager.removeItem(at:)", "throws Void"), ("FileManager.removeItem(atPath:)", "throws Void"),
        ("FileManager.moveItem(at:to:)", "throws Void"), ("FileManager.moveItem(atPath:toPath:)", "throws Void"),
        ("FileManager.copyItem(at:to:)", "throws Void"), ("FileManager.copyItem(atPath:toPath:)", "throws Void"),
        ("FileManager.replaceItemAt(_:withItemAt:backupItemName:options:)", "throws URL?"),
        ("FileManager.contentsOfDirectory(at:includingPropertiesForKeys:options:)", "throws [URL]"),
        ("FileManager.contentsOfDirectory(atPath:)", "throws [String]"),
        ("FileManager.attributesOfItem(atPath:)", "throws [FileAttributeKey: Any]"),
        ("FileManager.setAttributes(_:ofItemAtPath:)", "throws Void"),
        ("FileManager.enumerator(at:includingPropertiesForKeys:options:errorHandler:)", "FileManager.DirectoryEnumerator?"),
        ("FileManager.enumerator(atPath:)", "FileManager.DirectoryEnumerator?"),
        ("Data.write(to:)", "throws Void"), ("Data.write(to:options:)", "throws Void"),
        ("String.write(to:atomically:encoding:)", "throws Void"), ("String.write(toFile:atomically:encoding:)", "throws Void"),
        ("URL.resourceValues(forKeys:)", "throws URLResourceValues"), ("URL.checkResourceIsReachable", "throws Bool"),
        ("URL.bookmarkData(options:includingResourceValuesForKeys:relativeTo:)", "throws Data"),
        ("FileHandle.readToEnd", "throws Data?"), ("FileHandle.write(contentsOf:)", "throws Void"),
        ("FileHandle.close", "throws Void"), ("FileHandle.seekToEnd", "throws UInt64"),
        ("Bundle.url(forResource:withExtension:)", "URL?"), ("Bundle.url(forResource:withExtension:subdirectory:)", "URL?"),
        ("Bundle.path(forResource:ofType:)", "String?"), ("Bundle.object(forInfoDictionaryKey:)", "Any?"),
        ("Bundle.bundleIdentifier", "String?"), ("Bundle.infoDictionary", "[String: Any]?"),
        ("Bundle.init(identifier:)", "Bundle?"), ("Bundle.init(url:)", "Bundle?"), ("Bundle.init(path:)", "Bundle?"),

        // Coding.
        ("JSONDecoder.decode", "throws T"), ("JSONEncoder.encode", "throws Data"),
        ("PropertyListDecoder.decode", "throws T"), ("PropertyListEncoder.encode", "throws Data"),
        ("JSONSerialization.jsonObject(with:)", "throws Any"), ("JSONSerialization.jsonObject(with:options:)", "throws Any"),
        ("JSONSerialization.data(withJSONObject:)", "throws Data"), ("JSONSerialization.data(withJSONObject:options:)", "throws Data"),
        ("PropertyListSerialization.propertyList(from:options:format:)", "throws Any"),
        ("PropertyListSerialization.data(fromPropertyList:format:options:)", "throws Data"),
        ("NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding:)", "throws Data"),
        ("NSKeyedUnarchiver.unarchivedObject(ofClass:from:)", "throws T?"),
        ("NSKeyedUnarchiver.unarchiveTopLevelObjectWithData", "throws Any?"),
        ("KeyedDecodingContainer.decode", "throws T"), ("KeyedDecodingContainer.decodeIfPresent", "throws T?"),
        ("KeyedEncodingContainer.encode", "throws Void"), ("KeyedEncodingContainer.encodeIfPresent", "throws Void"),
        ("Decoder.container", "throws KeyedDecodingContainer"), ("Decoder.singleValueContainer", "throws SingleValueDecodingContainer"),
        ("Encoder.container", "KeyedEncodingContainer"),
        ("SingleValueDecodingContainer.decode", "throws T"), ("SingleValueEncodingContainer.encode", "throws Void"),
        ("Decoder.container.decode", "throws T"), ("Decoder.container.decodeIfPresent", "throws T?"),
        ("Encoder.container.encode", "throws Void"), ("Encoder.container.encodeIfPresent", "throws Void"),

        // Formatting and dates.
        ("DateFormatter.date(from:)", "Date?"), ("ISO8601DateFormatter.date(from:)", "Date?"),
        ("DateFormatter.string(from:)", "String"), ("ISO8601DateFormatter.string(from:)", "String"),
        ("NumberFormatter.number(from:)", "NSNumber?"), ("NumberFormatter.string(from:)", "String?"),
        ("ByteCountFormatter.string(fromByteCount:)", "String"),
        ("Calendar.date(byAdding:value:to:)", "Date?"), ("Calendar.date(byAdding:to:)", "Date?"),
        ("Calendar.date(from:)", "Date?"), ("Calendar.date(bySettingHour:minute:second:of:)", "Date?"),
        ("Calendar.dateComponents", "DateComponents"), ("Calendar.component", "Int"), ("Calendar.startOfDay(for:)", "Date"),
        ("Calendar.isDateInToday", "Bool"), ("Date.timeIntervalSince", "TimeInterval"),
        ("Date.addingTimeInterval", "Date"),

        // Defaults, keychain, the key-value store.
        ("UserDefaults.string(forKey:)", "String?"), ("UserDefaults.data(forKey:)", "Data?"),
        ("UserDefaults.object(forKey:)", "Any?"), ("UserDefaults.array(forKey:)", "[Any]?"),
        ("UserDefaults.dictionary(forKey:)", "[String: Any]?"), ("UserDefaults.url(forKey:)", "URL?"),
        ("UserDefaults.stringArray(forKey:)", "[String]?"), ("UserDefaults.value(forKey:)", "Any?"),
        ("UserDefaults.bool(forKey:)", "Bool"), ("UserDefaults.integer(forKey:)", "Int"),
        ("UserDefaults.double(forKey:)", "Double"), ("UserDefaults.float(forKey:)", "Float"),
        ("NSUbiquitousKeyValueStore.string(forKey:)", "String?"), ("NSUbiquitousKeyValueStore.object(forKey:)", "Any?"),
        ("NSUbiquitousKeyValueStore.data(forKey:)", "Data?"), ("NSUbiquitousKeyValueStore.synchronize", "Bool"),
        ("SecItemCopyMatching", "OSStatus"), ("SecItemAdd", "OSStatus"), ("SecItemUpdate", "OSStatus"), ("SecItemDelete", "OSStatus"),

        // Core Data.
        ("NSManagedObjectContext.fetch", "throws [T]"), ("NSManagedObjectContext.count(for:)", "throws Int"),
        ("NSManagedObjectContext.save", "throws Void"), ("NSManagedObjectContext.execute", "throws NSPersistentStoreResult"),
        ("NSManagedObjectContext.existingObject(with:)", "throws NSManagedObject"),
        ("NSManagedObjectContext.object(with:)", "NSManagedObject"),
        ("NSManagedObjectContext.obtainPermanentIDs(for:)", "throws Void"),
        ("NSPersistentStoreCoordinator.addPersistentStore(ofType:configurationName:at:options:)", "throws NSPersistentStore"),
        ("NSPersistentStoreCoordinator.destroyPersistentStore(at:ofType:options:)", "throws Void"),
        ("NSPersistentStoreCoordinator.persistentStore(for:)", "NSPersistentStore?"),
        ("NSEntityDescription.entity(forEntityName:in:)", "NSEntityDescription?"),
        ("NSEntityDescription.insertNewObject(forEntityName:into:)", "NSManagedObject"),
        ("NSFetchRequest.init(entityName:)", "NSFetchRequest"),

        // The application, windows and scenes.
        ("UIApplication.delegate", "UIApplicationDelegate?"), ("UIApplication.keyWindow", "UIWindow?"),
        ("UIApplication.open", "Void"), ("UIApplication.canOpenURL", "Bool"),
        ("UIApplication.connectedScenes", "Set<UIScene>"), ("UIApplication.windows", "[UIWindow]"),
        ("UIApplication.supportsMultipleScenes", "Bool"),
        ("UIWindow.rootViewController", "UIViewController?"), ("UIWindowScene.windows", "[UIWindow]"),
        ("UIScene.delegate", "UISceneDelegate?"), ("UIWindow.windowScene", "UIWindowScene?"),
        ("UIStoryboard.instantiateInitialViewController", "UIViewController?"),
        ("UIStoryboard.instantiateViewController(withIdentifier:)", "UIViewController"),
        ("UIViewController.presentedViewController", "UIViewController?"),
        ("UIViewController.navigationController", "UINavigationController?"),
        ("UINavigationController.topViewController", "UIViewController?"),
        ("UINavigationController.visibleViewController", "UIViewController?"),
        ("UIDevice.identifierForVendor", "UUID?"), ("UIDevice.name", "String"), ("UIDevice.systemVersion", "String"),
        ("UIPasteboard.string", "String?"), ("UIPasteboard.url", "URL?"),

        // Notifications and the network.
        ("UNUserNotificationCenter.add", "Void"), ("UNUserNotificationCenter.requestAuthorization(options:)", "async throws Bool"),
        ("UNUserNotificationCenter.notificationSettings", "async UNNotificationSettings"),
        ("UNUserNotificationCenter.pendingNotificationRequests", "async [UNNotificationRequest]"),
        ("UNUserNotificationCenter.deliveredNotifications", "async [UNNotification]"),
        ("Notification.object", "Any?"), ("Notification.userInfo", "[AnyHashable: Any]?"),
        ("NotificationCenter.addObserver(forName:object:queue:using:)", "NSObjectProtocol"),
        ("URLSession.data(for:)", "async throws (Data, URLResponse)"), ("URLSession.data(from:)", "async throws (Data, URLResponse)"),
        ("URLSession.download(for:)", "async throws (URL, URLResponse)"), ("URLSession.download(from:)", "async throws (URL, URLResponse)"),
        ("URLSession.upload(for:from:)", "async throws (Data, URLResponse)"), ("URLSession.upload(for:fromFile:)", "async throws (Data, URLResponse)"),
        ("URLSession.bytes(for:)", "async throws (AsyncBytes, URLResponse)"),
        ("URLSession.allTasks", "async [URLSessionTask]"),
        ("URLResponse.url", "URL?"), ("URLResponse.mimeType", "String?"), ("URLResponse.suggestedFilename", "String?"),
        ("HTTPURLResponse.statusCode", "Int"), ("HTTPURLResponse.allHeaderFields", "[AnyHashable: Any]"),
        ("HTTPURLResponse.value(forHTTPHeaderField:)", "String?"),
        ("URLRequest.url", "URL?"), ("URLRequest.httpBody", "Data?"), ("URLRequest.value(forHTTPHeaderField:)", "String?"),
        ("URLComponents.url", "URL?"), ("URLComponents.queryItems", "[URLQueryItem]?"), ("URLComponents.host", "String?"),
        ("URL.host", "String?"), ("URL.scheme", "String?"), ("URL.query", "String?"),
        ("URL.lastPathComponent", "String"), ("URL.path", "String"), ("URL.absoluteString", "String"),
        ("URL.appendingPathComponent", "URL"), ("URL.appending", "URL"), ("URL.deletingLastPathComponent", "URL"),

        // Concurrency.
        ("Task.sleep", "async throws Void"), ("Task.sleep(nanoseconds:)", "async throws Void"), ("Task.sleep(for:)", "async throws Void"),
        ("Task.checkCancellation", "throws Void"), ("Task.value", "async T"), ("Task.result", "async Result"),
        ("DispatchSemaphore.wait(timeout:)", "DispatchTimeoutResult"), ("DispatchGroup.wait(timeout:)", "DispatchTimeoutResult"),
        ("DispatchQueue.getSpecific(key:)", "T?"), ("OperationQueue.current", "OperationQueue?"),
        ("Thread.isMainThread", "Bool"),

        // Health, location, media: properties apps read in the background.
        ("CLLocationManager.location", "CLLocation?"), ("CLLocationManager.authorizationStatus", "CLAuthorizationStatus"),
        ("HKHealthStore.isHealthDataAvailable", "Bool"),
        // A HealthKit type by identifier is nil only for an identifier HealthKit does not define;
        // apps pass its own constants (Loop's `HKObjectType.categoryType(forIdentifier:
        // .insulinDelivery)!` was drawn nil under explore: a false crash at launch).
        ("HKObjectType.quantityType(forIdentifier:)", "HKQuantityType"), ("HKQuantityType.quantityType(forIdentifier:)", "HKQuantityType"),
        ("HKObjectType.categoryType(forIdentifier:)", "HKCategoryType"), ("HKCategoryType.categoryType(forIdentifier:)", "HKCategoryType"),
        ("HKObjectType.characteristicType(forIdentifier:)", "HKCharacteristicType"),
        ("HKObjectType.correlationType(forIdentifier:)", "HKCorrelationType"),
        ("HKHealthStore.authorizationStatus(for:)", "HKAuthorizationStatus"),
        ("AVAudioSession.setCategory", "throws Void"), ("AVAudioSession.setActive", "throws Void"),
        ("NSPersistentContainer.persistentStoreDescriptions", "[NSPersistentStoreDescription]"),
        // Arrays iOS never hands back empty, by their full stub name: a container made with a
        // name has its default store's description (NSPersistentContainer's documentation); an
        // app's own directory in the user domain is one URL (`urls(for: .documentDirectory, in:
        // .userDomainMask)`, the documented way to find it). Their `.first` is never nil.
        ("NSPersistentContainer.persistentStoreDescriptions.first", "NSPersistentStoreDescription"),
        ("FileManager.urls.first", "URL"), ("FileManager.urls.last", "URL"),
        // A nib the app loads holds its top-level objects (Interface Builder writes them; an empty
        // nib is a build mistake): duckduckgo's `nib.instantiate(withOwner:options:).first as? Self`.
        ("UINib.instantiate.first", "Any"), ("Bundle.loadNibNamed.first", "Any"),
        ("WCSession.isSupported", "Bool"), ("ProcessInfo.environment", "[String: String]"),
    ]

    private static let table: [String: Signature] = {
        var t: [String: Signature] = [:]
        for (key, decl) in rows {
            var words = decl.split(separator: " ", maxSplits: 2).map(String.init)
            var throwing = false, async = false
            while let w = words.first, w == "throws" || w == "async" {
                if w == "throws" { throwing = true } else { async = true }
                words.removeFirst()
            }
            let result = words.joined(separator: " ")
            t[key] = Signature(optional: result.hasSuffix("?"), throwing: throwing, async: async, bool: result == "Bool")
        }
        return t
    }()

    /// The signature of the stub `name` (as the stub book names it: `FileManager.default.removeItem`,
    /// `URL.init`) called with `labels`: the row for the type and the member with those labels,
    /// else the row for any labels. The receiver's middle parts (`.default`, `.shared`,
    /// `.standard`, `.main`, `.current`) are the type's singletons and are skipped.
    static func lookup(_ name: String, labels: [String]?) -> Signature? {
        if let exact = table[name] { return exact }
        let parts = name.split(separator: ".").map(String.init)
        guard parts.count >= 2, let type = parts.first, type.first?.isUppercase == true else {
            return parts.count == 1 ? table[name] : nil
        }
        let member = parts.count >= 3 && parts[parts.count - 2] == "container" ? "container." + parts.last! : parts.last!
        let key = type + "." + member
        if let labels, let s = table[key + "(" + labels.map { $0 + ":" }.joined() + ")"] { return s }
        return table[key]
    }
}
