// The helper app's code.
let helperLogs = "Logs"
