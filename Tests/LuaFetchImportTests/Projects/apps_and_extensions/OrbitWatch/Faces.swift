// The watch app's code.
let watchFaces = "Faces"
