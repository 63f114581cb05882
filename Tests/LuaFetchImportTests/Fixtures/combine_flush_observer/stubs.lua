-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- The telemetry SDK gives up on a batch after 20 s (AnalyticsController.swift:15).
  ["TelemetryClient.send"] = { seconds = { 0.05, 20 } },
}
