// The share extension the app embeds: not the app's code.
let shareTitle = "Share"
