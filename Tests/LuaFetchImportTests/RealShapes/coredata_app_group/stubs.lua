-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- Core Data's performBackgroundTask runs its block on a private queue with the SQLite store in
  -- the app-group container open (the importer marks it lock = "sharedContainer"); a day's
  -- streaks are recalculated and saved in well under 5 s.
  ["NSPersistentContainer.performBackgroundTask"] = { lock = "sharedContainer", seconds = { 0.05, 5 } },
}
