// The helper app's code.
let helperDiagnostics = "Diagnostics"
