-- User choices for the imported scenario (SPEC 18.4): append after the generated stubs{}.
stubs{
  -- StepsService and GoalStore's client use a 15 s request timeout.
  ["StepsService.upload"] = { seconds = { 0.05, 15 } },
  ["GoalStore.reloadGoals"] = { seconds = { 0.05, 15 } },
}
