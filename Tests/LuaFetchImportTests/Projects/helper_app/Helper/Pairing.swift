// The helper app's code.
let helperPairing = "Pairing"
