-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- Both clients use URLSession's default configuration with a 10 s request timeout.
  ["TokenClient.refresh"] = { seconds = { 0.05, 10 } },
  ["WalletClient.fetchBalance"] = { seconds = { 0.05, 10 } },
}
