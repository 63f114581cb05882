-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- ForecastLoader creates WeatherClient with a 20 s timeout (ForecastLoader.swift:11).
  ["WeatherClient.forecast"] = { seconds = { 0.05, 20 } },
}
