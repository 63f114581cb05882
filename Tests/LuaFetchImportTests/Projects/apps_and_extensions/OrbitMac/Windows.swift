// The Mac app's code.
let macWindows = "Windows"
