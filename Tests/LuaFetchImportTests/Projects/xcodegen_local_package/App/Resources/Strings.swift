// In a folder built as resources: not compiled.
let resourceNote = "resources"
