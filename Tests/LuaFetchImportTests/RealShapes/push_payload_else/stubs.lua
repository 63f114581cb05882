-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- ChatAPI's requests time out after 20 s (its default configuration).
  ["ChatAPI.messages"] = { seconds = { 0.05, 20 } },
}
