// The helper app's code.
let helperUpload = "Upload"
