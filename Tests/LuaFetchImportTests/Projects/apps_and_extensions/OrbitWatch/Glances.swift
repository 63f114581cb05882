// The watch app's code.
let watchGlances = "Glances"
