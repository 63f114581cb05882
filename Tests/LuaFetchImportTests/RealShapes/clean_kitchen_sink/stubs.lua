-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- PantryAPI uses a 20 s request timeout.
  ["PantryAPI.fetchChanges"] = { seconds = { 0.05, 20 } },
  ["PantryAPI.sendEdits"] = { seconds = { 0.05, 20 } },
}
