-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- AppDelegate creates StepsAPI with a 20 s timeout (AppDelegate.swift:9).
  ["StepsAPI.upload"] = { seconds = { 0.05, 20 } },
  -- A local pedometer query (StepJournal.swift).
  ["PedometerReader.stepCount"] = { seconds = { 0.01, 2 } },
}
