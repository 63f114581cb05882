-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- DraftUploader creates NotesAPI with a 20 s timeout (DraftUploader.swift:27).
  ["NotesAPI.upload"] = { seconds = { 0.05, 20 } },
}
