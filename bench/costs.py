"""What a unit of the run's instruction limit costs (issue 40), used by bench.py and on its own.

SPEC 11 bounds a run by counts (10^9 units, 10^7 events), and promises that reaching them takes at
most 10 s: so no kind of work may cost much more time per unit than a plain VM instruction does.
Each shape below loops on one kind of work (a VM loop, C library calls, allocation and garbage
collection, each luafetch function) until the run's instruction limit stops it; the CPU time it took,
divided by the limit, is that work's time per unit, and the slowest shape is the run's worst case
(the `costs` rows of docs/PERFORMANCE.md). With --callgrind the same shapes are counted in machine
instructions per unit (exact and load-free: the difference between two limits, so start-up drops
out). The charges of CLuaHost (host.c, libs.c) and HostCosts.swift were set from these figures.

    python3 bench/costs.py [LUAFETCH] [--only KEY,...] [--callgrind] [--limit N]
"""
import os, resource, shutil, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A world `every` running BODY; PRE at the top level. Each event does about 10^4 to 10^5 units,
# so the event limit is far away and the handler's budget (10^8) too.
def world(body, pre=""):
    return f"scenario {{ duration = days(30) }}\n{pre}\nlocal k = 0\nevery(0.001, function()\n  k = k + 1\n{body}\nend)\n"

# The same inside an app timer (app code: the app's API is there), the app in the foreground.
def in_app(body, pre="", modes=""):
    return (f"scenario {{ duration = days(30) }}\n{pre}\nlocal k = 0\n"
            f"app {{ {modes}didFinishLaunching = function(app)\n  timer.every(0.001, function()\n    k = k + 1\n{body}\n  end)\n"
            f"  return true end }}\nat(0, user.launch)\n")

SERVER = 'local api = server "api.test" { latency = 0.001 }\napi:route("GET /f", { status = 200, body = "x" })\n'

# (key, what it does, scenario text[, {"args": command-line options (default --quiet), "base": units
# the top level spends first, "gap": a known gap, reported but not the worst case}])
SHAPES = [
    # The VM and Lua's own functions.
    ("vm", "VM: an arithmetic loop", world("  local x = 0 for i = 1, 10000 do x = x + i * 2 end")),
    ("ccall", "C functions: math.abs, type, select, rawget", world(
        "  local abs, type, select, rawget, t = math.abs, type, select, rawget, {1}\n"
        "  for i = 1, 2000 do local a, b, c, d = abs(i), type(i), select('#', i), rawget(t, 1) end")),
    ("stringfns", "short string functions: sub, upper, len, byte, char", world(
        "  local s = 'hello world'\n  for i = 1, 2000 do local a, b, c, d, e = s:sub(2, 5), s:upper(), #s, s:byte(1), string.char(65) end")),
    ("tostring-new", "tostring of new numbers (a new string each)", world(
        "  local tostring = tostring\n  for i = 1, 2000 do local s = tostring(k * 2000 + i) end")),
    ("tostring-same", "tostring of the same float (no new string)", world(
        "  local tostring = tostring\n  for i = 1, 2000 do local s = tostring(1.5) end")),
    ("concat-new", "'..' with new numbers", world("  for i = 1, 2000 do local s = 'k' .. (k * 2000 + i) .. 'x' end")),
    ("concat-float", "'..' with new floats", world("  for i = 1, 2000 do local s = 'k' .. (k * 2000 + i + 0.5) end")),
    ("concat-found", "'..' making strings that exist (formatting.c charges the formatting)", world(
        "  for i = 1, 2000 do local s = 'k' .. (i + 0.5) end")),
    ("concat-found-big", "'..' of floats with 12 integer digits, strings that exist", world(
        "  for i = 1, 2000 do local s = 'k' .. (123456789012 + i + 0.5) end")),
    ("concat-found-exp", "'..' of floats near 1e300 and 1e-300, strings that exist", world(
        "  for i = 1, 1000 do local a, b = 'k' .. (i * 1e297 / 7), 'k' .. (i * 1e-303 / 7) end")),
    ("format-long", "string.format('%.99f') of 1e300", world(
        "  for i = 1, 20 do local s = string.format('%.99f', 1e300) end")),
    ("concat-found-int", "'..' of integers, strings that exist", world(
        "  for i = 1, 2000 do local s = 'k' .. i end")),
    ("tables", "new small tables", world("  for i = 1, 2000 do local t = { i, i, a = i } end")),
    ("ipairs", "ipairs over a table", world("  for i, v in ipairs(list) do local x = v end", pre="list = {}\nfor i = 1, 2000 do list[i] = i end")),
    ("closures", "new closures", world("  for i = 1, 2000 do local f = function() return i end end")),
    ("keys", "a table of new string keys", world("  local t = {}\n  for i = 1, 2000 do t['k' .. (k * 2000 + i)] = i end")),
    ("strtable", "10^5 new strings in a growing table, concatenated (issue 40)", world(
        "  local s = {}\n  for i = 1, 1e5 do s[#s + 1] = tostring(i) end\n  local n = #table.concat(s)")),
    ("keyedtables", "10^5 one-element tables under new string keys per event (release fuzz seed 12, case 255)", world(
        "  local t = {}\n  for i = 1, 1e5 do t['k' .. i] = { i } end")),
    ("bigheap", "small garbage beside a live heap of 10^6 strings", world(
        "  for i = 1, 2000 do local t = { i } end", pre="live = {}\nfor i = 1, 1e6 do live[i] = 'v' .. i end"), {"base": 5e7}),
    ("bigstrheap", "new strings beside 2 * 10^6 live ones", world(
        "  for i = 1, 2000 do local s = 'w' .. (k * 2000 + i) end", pre="live = {}\nfor i = 1, 2e6 do live[i] = 'v' .. i end"), {"base": 3e8}),
    ("growlive", "a live table grown by 10^4 strings per event", world(
        "  for i = 1, 10000 do live[#live + 1] = 'v' .. k .. '.' .. i end", pre="live = {}")),
    ("bigstrings", "large strings: rep, upper, sub", world(
        "  local s = string.rep('ab', 50000)\n  for i = 1, 5 do local t = s:upper():sub(2, -2) end")),
    ("unpack", "table.unpack of a sparse range", world("  for i = 1, 20 do local n = select('#', table.unpack({}, 1, 200)) end")),
    ("concatnums", "table.concat of numbers", world(
        "  local t = {}\n  for i = 1, 1000 do t[i] = k * 1000 + i + 0.25 end\n  local s = table.concat(t, ',')")),
    ("pcallerror", "errors raised and caught", world("  for i = 1, 200 do pcall(error, 'x') end")),
    ("hosterror", "luafetch functions refusing their call (app code from world code), caught", world(
        "  for i = 1, 100 do pcall(app.beginBackgroundTask, app) end")),
    ("coroutines", "coroutines made and finished", world(
        "  for i = 1, 200 do coroutine.wrap(function() coroutine.yield(1) end)() end")),
    # luafetch's functions.
    ("print", "print (--quiet)", world("  for i = 1, 200 do print('x', i) end")),
    ("print-text", "print, the timeline on stdout", world("  for i = 1, 200 do print('x', i) end"), {"args": []}),
    ("print-jsonl", "print, JSON Lines on stdout", world("  for i = 1, 200 do print('x', i) end"), {"args": ["--format", "jsonl"]}),
    ("now", "now, os.time, os.clock", world("  for i = 1, 500 do local a, b, c = now(), os.time(), os.clock() end")),
    ("fields", "app.state, app.backgroundTimeRemaining", in_app(
        "    for i = 1, 500 do local a, b = app.state, app.backgroundTimeRemaining end")),
    ("transitions", "user.home and user.open", world("  user.home() user.open()",
                                                     pre="app { didFinishLaunching = function(app) return true end }\nat(0, user.launch)")),
    ("pressure", "system.memoryPressure", world("  for i = 1, 20 do system.memoryPressure() end",
                                                pre="app { didFinishLaunching = function(app) return true end }\nat(0, user.launch)")),
    ("bgtasks", "beginBackgroundTask and endBackgroundTask", in_app(
        "    for i = 1, 100 do app:endBackgroundTask(app:beginBackgroundTask('t')) end")),
    ("bgtasks-open", "beginBackgroundTask, never ended (too-many-tasks, relaunched)", in_app(
        "    for i = 1, 100 do app:beginBackgroundTask(nil) end", pre="every(0.05, user.launch)")),
    ("bgtasks-text", "beginBackgroundTask and endBackgroundTask, the timeline on stdout", in_app(
        "    for i = 1, 100 do app:endBackgroundTask(app:beginBackgroundTask('t')) end"), {"args": []}),
    ("bgtasks-open-text", "beginBackgroundTask, never ended, the timeline on stdout", in_app(
        "    for i = 1, 100 do app:beginBackgroundTask(nil) end", pre="every(0.05, user.launch)"), {"args": []}),
    ("transitions-text", "user.home and user.open, the timeline on stdout", world("  user.home() user.open()",
                                                     pre="app { didFinishLaunching = function(app) return true end }\nat(0, user.launch)"), {"args": []}),
    ("global-text", "dispatch.global blocks, the timeline on stdout", in_app("    for i = 1, 20 do dispatch.global(function() end) end"), {"args": []}),
    ("observe", "notifications.observe, a new observer each call", world(
        "  for i = 1, 20 do notifications.observe('n' .. (k % 50), function() end) end")),
    ("post", "notifications.post to 100 observers", world(
        "  for i = 1, 10 do notifications.post('ping', {}) end",
        pre="for i = 1, 100 do notifications.observe('ping', function() end) end")),
    ("after", "after(0) blocks", in_app("    for i = 1, 50 do after(0, function() end) end")),
    ("timers", "timer.after", in_app("    for i = 1, 50 do timer.after(1, function() end) end")),
    ("global", "dispatch.global blocks", in_app("    for i = 1, 20 do dispatch.global(function() end) end")),
    ("http", "http.get", in_app("    for i = 1, 10 do http.get('https://api.test/f', function() end) end", pre=SERVER)),
    ("defaults", "defaults.set and get of a table", in_app(
        "    for i = 1, 20 do defaults.set('k', { a = i, b = { 1, 2, 3 } }) local v = defaults.get('k') end")),
    ("at", "at() from world code", world("  for i = 1, 20 do at(now() / 1000 + 1, function() end) end")),
    ("randomseed", "math.randomseed and math.random", world("  for i = 1, 200 do math.randomseed(i) local r = math.random() end")),
]

LIMIT = 5e7
CG_LIMIT = 3e6  # callgrind: the instructions between this many units and twice as many


def scenario_file(tmp, key, text):
    path = os.path.join(tmp, f"cost-{key}.lua")
    with open(path, "w") as f:
        f.write(text)
    return path


# The exact (eager) run is what a long run is made of: a lazy one is doubted after 1 s of CPU and
# redone eagerly (docs/RELIABILITY.md), so a run at the default limits takes at most about 1 s more
# than its eager run. Measured eagerly, the figures are per unit of that run.
EAGER = dict(os.environ, LUAFETCH_BUDGET="eager")


def timed(luafetch, path, limit, args):
    """CPU seconds the run took to its end (user and system: what another process on the machine
    does not inflate as much as the wall clock), and how it ended (the first line of stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([luafetch, path, *args, "--limit-instructions", f"{limit:.0f}"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, env=EAGER)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    dt = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    first = r.stderr.splitlines()[0] if r.stderr else ""
    ended = "instruction limit" if "Lua instructions" in first else (first[:120] or f"exit {r.returncode}")
    return dt, ended


def instructions(luafetch, path, limit, args, tmp):
    env = dict(EAGER, SWIFT_DETERMINISTIC_HASHING="1")
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.cost", luafetch, path, *args,
                        "--limit-instructions", f"{limit:.0f}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       env=env)
    line = next(l for l in r.stderr.splitlines() if "refs:" in l)
    return int(line.split("refs:")[1].strip().replace(",", ""))


def measure(luafetch, only=None, callgrind=False, limit=LIMIT, runs=3, report=print):
    """Yields (key, label, ns per unit, how it ended, machine instructions per unit or None, whether
    it is a known gap, its time per unit over the VM loop's). Each run of a shape follows a run of
    the VM loop, and the ratio of the two is taken: on a shared machine the load moves between
    shapes, hardly between two runs side by side."""
    tmp = tempfile.mkdtemp(prefix="luafetch-costs-")
    stripped = None
    if callgrind and shutil.which("valgrind"):
        stripped = os.path.join(tmp, "luafetch-nodebug")
        subprocess.run(["strip", "--strip-debug", "-o", stripped, luafetch], check=True)
    try:
        for key, label, text, *more in SHAPES:
            if only and key not in only:
                continue
            opts = more[0] if more else {}
            args, base = opts.get("args", ["--quiet"]), opts.get("base", 0)
            path = scenario_file(tmp, key, text)
            vm = scenario_file(tmp, "vm", SHAPES[0][2])
            results, ratios = [], []
            for _ in range(runs):
                reference = timed(luafetch, vm, limit, ["--quiet"])[0]
                results.append(timed(luafetch, path, base + limit, args))
                spent = results[-1][0]
                if base:  # what the top level's set-up took (its units are not the shape's)
                    spent -= timed(luafetch, path, base, args)[0]
                ratios.append(spent / reference)
                results[-1] = (spent, results[-1][1])
            secs = statistics.median(r[0] for r in results)
            per_unit = None
            if stripped:
                a = instructions(stripped, path, base + CG_LIMIT, args, tmp)
                b = instructions(stripped, path, base + 2 * CG_LIMIT, args, tmp)
                per_unit = (b - a) / CG_LIMIT
            row = (key, label, secs / limit * 1e9, results[0][1], per_unit, bool(opts.get("gap")), statistics.median(ratios))
            report(row)
            yield row
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    binary = next((a for a in args if not a.startswith("--") and (not args.index(a) or args[args.index(a) - 1] not in ("--only", "--limit"))),
                  os.path.join(ROOT, ".build/release/luafetch"))
    only = args[args.index("--only") + 1].split(",") if "--only" in args else None
    limit = float(args[args.index("--limit") + 1]) if "--limit" in args else LIMIT
    def show(row):
        key, label, ns, ended, per, gap, ratio = row
        print(f"{key:<14} {ns:6.2f} ns/unit {ratio:5.2f}x vm {'' if per is None else f'{per:7.1f} instr/unit'}  {label}  [{ended}]", flush=True)
    rows = list(measure(os.path.abspath(binary), only, "--callgrind" in args, limit, runs=int(os.environ.get("BENCH_RUNS", "1")), report=show))
    worst = max((r for r in rows if not r[5]), key=lambda r: r[6])
    print(f"worst: {worst[0]} {worst[6]:.2f}x the VM loop ({worst[2]:.2f} ns/unit)")
