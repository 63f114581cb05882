-- SYMPTOM: about 100 s to the default instruction limit (SPEC 11: a run ends within 10 s): '..' of a float whose string exists already formats it (glibc's %.14g, 180-860 ns) and allocates nothing, so no charge reached it. CMD: time luafetch run Tests/luafetchCLITests/Robustness/slow_concat_found_floats.lua --quiet; echo $?   -> within 10 s, exit 2 with FILE:LINE
scenario { duration = days(30) }
every(0.001, function()
  for i = 1, 2000 do
    local s = "k" .. (i + 0.5)
  end
end)
