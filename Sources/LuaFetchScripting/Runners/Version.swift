// The version luafetch reports (`--version`, the scenario headers `luafetch import` writes), one
// constant for both executables (luafetch and luafetch-import).

public let luafetchVersion = "0.1.0"
