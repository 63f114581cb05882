-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- Each article download has a 10 s timeout.
  ["NewsFeedClient.download"] = { seconds = { 0.05, 10 } },
}
