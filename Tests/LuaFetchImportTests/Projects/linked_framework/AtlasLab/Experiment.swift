// A framework the app does not link.
let experimentName = "lab"
