// The app's own global.
let requestTimeout = 10
