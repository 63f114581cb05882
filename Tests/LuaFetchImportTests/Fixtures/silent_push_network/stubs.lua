-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- InboxSyncService creates MailAPIClient with a 20 s timeout (InboxSyncService.swift:13).
  ["MailAPIClient.fetchChanges"] = { seconds = { 0.05, 20 } },
}
