"""luafetch's benchmark suite (issue #7), run by scripts/bench. Measures, on this machine and in one
run, luafetch against the physical limit (a minimal C host embedding Lua 5.4, bench/chost.c) and
against plain Lua (bench/plain.lua), and what a plain `swift build -c release` makes against the
release script's binary (issue 31), prints a table of figures and ratios, and writes
docs/PERFORMANCE.md. Wall-clock figures are medians; the machine is noisy, so ratios taken in the
same run are what to compare. Optional: callgrind instruction counts (repeatable) with --callgrind."""
import glob, json
import os, platform, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LUAFETCH = os.path.join(ROOT, ".build/release/luafetch")
# What a plain `swift build -c release` makes (issue 31), in its own scratch folder so that neither
# build undoes the other's flags.
PLAIN_SCRATCH = os.path.join(ROOT, ".build-plain")
PLAIN = os.path.join(PLAIN_SCRATCH, "release/luafetch")
TMP = tempfile.mkdtemp(prefix="luafetch-bench-")
CHOST = os.path.join(TMP, "chost")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
rows = []          # (section, label, value, unit, note, command)

def wall(cmd, runs=RUNS, **kw):
    """Median wall time (s) of running cmd, its output discarded."""
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        ts.append(time.perf_counter() - t)
        if r.returncode not in (0, 1):
            sys.exit(f"bench: {' '.join(cmd)} failed with {r.returncode}")
    return statistics.median(ts)

def self_timed(cmd, runs=RUNS):
    """Median of the seconds a program reports itself ("<events> <seconds>")."""
    ts = [float(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()[1]) for _ in range(runs)]
    return statistics.median(ts)

def peak_rss_kb(cmd):
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])

def scenario(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path

def periodic(callbacks, duration, app_share=0.5):
    """A scenario with `callbacks` callbacks every second (half app timers, half world `every`)."""
    app_n = int(callbacks * app_share)
    return scenario(f"periodic-{callbacks}-{duration}.lua", f"""
scenario {{ name = "periodic", duration = {duration} }}
local n = 0
app {{ didFinishLaunching = function(app)
        for i = 1, {app_n} do timer.every(1, function() n = n + 1 end) end
        return true end }}
at(0, user.launch)
for i = 1, {callbacks - app_n} do every(1, function() n = n + 1 end) end
""")

def add(section, label, value, unit, note="", command=""):
    rows.append((section, label, value, unit, note, command))
    print(f"{section:<11} {label:<44} {value:>12} {unit:<8} {note}")

def fmt(x, digits=2):
    return f"{x:,.{digits}f}"

# MARK: - Build

def build():
    print("building luafetch (scripts/build-release, and plain swift build -c release) and the C host ...", flush=True)
    subprocess.run([os.path.join(ROOT, "scripts/build-release")], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["swift", "build", "-c", "release", "--scratch-path", PLAIN_SCRATCH, "--product", "luafetch"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "lua5.4"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", "-o", CHOST, os.path.join(ROOT, "bench/chost.c")] + flags, check=True)

# MARK: - 1. Event throughput

def throughput():
    events = 1_000_000
    lf = wall([LUAFETCH, "bench/throughput.lua", "--quiet"], cwd=ROOT)
    c = self_timed([CHOST, "1000", str(events)])
    lua = self_timed(["lua5.4", "bench/plain.lua", "1000", str(events)], runs=max(1, RUNS // 2)) if shutil.which("lua5.4") else None
    add("throughput", "luafetch: 1,000 callbacks, 1,000,000 events", fmt(events / lf / 1e6), "M ev/s",
        f"{fmt(lf * 1000, 0)} ms wall, start-up included", "luafetch bench/throughput.lua --quiet")
    add("throughput", "C host (the limit)", fmt(events / c / 1e6), "M ev/s", f"{fmt(c * 1000, 0)} ms",
        "cc -O2 bench/chost.c $(pkg-config --cflags --libs lua5.4) && ./chost 1000 1000000")
    if lua:
        add("throughput", "plain Lua 5.4 (hand-rolled heap)", fmt(events / lua / 1e6), "M ev/s", f"{fmt(lua * 1000, 0)} ms",
            "lua5.4 bench/plain.lua 1000 1000000")
    add("throughput", "ratio luafetch / C limit", fmt(c / lf * 100, 0), "%", "target ≥ 50 %")
    if lua:
        add("throughput", "ratio luafetch / plain Lua", fmt(lua / lf, 1), "×", "target ≥ 4×")
    return lf

# MARK: - 1b. A plain release build (issue 31)

def plain_build():
    """The binary `swift build -c release` makes with no flags (as `swift run`, Mint or a Homebrew
    formula build: exclusivity checked at run time wherever the source does not say otherwise, the
    Swift runtime shared) against the release script's, on the throughput workload; runs
    alternate, so both see the same noise."""
    cmd = ["bench/throughput.lua", "--quiet"]
    script, plain = [], []
    for _ in range(max(3, RUNS)):
        script.append(wall([LUAFETCH] + cmd, runs=1, cwd=ROOT))
        plain.append(wall([PLAIN] + cmd, runs=1, cwd=ROOT))
    a, b = statistics.median(script), statistics.median(plain)
    add("build", "plain swift build -c release: 1,000,000 events", fmt(b * 1000, 0), "ms",
        f"{fmt(b / a)}× the release script's binary ({fmt(a * 1000, 0)} ms); goal ≤ 1.2×",
        "swift build -c release --scratch-path .build-plain && .build-plain/release/luafetch bench/throughput.lua --quiet")

# MARK: - 2. Twitter, 30 days

def twitter30():
    src = open(os.path.join(ROOT, "examples/twitter.lua")).read()
    src = src.replace("duration = days(2)", "duration = days(30)").replace("for day = 0, 1 do", "for day = 0, 29 do")
    path = scenario("twitter30.lua", src)
    t = wall([LUAFETCH, path, "--quiet"])
    out = subprocess.run([LUAFETCH, path, "--quiet", "--no-color"], capture_output=True, text=True).stdout
    events = int(next(l for l in out.splitlines() if l.startswith("ran")).split("·")[1].split()[0])
    add("twitter", "examples/twitter.lua stretched to 30 days", fmt(t * 1000, 1), "ms", f"{events:,} events, {fmt(events / t / 1e6)} M ev/s; target < 100 ms",
        "luafetch twitter30.lua --quiet")
    return path

# MARK: - 3. Start-up

def startup():
    empty = scenario("empty.lua", 'scenario { name = "empty" }\n')
    n = max(30, RUNS * 10)
    lf = wall([LUAFETCH, empty, "--quiet"], runs=n)
    add("start-up", "luafetch run of an empty scenario", fmt(lf * 1000), "ms", f"median of {n}; target < 5 ms", "luafetch empty.lua --quiet")
    if shutil.which("lua5.4"):
        lua = wall(["lua5.4", "-e", ""], runs=n)
        add("start-up", "lua5.4 -e ''", fmt(lua * 1000), "ms", f"ratio {fmt(lf / lua, 1)}×", "lua5.4 -e ''")
    c = wall([CHOST, "1", "0"], runs=n)
    add("start-up", "C host, no events", fmt(c * 1000), "ms", f"ratio {fmt(lf / c, 1)}×", "./chost 1 0")
    return empty

# MARK: - 4. Sweeps

def sweeps():
    seeds = 40
    example = os.path.join(ROOT, "examples/twitter.lua")
    cmds = [[LUAFETCH, example, "--quiet", "--seed", str(s)] for s in range(1, seeds + 1)]
    def run_all(jobs):
        t = time.perf_counter()
        running = []
        for cmd in cmds:
            running.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL))
            while len([p for p in running if p.poll() is None]) >= jobs:
                time.sleep(0.0005)
        for p in running:
            p.wait()
        return time.perf_counter() - t
    one = statistics.median(run_all(1) for _ in range(3))
    two = statistics.median(run_all(2) for _ in range(3))
    add("sweep", f"{seeds} seeds of twitter.lua, one process at a time", fmt(one * 1000, 0), "ms", f"{fmt(seeds / one, 0)} runs/s",
        "for s in 1..40: luafetch examples/twitter.lua --quiet --seed $s")
    add("sweep", f"{seeds} seeds, two at a time (2 cores)", fmt(two * 1000, 0), "ms", f"{fmt(seeds / two, 0)} runs/s", "the same, 2 in parallel")
    add("sweep", "scaling on 2 cores", fmt(one / two), "×", "target ≥ 1.8×")
    e1 = wall([LUAFETCH, "explore", example, "--runs", str(seeds * 5), "--jobs", "1"], runs=3)
    e2 = wall([LUAFETCH, "explore", example, "--runs", str(seeds * 5), "--jobs", "2"], runs=3)
    add("sweep", f"explore twitter.lua, {seeds * 5} runs, --jobs 1", fmt(e1 * 1000, 0), "ms", f"{fmt(seeds * 5 / e1, 0)} runs/s",
        f"luafetch explore examples/twitter.lua --runs {seeds * 5} --jobs 1")
    add("sweep", f"explore, --jobs 2 (threads)", fmt(e2 * 1000, 0), "ms", f"scaling {fmt(e1 / e2)}×",
        f"luafetch explore examples/twitter.lua --runs {seeds * 5} --jobs 2")

# MARK: - 5. Memory

def memory(twitter, empty):
    if not os.path.exists("/usr/bin/time"):
        add("memory", "peak RSS", "n/a", "", "GNU time is missing (apt-get install time)")
        return
    add("memory", "peak RSS, throughput run", fmt(peak_rss_kb([LUAFETCH, os.path.join(ROOT, "bench/throughput.lua"), "--quiet"]) / 1024, 1), "MiB", "target < 20 MiB")
    add("memory", "peak RSS, twitter 30 days", fmt(peak_rss_kb([LUAFETCH, twitter, "--quiet"]) / 1024, 1), "MiB")
    add("memory", "peak RSS, empty scenario", fmt(peak_rss_kb([LUAFETCH, empty, "--quiet"]) / 1024, 1), "MiB")
    pending = scenario("pending.lua", 'scenario { duration = 10 }\nfor i = 1, 1000000 do at(5, function() end) end\n')
    add("memory", "peak RSS, 1,000,000 pending at() closures", fmt(peak_rss_kb([LUAFETCH, pending, "--quiet"]) / 1024, 1), "MiB",
        "goal ≤ 130 MB", "luafetch pending.lua --quiet")
    if shutil.which("lua5.4"):
        plain = scenario("pending-plain.lua", 'local t = {}\nfor i = 1, 1000000 do t[i] = function() end end\n')
        add("memory", "plain Lua: 1,000,000 closures in a table", fmt(peak_rss_kb(["lua5.4", plain]) / 1024, 1), "MiB", "the floor beside it")
    probe = scenario("lua-memory.lua", 'collectgarbage("collect")\nprint(string.format("%.0f", collectgarbage("count")))\n')
    out = subprocess.run([LUAFETCH, probe, "--no-color"], capture_output=True, text=True).stdout
    kb = next(l.split()[-1] for l in out.splitlines() if l.startswith("+0d"))
    add("memory", "one Lua state with the prelude and the API", kb, "KiB", "collectgarbage('count') at load")

# MARK: - 6. Cost growth

def growth():
    # 10^7 events is the default event limit (issue 29): these runs measure cost, not limits.
    raised = ["--limit-events", "1e8", "--limit-instructions", "1e10"]
    for events, duration in [(10_000, 10), (100_000, 100), (1_000_000, 1_000), (10_000_000, 10_000)]:
        path = periodic(1000, duration)
        t = wall([LUAFETCH, path, "--quiet"] + raised, runs=max(1, RUNS if events <= 1_000_000 else 1))
        add("growth", f"{events:,} events (1,000 callbacks)", fmt(events / t / 1e6), "M ev/s", f"{fmt(t * 1000, 0)} ms, start-up included")
    for timers, duration in [(10, 100_000), (1_000, 1_000), (100_000, 10)]:
        path = periodic(timers, duration)
        t = wall([LUAFETCH, path, "--quiet"] + raised, runs=max(1, RUNS // 2))
        add("growth", f"{timers:,} concurrent timers (1,000,000 events)", fmt(1_000_000 / t / 1e6), "M ev/s", f"{fmt(t * 1000, 0)} ms")

# MARK: - 7. Time to reach each default limit (issue 29)

LIMIT_CASES = [
    ("every(0.001, ...) for a month", "limit-every-ms.lua",
     'scenario { duration = days(30) }\nevery(0.001, function() end)\n'),
    ("every() inside every()", "limit-nested-every.lua",
     'scenario { duration = days(30) }\nevery(1, function() every(1, function() end) end)\n'),
    ("an app that hangs at every launch, relaunched every 5 s", "limit-hang-relaunch.lua",
     'scenario { duration = days(30) }\napp { didFinishLaunching = function(app) while true do end end }\nevery(5, user.launch)\n'),
    ("a serial queue's block resubmitting itself", "limit-queue-storm.lua",
     'app { didFinishLaunching = function(app)\n  local q = dispatch.queue("q")\n  local function f() q:async(f) end\n'
     '  q:async(f)\n  return true end }\nat(0, user.launch)\n'),
    ("a dispatch.global block resubmitting itself", "limit-global-storm.lua",
     'app { didFinishLaunching = function(app)\n  local function f() dispatch.global(f) end\n  dispatch.global(f)\n'
     '  return true end }\nat(0, user.launch)\n'),
    ("tiny after(0) handlers, each submitting the next", "limit-after0.lua",
     'app { didFinishLaunching = function(app)\n  local function f() after(0, f) end\n  after(0, f)\n  return true end }\n'
     'at(0, user.launch)\n'),
    ("a background thread in work(0.001) forever", "limit-work-loop.lua",
     'app { didFinishLaunching = function(app)\n  dispatch.global(function() while true do work(0.001) end end)\n'
     '  return true end }\nat(0, user.launch)\n'),
    ("http.get every millisecond", "limit-http.lua",
     'scenario { duration = days(30) }\nlocal api = server "api.test" { latency = 0.001 }\n'
     'api:route("GET /f", { status = 200, body = "x" })\napp { didFinishLaunching = function(app)\n'
     '  timer.every(0.001, function() http.get("https://api.test/f", function() end) end)\n  return true end }\n'
     'at(0, user.launch)\n'),
    ("a background fetch every millisecond (wake, complete, suspend)", "limit-fetch.lua",
     'scenario { duration = days(30), fetchPolicy = "manual" }\n'
     'app { backgroundModes = {"fetch"}, didFinishLaunching = function(app) return true end,\n'
     '  performFetch = function(app, done) done("newData") end }\nat(0, user.launch) at(1, user.home)\n'
     'every(0.001, system.backgroundFetch)\n'),
    ("a download started from each didComplete, woken each time", "limit-download-loop.lua",
     'scenario { os = "ios26" }\nlocal api = server "api.test" { latency = 0.5 }\n'
     'api:route("GET /f", { status = 200, body = "x" })\napp { scenes = true, delegate = function(app)\n'
     '  local S\n  local function sess()\n'
     '    S = S or urlSession.background("dl", { didComplete = function(t, e) sess():download("https://api.test/f") end })\n'
     '    return S\n  end\n  return {\n'
     '    didFinishLaunching = function(app, l) sess():download("https://api.test/f") return true end,\n'
     '    handleEventsForBackgroundURLSession = function(app, id, done) sess() dispatch.main(done) end,\n'
     '  } end }\nat(0, user.launch) at(1, user.home)\n'),
    ("50,000 threads waiting on one lock, then a lock storm", "limit-lock.lua",
     'app { didFinishLaunching = function(app)\n  local m = dispatch.lock() m:lock()\n'
     '  for i = 1, 50000 do dispatch.global(function() m:lock() m:unlock() end) end\n'
     '  local function f() dispatch.global(function() m:lock() m:unlock() f() end) end\n'
     '  after(1, function() m:unlock() f() end)\n  return true end }\nat(0, user.launch)\n'),
    ("a table grown at the top level", "limit-memory.lua",
     'local t = {}\nfor i = 1, 1e9 do t[i] = i end\n'),
]

# Issue 40's three hostile scenarios (Tests/luafetchCLITests/Robustness/), each run as its first line says.
REPRO_CASES = [
    ("host actions every millisecond for 6 hours (issue 40)", "slow_host_actions_every_ms.lua", ["--quiet"]),
    ("instructions that allocate, 10^6 strings concatenated (issue 40)", "slow_alloc_heavy_instructions.lua", []),
    ("10^6-element string tables per event (issue 40)", "slow_handler_string_tables.lua", []),
]
COSTLY_CASES, COSTLY_SEED = 60, 40

def ended_by(r):
    first = r.stderr.splitlines()[0] if r.stderr else ""
    return ("instruction limit" if "Lua instructions" in first else "event limit" if " events" in first
            else "memory cap" if "memory cap" in first else f"exit {r.returncode}")

def time_to_end(cmd, runs):
    """Median seconds from start to the end of cmd, and how it ended."""
    ts, which = [], ""
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        ts.append(time.perf_counter() - t)
        which = ended_by(r)
    return statistics.median(ts), which

def limits(binary=None, label_suffix=""):
    """Wall time from start to exit 2 at a default limit, per case (SPEC 11, third amendment: within
    10 s on CI's machine), with the limit that stopped the run; then issue 40's three repros and the
    slowest of a batch of costly scenarios made by the fuzzer's generator (its `costly` kind)."""
    binary = binary or LUAFETCH
    runs = max(1, RUNS // 2)
    for label, name, text in LIMIT_CASES:
        t, which = time_to_end([binary, scenario(name, text), "--quiet"], runs)
        add("limits", label, fmt(t, 2), "s", f"{which}; target < 10 s", f"luafetch {name} --quiet")
    for label, name, args in REPRO_CASES:
        path = os.path.join(ROOT, "Tests/luafetchCLITests/Robustness", name)
        t, which = time_to_end([binary, "run", path] + args, runs)
        add("limits", label, fmt(t, 2), "s", f"{which}; target < 10 s", f"luafetch run Tests/luafetchCLITests/Robustness/{name} {' '.join(args)}".strip())
    sys.path.insert(0, os.path.join(ROOT, "Tests/fuzz"))
    import fuzz, random
    worst = (0.0, "", -1)
    for i in range(COSTLY_CASES):
        path = scenario(f"costly-{i}.lua", fuzz.costly_case(random.Random(f"{COSTLY_SEED}/{i}")))
        t, which = time_to_end([binary, "run", path, "--quiet"], 1)
        worst = max(worst, (t, which, i))
    add("limits", f"the slowest of {COSTLY_CASES} generated costly scenarios", fmt(worst[0], 2), "s",
        f"{worst[1]} (case {worst[2]}); target < 10 s",
        f"fuzz.costly_case(random.Random('{COSTLY_SEED}/i')) for i < {COSTLY_CASES} (Tests/fuzz/fuzz.py), each: luafetch run CASE --quiet")

# MARK: - 7b. What a unit costs (issue 40)

def unit_costs(callgrind=False):
    """bench/costs.py: each kind of work looped to the run's limit, in ns per unit (and machine
    instructions per unit with --callgrind); the worst is what 10^9 units can take."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import costs
    rows_ = list(costs.measure(LUAFETCH, callgrind=callgrind, runs=max(1, RUNS // 2), report=lambda row: None))
    for key, label, ns, ended, per, gap, ratio in rows_:
        note = f"{fmt(ratio)}× the VM loop" + (f"; {fmt(per, 0)} instr/unit" if per is not None else "") + ("; a known gap" if gap else "")
        add("costs", label, fmt(ns, 2), "ns/unit", note if ended == "instruction limit" else f"{note}; ended: {ended}",
            f"python3 bench/costs.py --only {key}")
    worst = max((r for r in rows_ if not r[5]), key=lambda r: r[6])
    vm = next(r[2] for r in rows_ if r[0] == "vm")
    add("costs", "the worst per unit: 10^9 units", fmt(worst[6] * vm, 2), "s",
        f"{worst[0]}, {fmt(worst[6])}× the VM loop's {fmt(vm, 2)} ns; a lazy run adds at most 1 s (docs/RELIABILITY.md); target < 10 s")

# MARK: - 7c. The debug build (issue 40)

DEBUG = os.path.join(ROOT, ".build/debug/luafetch")

def debug_limits():
    """The debug build (what `swift build` makes and CI tests) against the release build: its
    slowdown per unit on the costs shapes (the worst is its calibrated slowdown: its runs at the
    default limits end within 10 s times that), and the time of issue 40's repros on it. Skipped
    when there is no debug build (`swift build --product luafetch` makes one)."""
    if not os.path.exists(DEBUG):
        return
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import costs
    keys = ["vm", "ccall", "strtable", "print", "fields", "http", "transitions"]
    rel = {r[0]: r[2] for r in costs.measure(LUAFETCH, only=keys, runs=1, limit=2e7, report=lambda row: None)}
    dbg = {r[0]: r[2] for r in costs.measure(DEBUG, only=keys, runs=1, limit=2e7, report=lambda row: None)}
    ratio, key = max((dbg[k] / rel[k], k) for k in keys if k in rel and k in dbg)
    add("debug", "slowdown per unit, worst of the costs shapes", fmt(ratio), "×",
        f"{key}; the debug build's bound is 10 s × this", f"python3 bench/costs.py .build/debug/luafetch --only {','.join(keys)} --limit 2e7, against release")
    for label, name, args in REPRO_CASES:
        path = os.path.join(ROOT, "Tests/luafetchCLITests/Robustness", name)
        t, which = time_to_end([DEBUG, "run", path] + args, 1)
        add("debug", label, fmt(t, 2), "s", f"{which}; target < {fmt(10 * ratio, 0)} s",
            f".build/debug/luafetch run Tests/luafetchCLITests/Robustness/{name} {' '.join(args)}".strip())

# MARK: - Instruction counts (repeatable)

def callgrind(t30, empty):
    """Instruction counts; `t30` and `empty` are the scenarios twitter30() and startup() wrote."""
    if not shutil.which("valgrind"):
        return
    # valgrind 3.19 cannot read Swift 6's DWARF 5: count a copy without debug info. Under valgrind
    # CPU time runs ~50x slow, so the lazy budget's watchdog ticks less often (a doubted run would be
    # redone eagerly and counted twice). Swift seeds its hashing per process: a fixed seed makes the
    # counts repeat to the instruction (they varied by about 1 M over twitter's 30 days without it).
    lf_bin = os.path.join(TMP, "luafetch-nodebug")
    subprocess.run(["strip", "--strip-debug", "-o", lf_bin, LUAFETCH], check=True)
    env = dict(os.environ, LUAFETCH_LAZY_TICK_MS="10000", SWIFT_DETERMINISTIC_HASHING="1")
    def instructions(cmd):
        cmd = [lf_bin if c == LUAFETCH else c for c in cmd]
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={TMP}/cg.out"] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        line = next(l for l in r.stderr.splitlines() if "refs:" in l)
        return int(line.split("refs:")[1].strip().replace(",", ""))
    small = periodic(1000, 100)
    lf = instructions([LUAFETCH, small, "--quiet"]) - instructions([LUAFETCH, periodic(1000, 0), "--quiet"])
    c = instructions([CHOST, "1000", "100000"]) - instructions([CHOST, "1000", "0"])
    add("callgrind", "instructions per event, luafetch", fmt(lf / 100_000, 0), "instr", "100,000 events, start-up subtracted; repeatable; goal ≤ 1,300")
    if os.path.exists(PLAIN):
        plain_bin = os.path.join(TMP, "luafetch-plain-nodebug")
        subprocess.run(["strip", "--strip-debug", "-o", plain_bin, PLAIN], check=True)
        pl = instructions([plain_bin, small, "--quiet"]) - instructions([plain_bin, periodic(1000, 0), "--quiet"])
        add("callgrind", "instructions per event, plain swift build -c release", fmt(pl / 100_000, 0), "instr",
            f"{fmt(pl / lf)}× the release script's binary; goal ≤ 1.2×")
    add("callgrind", "instructions per event, C host", fmt(c / 100_000, 0), "instr", f"ratio {fmt(lf / c, 1)}×")
    if shutil.which("lua5.4"):
        pl = instructions(["lua5.4", "bench/plain.lua", "1000", "100000"]) - instructions(["lua5.4", "bench/plain.lua", "1000", "0"])
        add("callgrind", "instructions per event, plain Lua 5.4", fmt(pl / 100_000, 0), "instr", f"{fmt(pl / lf, 1)}× luafetch's")
    # Issue #19's table: the rest of its figures, each with the command.
    quiet = instructions([LUAFETCH, t30, "--quiet"])
    jsonl = instructions([LUAFETCH, t30, "--format", "jsonl"])
    add("callgrind", "twitter.lua over 30 days, --quiet", fmt(quiet / 1e6, 1), "M instr", "goal ≤ 230 M", "luafetch twitter30.lua --quiet")
    add("callgrind", "the same with --format jsonl", fmt(jsonl / 1e6, 1), "M instr", f"{fmt(jsonl / quiet)}× --quiet; goal ≤ 1.3×",
        "luafetch twitter30.lua --format jsonl")
    # --coverage's cost counted exactly: the examples run a few milliseconds each, so their wall-time
    # ratios above move with the machine's load; instructions do not.
    out = os.path.join(TMP, "coverage.info")
    plain = covered = 0
    worst = (0.0, "")
    for ex in running_examples():
        a = instructions([LUAFETCH, "run", ex, "--quiet"])
        b = instructions([LUAFETCH, "run", ex, "--quiet", "--coverage", out])
        plain += a
        covered += b
        worst = max(worst, (b / a, os.path.basename(ex)))
    add("callgrind", "run --coverage, the examples", fmt(covered / 1e6, 1), "M instr",
        f"{fmt(plain / 1e6, 1)} M without: {fmt(covered / plain)}×, worst {worst[1]} {fmt(worst[0])}×; goal ≤ 2×",
        "for each example: luafetch run EX --quiet [--coverage cov.info]")
    st = instructions([LUAFETCH, empty, "--quiet"])
    cst = instructions([CHOST, "1", "0"])
    add("callgrind", "start-up, empty scenario", fmt(st / 1e6), "M instr", f"C host {fmt(cst / 1e6)} M ({fmt(st / cst, 1)}×); goal ≤ 3.5 M",
        "luafetch empty.lua --quiet")
    if shutil.which("lua5.4"):
        add("callgrind", "start-up, lua5.4 -e ''", fmt(instructions(["lua5.4", "-e", ""]) / 1e6), "M instr", "plain Lua beside it")

def explore_efficiency():
    """Explore (issues #16, #19): instructions per run and the share spent in the World's run (its
    events and end-of-run checks, World.run) rather than in setting the run up (restoring the
    saved state, drawing the plan), per example; only the runs are counted (callgrind collects
    inside Explorer.run), not the probe or the shrinking. One worker: its one load is included."""
    if not shutil.which("valgrind"):
        return
    lf_bin = os.path.join(TMP, "luafetch-nodebug")
    if not os.path.exists(lf_bin):
        subprocess.run(["strip", "--strip-debug", "-o", lf_bin, LUAFETCH], check=True)
    # Swift seeds its hashing per process; fixed, the counts repeat exactly.
    env = dict(os.environ, LUAFETCH_LAZY_TICK_MS="60000", SWIFT_DETERMINISTIC_HASHING="1")
    runs = 1000  # steady state: the one load per worker is included, spread over the runs
    for example in sorted(glob.glob(os.path.join(ROOT, "examples", "*.lua"))):
        name = os.path.basename(example)
        out = os.path.join(TMP, "cg.explore")
        subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                        "--toggle-collect=$s17LuaFetchScripting8ExplorerO3run4path*", f"--callgrind-out-file={out}",
                        lf_bin, "explore", example, "--runs", str(runs), "--jobs", "1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        total = events = 0
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], capture_output=True, text=True).stdout
        for line in ann.splitlines():
            fields = line.split()
            if not fields:
                continue
            if "PROGRAM TOTALS" in line:
                total = int(fields[0].replace(",", ""))
            elif "5WorldC3runyy" in line and events == 0:
                events = int(fields[0].replace(",", ""))
        if total:
            add("explore", f"{name}: instructions per run, in the run", fmt(total / runs / 1e6), "M instr",
                f"{fmt(100 * events / total, 0)} % in the run",
                f"valgrind --tool=callgrind --collect-atstart=no --toggle-collect='$s17LuaFetchScripting8ExplorerO3run4path*' luafetch explore examples/{name} --runs {runs} --jobs 1")

# MARK: - 9. Import (SPEC 18)

def synthetic_app(classes=100, name="bigapp"):
    """A generated app of about 50 lines a class: an app delegate and `classes` services using
    background tasks, queues, optionals, switches, closures, stubs and async code."""
    folder = os.path.join(TMP, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "AppDelegate.swift"), "w") as f:
        f.write("""import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var task: UIBackgroundTaskIdentifier = .invalid
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            Service0.shared.refresh { ok in task.setTaskCompleted(success: ok) }
        }
        return true
    }
    func applicationDidEnterBackground(_ application: UIApplication) {
        task = application.beginBackgroundTask(withName: "sync") { [weak self] in
            guard let self = self else { return }
            application.endBackgroundTask(self.task)
            self.task = .invalid
        }
        Service1.shared.refresh { _ in application.endBackgroundTask(self.task) }
    }
}
""")
    for i in range(classes):
        with open(os.path.join(folder, f"Service{i}.swift"), "w") as f:
            f.write(f"""import Foundation

enum State{i}: String {{ case idle, running, failed }}

final class Service{i} {{
    static let shared = Service{i}()
    private let queue = DispatchQueue(label: "service.{i}")
    private var state: State{i} = .idle
    private var cache: [String: Int] = [:]
    private var pending: [String] = []
    var onChange: ((State{i}) -> Void)?

    func refresh(completion: @escaping (Bool) -> Void) {{
        guard state != .running else {{ completion(false); return }}
        state = .running
        defer {{ onChange?(state) }}
        Client{i}.shared.fetch(page: 1) {{ [weak self] result, error in
            guard let self = self else {{ return }}
            if let error = error {{
                print("service {i} failed: \\(error)")
                self.state = .failed
                completion(false)
                return
            }}
            for (n, item) in self.pending.enumerated() where n % 2 == 0 {{
                self.cache[item, default: 0] += 1
            }}
            self.queue.async {{
                let total = self.cache.values.reduce(0, +)
                DispatchQueue.main.async {{
                    self.state = total > 10 ? .idle : .running
                    completion(true)
                }}
            }}
        }}
    }}

    func load() async throws -> Int {{
        let value = try await Client{i}.shared.value()
        switch state {{
        case .idle: return value
        case .running where value > 3: return value * 2
        default: return 0
        }}
    }}
}}
""")
    return folder

def importing():
    folder = synthetic_app()
    lines = sum(len(open(os.path.join(folder, f)).read().splitlines()) for f in os.listdir(folder))
    out = os.path.join(TMP, "bigapp.lua")
    t = wall([LUAFETCH, "import", folder, "-o", out, "--force"])
    add("import", f"luafetch import of a {lines:,}-line app (101 files)", fmt(t * 1000, 0), "ms",
        "goal < 1 s on CI's machine", "luafetch import bigapp/ -o bigapp.lua (an app bench.py generates)")
    r = wall([LUAFETCH, "run", out, "--quiet"])
    add("import", "luafetch run of what it wrote (a day)", fmt(r * 1000, 0), "ms", "", "luafetch run bigapp.lua --quiet")
    # Real scale (SPEC 18.8.6): 2,001 files, of which background code reaches two services.
    folder = synthetic_app(2000, "realscale")
    lines = sum(len(open(os.path.join(folder, f)).read().splitlines()) for f in os.listdir(folder))
    out = os.path.join(TMP, "realscale.lua")
    t = wall([LUAFETCH, "import", folder, "-o", out, "--force"], runs=3)
    add("import", f"real scale: import of a {lines:,}-line app (2,001 files)", fmt(t, 2), "s",
        f"slice {fmt(os.path.getsize(out) / 1048576)} MiB; goals ≤ 5 s, ≤ 4 MiB (SPEC 18.8.6)", "luafetch import realscale/ -o realscale.lua")
    r = wall([LUAFETCH, "run", out, "--quiet"])
    add("import", "real scale: luafetch run of its day", fmt(r * 1000, 0), "ms", "goal ≤ 1 s", "luafetch run realscale.lua --quiet")

def clean_build():
    """A build from scratch (swift-syntax included), as CI's fresh clone does: --clean-build."""
    scratch = os.path.join(TMP, "clean-build")
    t = time.perf_counter()
    subprocess.run(["swift", "build", "--scratch-path", scratch, "--product", "luafetch"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    add("build", "debug build from scratch (swift-syntax included)", fmt(time.perf_counter() - t, 0), "s",
        f"{os.cpu_count()} cores", "swift build --scratch-path EMPTY --product luafetch")

# MARK: - 10. Coverage (issue 33)

def running_examples():
    """The examples that run (background_mistakes.lua stops at a world-code error: exit 2)."""
    return [ex for ex in sorted(glob.glob(os.path.join(ROOT, "examples", "*.lua")))
            if subprocess.run([LUAFETCH, "run", ex, "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode in (0, 1)]

def coverage_overhead(t30):
    """`--coverage FILE` against the same run without it: every example (the sum of the medians) and
    twitter.lua stretched to 30 days, then explore's runs (unguided, so only the line hook differs).
    Goal: at most 2x. Without the flag no line hook is set (CLuaHost/host.c): the event loop is
    what it was (the callgrind rows' instructions per event)."""
    out = os.path.join(TMP, "coverage.info")
    examples = running_examples()
    plain = covered = 0.0
    worst = (0.0, "")
    for ex in examples:
        a = wall([LUAFETCH, "run", ex, "--quiet"])
        b = wall([LUAFETCH, "run", ex, "--quiet", "--coverage", out])
        plain += a
        covered += b
        worst = max(worst, (b / a, os.path.basename(ex)))
    add("coverage", f"run --coverage, the {len(examples)} examples", fmt(covered * 1000, 0), "ms",
        f"{fmt(plain * 1000, 0)} ms without: {fmt(covered / plain)}×, worst {worst[1]} {fmt(worst[0])}×; goal ≤ 2×",
        "for each example: luafetch run EX --quiet [--coverage cov.info]")
    a = wall([LUAFETCH, "run", t30, "--quiet"])
    b = wall([LUAFETCH, "run", t30, "--quiet", "--coverage", out])
    add("coverage", "run --coverage, twitter.lua over 30 days", fmt(b * 1000, 1), "ms", f"{fmt(a * 1000, 1)} ms without: {fmt(b / a)}×; goal ≤ 2×",
        "luafetch run twitter30.lua --quiet --coverage cov.info")
    example = os.path.join(ROOT, "examples/twitter.lua")
    base = [LUAFETCH, "explore", example, "--runs", "1000", "--jobs", "1", "--no-guide"]
    a = wall(base, runs=3)
    b = wall(base + ["--coverage", out], runs=3)
    g = wall(base[:-1], runs=3)
    add("coverage", "explore twitter.lua, 1,000 runs, --no-guide --coverage", fmt(b * 1000, 0), "ms",
        f"{fmt(a * 1000, 0)} ms without: {fmt(b / a)}×; guided (line pairs too): {fmt(g * 1000, 0)} ms",
        "luafetch explore examples/twitter.lua --runs 1000 --jobs 1 --no-guide [--coverage cov.info]")

PLANTED = ["deadline_upload.lua", "purged_draft.lua", "push_backlog.lua"]
GUIDE_SEEDS = 20      # --seed-from values
GUIDE_CAP = 2000      # runs per explore; a bug not found in them counts as CAP + 1

def runs_to_find(path, seed_from, guided):
    """The runs explore took to first show an error: the lowest seed with one (a finding's `seed`,
    the same with any --jobs), counted from --seed-from."""
    cmd = [LUAFETCH, "explore", path, "--runs", str(GUIDE_CAP), "--seed-from", str(seed_from), "--format", "jsonl"]
    out = subprocess.run(cmd + ([] if guided else ["--no-guide"]), capture_output=True, text=True, cwd=ROOT).stdout
    seeds = [d["seed"] for d in map(json.loads, out.splitlines()) if d.get("type") == "finding" and d.get("severity") == "error"]
    return min(seeds) - seed_from + 1 if seeds else GUIDE_CAP + 1

def guidance():
    """Guided explore against --no-guide (issue 33) on the planted bugs of bench/planted: the median,
    over 20 --seed-from values, of the runs to the first find. Goal: guided at most half of random.
    The counts are deterministic (the same on any machine and with any --jobs)."""
    for name in PLANTED:
        path = os.path.join(ROOT, "bench/planted", name)
        froms = [1 + k * 1_000_003 for k in range(GUIDE_SEEDS)]
        guided = [runs_to_find(path, f, True) for f in froms]
        random = [runs_to_find(path, f, False) for f in froms]
        g, r = statistics.median(guided), statistics.median(random)
        missed = sum(1 for x in guided + random if x > GUIDE_CAP)
        add("guide", f"{name}: runs to the first find, guided", fmt(g, 1), "runs",
            f"--no-guide: {fmt(r, 1)} ({fmt(g / r)}×; goal ≤ 0.5×){f'; {missed} of 40 not found in {GUIDE_CAP}' if missed else ''}",
            f"luafetch explore bench/planted/{name} --runs {GUIDE_CAP} --seed-from S [--no-guide] --format jsonl, S = 1 + k·1000003, k = 0..19; median of the lowest error seed − S + 1")
    # What a run costs guided (longer derived plans, the map of line pairs read after each run).
    for name in PLANTED:
        path = os.path.join(ROOT, "bench/planted", name)
        base = [LUAFETCH, "explore", path, "--runs", "20000", "--jobs", "1"]
        g, r = wall(base, runs=3), wall(base + ["--no-guide"], runs=3)
        add("guide", f"{name}: 20,000 runs, guided", fmt(g * 1000, 0), "ms", f"--no-guide: {fmt(r * 1000, 0)} ms ({fmt(g / r)}× per run)",
            f"luafetch explore bench/planted/{name} --runs 20000 --jobs 1 [--no-guide]")

# MARK: - Report

def adversarial():
    """Wall time of the robustness repros whose bug was slowness (R12: 300 findings merged, 49 s
    when each comparison sorted again; R12b: the same from explore's 300 lines). The tests check
    what they print; how fast is measured here."""
    base = os.path.join(ROOT, "Tests/luafetchCLITests/Robustness/adversarial")
    for label, args in [("R12: merge 300 findings", ["explore", "--merge", os.path.join(base, "R12_merge_300_findings_cubic.jsonl"), "--format", "jsonl"]),
                        ("R12b: explore 300 warning lines, 20 runs", ["explore", os.path.join(base, "R12b_explore_300_violation_lines_cubic.lua"), "--runs", "20", "--format", "jsonl"])]:
        ts = []
        for _ in range(max(1, RUNS // 2)):
            t = time.perf_counter()
            subprocess.run([LUAFETCH] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ts.append(time.perf_counter() - t)
        add("adversarial", label, fmt(statistics.median(ts), 2), "s", "release build", "luafetch " + " ".join(a.replace(ROOT + "/", "") for a in args))

def write_report():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor()) if os.path.exists("/proc/cpuinfo") else platform.processor()
    lines = ["| section | measure | value | unit | note |", "|---|---|---:|---|---|"]
    for section, label, value, unit, note, _ in rows:
        lines.append(f"| {section} | {label} | {value} | {unit} | {note} |")
    commands = [f"- {label}: `{command}`" for _, label, _, _, _, command in rows if command]
    text = open(os.path.join(ROOT, "bench/PERFORMANCE.template.md")).read()
    text = text.replace("{{MACHINE}}", f"{os.cpu_count()} cores, {cpu}; {time.strftime('%Y-%m-%d')}")
    text = text.replace("{{TABLE}}", "\n".join(lines)).replace("{{COMMANDS}}", "\n".join(commands))
    with open(os.path.join(ROOT, "docs/PERFORMANCE.md"), "w") as f:
        f.write(text)
    print("\nwrote docs/PERFORMANCE.md")

if __name__ == "__main__":
    only = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--only=")), None)
    if only:
        # A part of the suite (--only=coverage,guide,limits,costs,debug,import): the rows are printed, PERFORMANCE.md is not written.
        if not os.path.exists(LUAFETCH):
            subprocess.run([os.path.join(ROOT, "scripts/build-release")], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        src = open(os.path.join(ROOT, "examples/twitter.lua")).read()
        t30 = scenario("twitter30.lua", src.replace("duration = days(2)", "duration = days(30)").replace("for day = 0, 1 do", "for day = 0, 29 do"))
        if "coverage" in only:
            coverage_overhead(t30)
        if "limits" in only:
            limits()
        if "costs" in only:
            unit_costs("--callgrind" in sys.argv)
        if "debug" in only:
            debug_limits()
        if "guide" in only:
            guidance()
        if "import" in only:
            importing()
        shutil.rmtree(TMP, ignore_errors=True)
        sys.exit(0)
    build()
    throughput()
    plain_build()
    twitter = twitter30()
    empty = startup()
    sweeps()
    memory(twitter, empty)
    growth()
    limits()
    adversarial()
    unit_costs("--callgrind" in sys.argv)
    debug_limits()
    importing()
    coverage_overhead(twitter)
    guidance()
    if "--clean-build" in sys.argv:
        clean_build()
    if "--callgrind" in sys.argv:
        callgrind(twitter, empty)
        explore_efficiency()
    write_report()
    shutil.rmtree(TMP, ignore_errors=True)
