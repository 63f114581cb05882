-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- RemoteStore's requests time out after 8 s (its URLSession configuration).
  ["RemoteStore.pendingChanges"] = { seconds = { 0.05, 8 } },
  ["RemoteStore.upload"] = { seconds = { 0.05, 8 } },
  ["RemoteStore.clearTombstones"] = { seconds = { 0.05, 8 } },
}
