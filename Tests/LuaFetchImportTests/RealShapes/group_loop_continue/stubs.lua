-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- UploadClient puts each file with a 20 s request timeout (AttachmentSync.swift:39).
  ["UploadClient.put"] = { seconds = { 0.05, 20 } },
}
