-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- Both clients use URLSession's 20 s request timeout (BackupCoordinator.swift).
  ["ContactsSyncClient.pushPendingEdits"] = { seconds = { 0.05, 20 } },
  ["PhotoBackupClient.uploadNewAssets"] = { seconds = { 0.05, 20 } },
}
