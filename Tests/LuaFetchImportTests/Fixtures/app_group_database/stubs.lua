-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- GRDB's DatabaseQueue.write runs synchronously on the calling queue and keeps the SQLite
  -- file in the app-group container open (and locked) while it runs (JournalDatabase.swift:52).
  -- A handful of rows: well under 5 s.
  ["DatabaseQueue.write"] = { lock = "sharedContainer", blocking = true, seconds = { 0.01, 5 } },
}
