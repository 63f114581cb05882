-- bench/plain.lua: what a user would hand-roll in plain Lua 5.4: the same workload as
-- throughput.lua and chost.c (CALLBACKS periodic callbacks every 1,000 ms, EVENTS events) on a
-- binary heap written in Lua. Usage: lua5.4 plain.lua CALLBACKS EVENTS. Prints "<events> <seconds>".
local callbacks, events = tonumber(arg[1] or 1000), tonumber(arg[2] or 1000000)
local start = os.clock()
local times, seqs, cbs, n = {}, {}, {}, 0
local function before(i, j) return times[i] < times[j] or (times[i] == times[j] and seqs[i] < seqs[j]) end
local function swap(i, j)
  times[i], times[j] = times[j], times[i]; seqs[i], seqs[j] = seqs[j], seqs[i]; cbs[i], cbs[j] = cbs[j], cbs[i]
end
local function push(t, s, cb)
  n = n + 1; times[n], seqs[n], cbs[n] = t, s, cb
  local i = n
  while i > 1 do
    local p = i // 2
    if not before(i, p) then break end
    swap(i, p); i = p
  end
end
local function pop()
  local t, s, cb = times[1], seqs[1], cbs[1]
  times[1], seqs[1], cbs[1] = times[n], seqs[n], cbs[n]
  times[n], seqs[n], cbs[n] = nil, nil, nil
  n = n - 1
  local i = 1
  while true do
    local c = 2 * i
    if c > n then break end
    if c + 1 <= n and before(c + 1, c) then c = c + 1 end
    if not before(c, i) then break end
    swap(c, i); i = c
  end
  return t, s, cb
end
local calls = 0
local fns = {}
for i = 1, callbacks do fns[i] = function() calls = calls + 1 end end
local seq = 0
for i = 1, callbacks do seq = seq + 1; push(1000, seq, i) end
for _ = 1, events do
  local t, _, cb = pop()
  fns[cb]()
  seq = seq + 1
  push(t + 1000, seq, cb)
end
print(string.format("%d %.6f", events, os.clock() - start))
