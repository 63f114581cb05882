// Built for macOS only (a platform filter): never imported for iOS.
let macMenuTitle = "Quill for Mac"
