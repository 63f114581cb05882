// The widget's own code: not the app's.
let widgetKind = "LanternWidget"
