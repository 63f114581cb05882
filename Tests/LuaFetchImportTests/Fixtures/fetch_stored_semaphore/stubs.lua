-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- MailClient's requests time out after 15 s (its own configuration); it does not hide the bug.
  ["MailClient.fetchNewMessages"] = { seconds = { 0.05, 15 } },
}
