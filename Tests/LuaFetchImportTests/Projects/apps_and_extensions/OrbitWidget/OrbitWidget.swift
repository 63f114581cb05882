// The widget's code.
let orbitWidgetKind = "OrbitWidget"
