-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- The key-value store answers within 10 s or reports a timeout.
  ["CloudKeyValueClient.push"] = { seconds = { 0.05, 10 } },
}
