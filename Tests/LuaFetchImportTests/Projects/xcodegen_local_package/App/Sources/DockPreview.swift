// Excluded by the spec's excludes glob.
let dockPreviewName = "preview"
