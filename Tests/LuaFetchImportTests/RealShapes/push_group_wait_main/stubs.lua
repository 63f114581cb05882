-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- PodcastLibrary creates FeedClient with a 10 s timeout (PodcastLibrary.swift:4).
  ["FeedClient.fetchNewEpisodes"] = { seconds = { 0.05, 10 } },
  ["FeedClient.fetchChapterMarks"] = { seconds = { 0.05, 10 } },
}
