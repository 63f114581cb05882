-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- MailboxSync creates its IMAPClient with an 8 s timeout (MailboxSync.swift:4).
  ["IMAPClient.fetchNewMessages"] = { seconds = { 0.05, 8 } },
}
