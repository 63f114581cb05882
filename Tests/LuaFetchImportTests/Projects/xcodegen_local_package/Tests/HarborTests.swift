// The test target's file.
let harborTestValue = 3
