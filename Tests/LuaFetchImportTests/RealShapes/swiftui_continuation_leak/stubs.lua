-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- ForecastRefresher creates its ForecastClient with a 15 s timeout (ForecastRefresher.swift:10).
  ["ForecastClient.fetchForecasts"] = { seconds = { 0.05, 15 } },
}
