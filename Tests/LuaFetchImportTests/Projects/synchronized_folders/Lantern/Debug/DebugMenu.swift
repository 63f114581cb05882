// Excluded from the app by its membership exceptions.
let debugMenuTitle = "Debug"
