-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- A local SQLite write.
  ["EntryStore.saveDraft"] = { seconds = { 0.01, 2 } },
  -- Journal creates EntrySyncClient with a 15 s timeout (Journal.swift:5).
  ["EntrySyncClient.uploadChanges"] = { seconds = { 0.05, 15 } },
}
