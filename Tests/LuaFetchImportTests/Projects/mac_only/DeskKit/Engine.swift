let engineName = "desk"
