-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- The outbox uploader gives up after 20 s (its own timeout); it does not hide the bug.
  ["OutboxUploader.uploadPending"] = { seconds = { 0.05, 20 } },
}
