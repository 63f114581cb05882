// The watch app's code.
let watchComplications = "Complications"
