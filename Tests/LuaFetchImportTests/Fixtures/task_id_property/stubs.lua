-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- PhotoOutbox creates its PhotoSyncClient with a 25 s timeout (PhotoOutbox.swift:9).
  ["PhotoSyncClient.uploadPhotos"] = { seconds = { 0.5, 25 } },
}
