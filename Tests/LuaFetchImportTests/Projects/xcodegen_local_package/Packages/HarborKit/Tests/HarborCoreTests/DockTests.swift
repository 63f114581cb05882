// A package test: never imported.
let dockTestValue = 4
