-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- A local save of the drafts document (DraftStore.swift): well under 20 s.
  ["DocumentContainer.saveChanges"] = { seconds = { 0.05, 20 } },
}
