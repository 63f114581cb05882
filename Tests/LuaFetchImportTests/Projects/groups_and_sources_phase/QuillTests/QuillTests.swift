// The test target's file: never imported.
let quillTestValue = 2
