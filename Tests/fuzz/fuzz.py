#!/usr/bin/env python3
"""luafetch's own fuzzer (scripts/fuzz runs it; docs/RELIABILITY.md says how it is used).

Seeded: case i of seed S is the same on every machine. Each case is one of
  api       a generated scenario that calls every API with valid, boundary and wrong arguments
            (types, nil, NaN, +-inf, huge/negative/tiny durations, huge strings and tables, cyclic
            and metatable-laden values, coroutines yielding across API calls, errors and re-entrant
            calls from handlers, runaway loops and kills inside pcall);
  mutant    an example with random mutations (lines deleted, duplicated or swapped, numbers turned
            into boundary values, names misspelt, loops, errors and yields inserted);
  options   hostile command lines (run, explore, repl, test options);
  repl      random REPL input through a pipe (dot commands, Lua, unfinished chunks, garbage);
  costly    a scenario made of work that costs far more time than its count (issue 40): host actions
            every millisecond, instructions that allocate, 10^5-10^6-element tables per event, timers
            that multiply, errors caught in loops; run at the DEFAULT limits (10^9 units, 10^7 events),
            as `luafetch run` or a REPL that advances a century, text, JSON Lines or --quiet, with
            --until at times; their time limit is Limits.COSTLY (10 s on CI's idle machine for the
            release build) times Limits.DEBUG_SLOWDOWN, scaled like every limit; with --release
            (a release build), SPEC 11's 10 s scaled by the VM loop's speed here (Limits.VM_REFERENCE);
  import    `luafetch import` on Swift: the fixture apps mutated, apps generated from statement
            templates (every construct and mapped API the importer knows, nested at random), and
            hostile input (deep nesting, huge files, invalid UTF-8, binary and malformed plists);
            the import exits 0 or 2 (2 with File.swift:LINE:COL or "luafetch import:"), and the
            scenario it wrote runs without exit 2 (the importer's output always loads).
Invariants per case: exit status in {0, 1, 2}; no signal; done within --timeout seconds; peak RSS
under 1 GiB; a scenario error (exit 2 of a run whose options are valid) starts with FILE:LINE:;
every --rerun-th case run again gives byte-identical output.

Usage: fuzz.py LUAFETCH [--cases N] [--seed S] [--jobs J] [--timeout T] [--rerun K] [--keep DIR] [--release]
Failing cases are written to DIR (default fuzz-failures/) with the command and what broke.
"""
import concurrent.futures as futures
import hashlib, os, random, re, resource, shlex, shutil, subprocess, sys, tempfile, time
import swift_grammar  # grammar fuzzer: apps covering swift-syntax's every Stmt/Expr/Decl/Pattern kind (swift_grammar.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = sorted(os.path.join(ROOT, 'examples', f) for f in os.listdir(os.path.join(ROOT, 'examples')) if f.endswith('.lua'))
RSS_LIMIT_KB = 1 << 20  # 1 GiB
FIXTURES = os.path.join(ROOT, 'Tests', 'LuaFetchImportTests', 'Fixtures')
# Generated scenarios run with lower whole-run limits so that a case ends within the time invariant:
# on CI's machine a release build reaches the default limits (10^9 instructions, 10^7 events) in up
# to about 10 s, and the debug build CI tests is about twice as slow. The mechanisms are the same
# at any value; the robustness tests reach the defaults' messages with lower values too.
LIMIT = ['--limit-instructions', '5e8', '--limit-events', '3e5']

VALUES = ['nil', 'true', 'false', '0', '-1', '1', '1.5', '0.0004', '-0.0', '0/0', '1/0', '-1/0', 'math.maxinteger',
          'math.mininteger', '1e308', '1e-300', '2^53', '""', '"x"', '"home"', 'string.rep("x", 1e5)', '{}', '{1, 2, 3}',
          'CYCLE', 'META', 'function() end', 'function() error("boom") end', 'function() error({}) end',
          'coroutine.create(function() end)', 'user.home', 'minutes(5)', 'days(40)', 'seconds(-3)', '"GET /x"',
          '"https://api.test/x?a=1&b=%zz"', '{ status = 200, body = { n = 1 } }', '{ status = 99 }', '"fetch"',
          '{ "fetch" }', 'UIApplicationBackgroundFetchIntervalMinimum', 'UIBackgroundTaskInvalid', '"newData"']

CALLS = [
    'at({t}, {fn})', 'every({t}, {fn})', 'at({t}, user.launch)', 'at({t}, user.home)', 'at({t}, user.forceQuit)', 'at({v}, {v})',
    'at({t}, function() user.interrupt({t}) end)', 'at({t}, system.backgroundFetch)', 'at({t}, system.launchForFetch)',
    'at({t}, system.memoryPressure)', 'at({t}, function() system.setLowPowerMode({b}) end)',
    'at({t}, function() system.setBackgroundRefresh({b}) end)', 'scenario {{ {f} = {v} }}',
    'scenario {{ duration = {v}, seed = {v} }}', 'scenario {{ limits = {{ {lf} = {v} }} }}',
    'scenario {{ budgets = {{ backgroundTask = {v} }} }}', 'scenario {{ device = {{ multitasking = {v} }} }}',
    'local s = server({v}) {{ latency = {v}, jitter = {v}, failureRate = {v} }}',
    'local s = server "api.test" {{ latency = {t} }} s:route({s}, {v})', 'local s = server "api.test" {{}} s:down({t}, {t})',
    'expect.that({s}, {fn})', 'expect.at({t}, {s}, {fn})', 'expect.violation({v}, {v})', 'expect.noViolations()',
    'notifications.observe({s}, {fn})', 'notifications.post({s}, {v})', 'print({v}, {v})', 'print(device.{df})',
    'print(pcall(next, {v}, {v}))', 'for k, x in pairs({v}) do print(k, x) end', 'print(now(), os.time(), os.clock(), os.date())',
    'print(os.date({v}, {v}))', 'math.randomseed({v})', 'print(math.random({v}, {v}))', 'print(seconds({v}), days({v}))',
    'print(pcall(string.rep, {v}, {v}))', 'print(pcall(string.find, {v}, {v}))', 'print(pcall(table.concat, {v}, {v}))',
    'print(pcall(load, {v}))', 'print(pcall(require, {v}))', 'print(tostring({v}))', 'print(pcall(setmetatable, {v}, {v}))',
    'print(pcall(coroutine.wrap(function(...) coroutine.yield(...) end), {v}))', '{g} = {v}', 'print({g})',
    'scenario {{ defaults = {v} }}', 'scenario {{ debugger = {v} }}', 'at({t}, function() defaults.set({v}, {v}) end)',
    'at({t}, function() print(defaults.get({v})) end)', 'app {{ delegate = {fn} }}',
    'app {{ delegate = function(app) return {{ {d} = {fn} }} end }}',
    'at({t}, function() system.remoteNotification({v}, {v}) end)', 'at({t}, function() system.remoteNotification({{ id = 1 }}, {{ contentAvailable = {b} }}) end)',
    'at({t}, function() system.launchTask({v}) end)', 'at({t}, function() system.expireTask({v}) end)',
    'at({t}, function() system.setCharging({v}) end)', 'at({t}, function() system.setDeviceIdle({b}) end)',
    'at({t}, function() system.setNetwork({b}) end)', 'at({t}, function() user.cancelTask({v}) end)',
    'at({t}, function() system.serverOutage({v}) end)', 'at({t}, function() system.serverOutage({t}) end)',
    'scenario {{ os = "ios26", device = {{ idleWindows = {v} }} }}', 'at({t}, system.disconnectScene)',
    'app {{ scenes = {v}, scene = {{ willConnect = {fn}, didEnterBackground = function(s) print(s.state) work({t}) end, didDisconnect = {fn} }} }}', 'app {{ permittedIdentifiers = {v}, backgroundModes = {{ "fetch", "processing" }} }}',
]

APP_CALLS = [
    'local id = app:beginBackgroundTask({s}, function() app:endBackgroundTask(id) end)', 'app:beginBackgroundTask({v}, {v})',
    'app:endBackgroundTask({v})', 'app:setMinimumBackgroundFetchInterval({t})', 'local id = app:beginBackgroundTask(function() end) after({t}, function() app:endBackgroundTask(id) end)',
    'after({t}, {fn})', 'timer.every({t}, {fn})', 'timer.after({t}, {fn})', 'work({t})', 'http.get({s}, {fn})',
    'http.request({v}, {v})', 'http.request({{ url = "https://api.test/x", method = {v}, body = {v}, headers = {v}, timeout = {v} }}, {v})',
    'print(app.state, app.backgroundTimeRemaining)', 'local t = timer.every(1, function(t) t:invalidate() end)',
    'notifications.post("UIApplicationDidEnterBackgroundNotification", {v})', 'user.home()', 'at({v}, {v})',
    'print(pcall(function() while true do end end))', 'local t = {{}} for i = 1, 1e7 do t[i] = string.rep("y", 100) end',
    'coroutine.yield()', 'error({v})', 'print(pcall(error, {v}))', 'app.state = {v}', 'print(app.beginBackgroudTask)',
    'local co = coroutine.wrap(function() http.get("https://api.test/x", function() end) coroutine.yield() end) co()',
    'dispatch.global({fn})', 'dispatch.main({fn})', 'dispatch.global(function() work({t}) end)',
    'local q = dispatch.queue({v}) q:async({fn}) q:async(function() work({t}) end) print(q:sync({fn}))',
    'local q = dispatch.queue("q") q:async(function() q:sync({fn}) end)', 'local m = dispatch.lock() m:lock() dispatch.global(function() m:lock() end)',
    'local m = dispatch.lock() print(m:tryLock(), m:tryLock()) m:unlock() m:unlock()', 'dispatch.lock():unlock()',
    'local m = dispatch.lock() dispatch.global(function() m:lock() work({t}) m:unlock() end) after({t}, function() m:lock() end)',
    'dispatch.global(function() timer.every({t}, {fn}) end)', 'dispatch.global(function() coroutine.wrap(function() work(1) end)() end)',
    'local l = sharedContainer.lock({v}) after({t}, function() l:unlock() end)', 'sharedContainer.lock({v})',
    'defaults.set({v}, {v})', 'print(defaults.get({v}))', 'dispatch.queue({v}):sync({v})', 'dispatch.global({v})',
    'BGTaskScheduler.register({s}, function(task) task.expirationHandler = {fn} task:setTaskCompleted({b}) end)',
    'BGTaskScheduler.register({v}, {v})', 'print(BGTaskScheduler.submit(BGAppRefreshTaskRequest({s})))',
    'local r = BGProcessingTaskRequest({s}) r.requiresExternalPower = {v} r.earliestBeginDate = {v} print(BGTaskScheduler.submit(r))',
    'print(BGTaskScheduler.submit({v}))', 'BGTaskScheduler.cancel({v}) BGTaskScheduler.cancelAll() print(#BGTaskScheduler.pendingTaskRequests())',
    'print(BGTaskScheduler.submit(BGContinuedProcessingTaskRequest({s}, {v})))',
    'BGTaskScheduler.register("fetch", function(task) for i = 1, 3 do work({t}) task:updateProgress(i, {v}) end task:setTaskCompleted(true) end)',
    'local s = urlSession.background({s}, {{ didComplete = {fn}, didFinishDownloading = {fn}, didFinishEvents = {fn} }}) local t = s:download({v}) if {b} then t:cancel() end',
    'urlSession.background({v}, {v}):upload({v})', 'urlSession.background("dl", {{}}):download("https://api.test/x")',
    'local g = dispatch.group() g:enter() dispatch.global(function() work({t}) g:leave() end) g:notify({fn}, {v}) print(g:wait({v}))',
    'local g = dispatch.group() g:enter() g:notify({fn}) after({t}, function() g:leave() g:leave() end)', 'dispatch.group():notify({v}, {v})',
    'local s = dispatch.semaphore({v}) dispatch.global(function() print(s:wait({v})) end) after({t}, function() print(s:signal()) end)',
    'local s = dispatch.semaphore(0) print(s:wait({t}))', 'print(dispatch.semaphore(1):wait({v}))',
    'local q = dispatch.queue({v}, {v}) q:async({fn}, {v}) q:asyncAfter({v}, {fn}) print(q:sync({fn}))',
    'local q = dispatch.queue("c", {{ concurrent = {b} }}) q:async(function() work({t}) end) q:async({fn}, {{ barrier = {b} }}) q:async(function() q:sync({fn}) end, {{ barrier = {b} }})',
    'dispatch.asyncAfter({v}, {v})', 'dispatch.asyncAfter({t}, function() work({t}) print("late", now()) end)',
    'BGTaskScheduler.register({s}, function(task) task.expirationHandler = {fn} task:setTaskCompleted({b}) end, {v})',
    'notifications.observe(UISceneDidEnterBackgroundNotification, function() work({t}) end)',
]

DELEGATES = ['didFinishLaunching', 'didBecomeActive', 'willResignActive', 'didEnterBackground', 'willEnterForeground',
             'willTerminate', 'performFetch', 'didReceiveRemoteNotification', 'handleEventsForBackgroundURLSession']


def value(r, depth=0):
    v = r.choice(VALUES)
    if v == 'CYCLE':
        return '(function() local t = {} t.self = t t[1] = t return t end)()'
    if v == 'META':
        return r.choice(['setmetatable({}, { __index = function() error("idx") end })',
                         'setmetatable({}, { __len = function() return 1e12 end })',
                         'setmetatable({}, { __tostring = function() return 42 end })',
                         'setmetatable({}, { __call = function() return 1 end, __eq = function() error("eq") end })'])
    return v


GOOD = {
    '{t}': ['0', '1', '2.5', 'minutes(1)', 'minutes(30)', 'hours(3)', '0.001', '10'],
    '{fn}': ['function() print("cb", now()) end', 'function(...) print(select("#", ...)) end', 'user.home', 'user.launch',
             'function() user.home() end', 'function(r, e) print(r and r.status, e) end'],
    '{s}': ['"upload"', '"https://api.test/x"', '"GET /x"', '"note"', '"fetch"'],
    '{b}': ['true', 'false'],
}


def fill(r, template):
    out = template
    for key, good in GOOD.items():
        while key in out:
            out = out.replace(key, r.choice(good) if r.random() < 0.85 else value(r), 1)
    while '{v}' in out:
        out = out.replace('{v}', value(r), 1)
    out = out.replace('{f}', r.choice(['name', 'os', 'seed', 'duration', 'fetchPolicy', 'nmae', 'device', 'budgets', 'limits']))
    out = out.replace('{lf}', r.choice(['instructions', 'events', 'memory', 'bogus']))
    out = out.replace('{df}', r.choice(['isMultitaskingSupported', 'backgroundRefresh', 'lowPowerMode', 'nothing']))
    out = out.replace('{g}', r.choice(['g1', 'g2', '_G.x', 'string.x', 'app']))
    out = out.replace('{d}', r.choice(DELEGATES + ['didBecomeActiv', 'delegate']))
    return out.replace('{{', '{').replace('}}', '}')


def api_case(r):
    lines = []
    calls = [c for c in CALLS if not c.startswith('scenario')]
    if r.random() < 0.7:
        lines.append('scenario { duration = %s, seed = %d }' % (r.choice(['minutes(10)', 'hours(2)', 'days(1)', '5']), r.randrange(100)))
    elif r.random() < 0.5:
        lines.append(fill(r, r.choice([c for c in CALLS if c.startswith('scenario')])))
    for _ in range(r.randint(0, 6)):
        lines.append(fill(r, r.choice(calls)))
    fields = []
    modes = r.choice(['', 'backgroundModes = { "fetch" },', 'backgroundModes = { "fetch" },', 'backgroundModes = %s,' % value(r),
                      'backgroundModes = { "fetch", "processing", "remote-notification" }, permittedIdentifiers = { "upload", "fetch", "note", "com.x.*" },'])
    for d in r.sample(DELEGATES, r.randint(0, 4)):
        body = '\n    '.join(fill(r, r.choice(APP_CALLS)) for _ in range(r.randint(0, 4)))
        if d == 'performFetch':
            body += '\n    completionHandler(%s)' % r.choice(['"newData"', '"noData"', '"bogus"', 'nil', '"failed"', '""'])
            fields.append('  %s = function(app, completionHandler)\n    %s\n  end,' % (d, body))
        else:
            ret = '\n    return true' if d == 'didFinishLaunching' and r.random() < 0.8 else ''
            fields.append('  %s = function(app, launch)\n    %s%s\n  end,' % (d, body, ret))
    if r.random() < 0.9:
        lines.append('app {\n  %s\n%s\n}' % (modes, '\n'.join(fields)))
    lines.append('at(0, user.launch)')
    for _ in range(r.randint(0, 5)):
        lines.append(fill(r, r.choice(calls)))
    rest = lines[1:]
    r.shuffle(rest)
    lines[1:] = rest
    return '\n'.join(lines) + '\n'


def mutant_case(r):
    src = open(r.choice(EXAMPLES), encoding='utf-8').read().split('\n')
    for _ in range(r.randint(1, 4)):
        i = r.randrange(len(src))
        m = r.randrange(8)
        if m == 0: del src[i]
        elif m == 1: src.insert(i, src[i])
        elif m == 2: j = r.randrange(len(src)); src[i], src[j] = src[j], src[i]
        elif m == 3: src[i] = re.sub(r'\b\d+(\.\d+)?\b', lambda _: r.choice(['0', '-1', '1e9', '0.0001', '(0/0)', 'math.huge', '1e308']), src[i], count=1)
        elif m == 4: src[i] = re.sub(r'\b([a-z][A-Za-z]{4,})\b', lambda mm: mm.group(1)[:-2] + mm.group(1)[-1], src[i], count=1)
        elif m == 5: src.insert(i, r.choice(['while true do end', 'error({})', 'coroutine.yield()', 'error("x", 0)',
                                              'local t = {} for i = 1, 1e8 do t[i] = i end', 'print(string.rep("z", 1e6))']))
        elif m == 6: src[i] = src[i][:r.randrange(len(src[i]) + 1)]
        else: src.insert(i, fill(r, r.choice(CALLS)))
    return '\n'.join(src) + '\n'


def option_args(r, path):
    pool = ['--seed', '--seed=-5', '--seed', '99999999999999999999', '--os', 'ios5', '--os', 'ios6', '--until', '0',
            '--until', '5m12s', '--until', 'x', '--format', 'xml', '--format', 'jsonl', '--trace', '/nonexistent/dir/t.json',
            '--inject', '12.5:home,30:interrupt=20', '--inject', 'garbage', '--inject', '1e300:home', '--quiet', '--strict',
            '--no-color', '--limit-events', '0', '--limit-events', '100', '--limit-memory', '1M', '--limit-memory', '-5',
            '--limit-instructions', '1e3', '--bogus', '', '-', '--', path, path, '--debugger', '--order', '5', '--order', '-1',
            '--order', '18446744073709551615', '--os', 'ios26', '--settle', '--format', 'html',
            '--inject', '1:outage=30,2:network=off,3:charging=default,4:deviceIdle=on,5:expireTask=*,6:cancelTask=*,7:launchTask=*,8:push=alert']
    cmd = r.choice([['run', path], [path], ['explore', path, '--runs', r.choice(['1', '3', '0', '-1', '1e9', '10'])], []])
    if cmd and cmd[0] == 'explore':
        cmd += r.choice([[], ['--jobs', r.choice(['1', '2', '0', '64'])], ['--seed-from', r.choice(['9223372036854775807', '-3', 'x'])],
                         ['--shard', r.choice(['1/2', '2/2', '0/2', 'auto', '3/2', 'x'])], ['--time', r.choice(['1s', '0', 'x'])],
                         ['--shards', r.choice(['2', '0', '-1'])]])
    return cmd + [r.choice(pool) for _ in range(r.randint(0, 4))]


REPL_LINES = ['.advance 90', '.advance 3d', '.advance -1', '.advance 5m12s', '.step', '.run', '.run until 2h', '.now', '.state',
              '.pending', '.trace', '.trace 999999', '.trace -3', '.violations', '.reset', '.help', '.bogus', '.save /nonexistent/x.lua',
              'user.launch()', 'user.home()', 'app:beginBackgroundTask(function() end)', 'print(now())', '1 +', 'for i = 1, 3 do',
              'end', 'x = {', '}', 'error({})', 'while true do end', 'tostring = nil', '1', '"\\0\\255"', 'app.state', '.quit']


def repl_input(r):
    return '\n'.join(r.choice(REPL_LINES) for _ in range(r.randint(1, 12))) + '\n'


# Work that costs far more time than its count (issue 40's hostile shapes), for `costly` cases.
COSTLY_WORLD = [
    'for i = 1, {n} do user.home() user.open() end', 'for i = 1, {n} do system.memoryPressure() end',
    'for i = 1, {n} do notifications.observe("ping", function() end) end notifications.post("ping", {{}})',
    'local s = {{}} for i = 1, {big} do s[#s + 1] = tostring(i) end print(#table.concat(s))',
    'local t = {{}} for i = 1, {big} do t["k" .. i] = {{ i }} end', 'print(select("#", table.unpack({{}}, 1, 200)))',
    'for i = 1, {n} do print(tostring("10"), type(UIBackgroundFetchResultFailed)) end', 'every({t}, function() print(now()) end)',
    'every({t}, function() every({t}, function() print(tostring(now())) end) end)', 'pcall(function() while true do end end)',
    'for i = 1, {n} do pcall(error, {{}}) end', 'for i = 1, {n} do local s = "k" .. (now() + i + 0.5) end', 'for i = 1, {n} do local s = "k" .. (i + 0.5) end',
    'math.randomseed(1, 2) stored_app = app', 'print(pcall(string.pack, "s1", 0.001))', 'at(0, function() end)',
    'for i = 1, {n} do local s = ("x"):rep(100):upper():sub(2) end', 'for i = 1, {n} do at(now() / 1000 + 1, function() end) end',
]
COSTLY_APP = [
    'for i = 1, {n} do app:beginBackgroundTask(nil) end', 'for i = 1, {n} do local a, b = app.state, app.backgroundTimeRemaining end',
    'for i = 1, {n} do after(0, function() end) end', 'for i = 1, {n} do timer.after(1, function() end) end',
    'local s = {{}} for i = 1, {big} do s[#s + 1] = tostring(i) end print(#table.concat(s))',
    'for i = 1, {n} do http.get("https://api.test/x", function() end) end', 'for i = 1, {n} do defaults.set("k", {{ a = i }}) end',
    'for i = 1, {n} do dispatch.global(function() end) end', 'print(app.backgroundTimeRemaining, app.state)',
    'pcall(function() local s = {{}} for i = 1, {big} do s[#s + 1] = tostring(i) end print(#table.concat(s)) end)',
]
COSTLY_FILL = {'{n}': ['1', '10', '100', '1000', '5000'], '{big}': ['1e3', '1e4', '1e5', '1e6'],
               '{t}': ['0.001', '0.01', '0.5', '1', '3', '25', 'minutes(5)']}


def costly_fill(r, template):
    out = template
    for key, choices in COSTLY_FILL.items():
        while key in out:
            out = out.replace(key, r.choice(choices), 1)
    return out.replace('{{', '{').replace('}}', '}')


def costly_case(r):
    """A scenario of costly work in world code (every, at, nested timers) and in an app's timers."""
    lines = ['scenario { duration = %s, fetchPolicy = %s }' % (r.choice(['minutes(10)', 'hours(6)', 'days(1)', 'days(30)']),
                                                               r.choice(['"manual"', '"fixed"', '"adaptive"'])),
             'local api = server "api.test" { latency = %s }' % r.choice(['0.001', '0.4']),
             'api:route("GET /x", { status = 200, body = "x" })', 'saved_ch = nil', 'stored_app = nil']
    bodies = ['\n      '.join('pcall(function() %s end)' % costly_fill(r, r.choice(COSTLY_APP)) for _ in range(r.randint(1, 3)))
              for _ in range(r.randint(1, 2))]
    timers = '\n    '.join('timer.every(%s, function(t)\n      %s\n    end)' % (costly_fill(r, '{t}'), b) for b in bodies)
    lines.append('app {\n  didBecomeActive = function(app)\n    %s\n  end,\n  didEnterBackground = function(app)\n    %s\n  end\n}'
                 % (timers, costly_fill(r, r.choice(COSTLY_APP))))
    lines += ['at(0, user.launch)', 'at(%s, function() user.interrupt(%s) end)' % (r.choice(['0', '1', '60']), r.choice(['1', '5', '60']))]
    for _ in range(r.randint(1, 4)):
        body = '\n  '.join('pcall(function() %s end)' % costly_fill(r, r.choice(COSTLY_WORLD)) for _ in range(r.randint(1, 3)))
        lines.append('%s(%s, function(...)\n  %s\nend)' % (r.choice(['every', 'every', 'at']), costly_fill(r, '{t}'), body))
    rest = lines[5:]
    r.shuffle(rest)
    return '\n'.join(lines[:5] + rest) + '\n'


def run(cmd, stdin_text, timeout, cwd):
    """Runs a command in `cwd` (the case's own folder under the work folder: a hostile option such
    as `--trace ios5` writes there, never into the repository); returns (status or None on
    timeout, stdout, stderr, peak RSS KiB, seconds). The child is reaped with wait4, so its own
    peak RSS is known."""
    import threading
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                         env=dict(os.environ, NO_COLOR='1'),
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)))
    # stdout is kept as its digest and size (a run at the default limits may print gigabytes), stderr whole.
    chunks = {'out': [], 'err': []}
    digest, size = hashlib.sha256(), [0]
    def drain(stream, key):
        for block in iter(lambda: stream.read(65536), b''):
            if key == 'out':
                digest.update(block)
                size[0] += len(block)
            else:
                chunks[key].append(block)
    readers = [threading.Thread(target=drain, args=(p.stdout, 'out')), threading.Thread(target=drain, args=(p.stderr, 'err'))]
    for t in readers: t.start()
    try:
        p.stdin.write(stdin_text.encode()); p.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    status, rss = None, 0
    while True:
        pid, raw, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status, rss = os.waitstatus_to_exitcode(raw), ru.ru_maxrss
            break
        if time.monotonic() - start > timeout:
            p.kill()
            os.wait4(p.pid, 0)
            break
        time.sleep(0.005)
    p.returncode = status if status is not None else -9
    for t in readers: t.join()
    return status, ('%s %d' % (digest.hexdigest(), size[0])).encode(), b''.join(chunks['err']), rss, time.monotonic() - start


REAL_SHAPES = os.path.join(ROOT, 'Tests', 'LuaFetchImportTests', 'RealShapes')
SWIFT_FILES = sorted(os.path.join(d, f) for top in (FIXTURES, REAL_SHAPES) for d, _, fs in os.walk(top) for f in fs if f.endswith('.swift'))

SWIFT_STATEMENTS = [
    'let {n} = {e}', 'var {n}: Int? = {e}', '{n2} += 1', 'print("{n}", {e})',
    'task = UIApplication.shared.beginBackgroundTask(withName: "{n}") {{ UIApplication.shared.endBackgroundTask(self.task); self.task = .invalid }}',
    'UIApplication.shared.endBackgroundTask(task)', 'task = .invalid',
    'DispatchQueue.main.async {{ {stmt} }}', 'DispatchQueue.global().async {{ {stmt} }}',
    'DispatchQueue.main.asyncAfter(deadline: .now() + {num}) {{ {stmt} }}',
    'if let {n} = Client.shared.{n2} {{ {stmt} }} else {{ {stmt} }}', 'guard let {n} = store?.{n2} else {{ return }}',
    'switch {e} {{ case .a: {stmt}\n case .b(let x): print(x)\n default: break }}',
    'for {n} in 0..<{num} {{ if {n} % 2 == 0 {{ continue }}; {stmt} }}', 'while counter < {num} {{ counter += 1 }}',
    'defer {{ {stmt} }}', 'do {{ try api.{n2}({e}) }} catch {{ print(error) }}', 'let {n} = try? api.load()',
    'Task {{ let v = try? await api.fetch({e}); print(v as Any) }}', 'api.{n2}(id: {e}) {{ result, error in {stmt} }}',
    'api.{n2}(success: {{ _ in {stmt} }}, failure: {{ _ in {stmt} }})', 'let {n} = [1, 2, 3].map {{ $0 * {num} }}',
    'let {n}: [String: Int] = ["a": {num}]', 'counter = counter / {num}', 'let {n} = "\\({e}) items"',
    'BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) {{ t in t.setTaskCompleted(success: true) }}',
    'let req = BGAppRefreshTaskRequest(identifier: "com.example.refresh"); req.earliestBeginDate = Date(timeIntervalSinceNow: {num}); try? BGTaskScheduler.shared.submit(req)',
    'UserDefaults.standard.set({e}, forKey: "{n}")', 'NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) {{ _ in {stmt} }}',
    'let g = DispatchGroup(); g.enter(); g.notify(queue: .main) {{ {stmt} }}; g.leave()', 'lock.lock(); defer {{ lock.unlock() }}; {stmt}',
    'Thread.sleep(forTimeInterval: 0.{num})', 'let t = Timer.scheduledTimer(withTimeInterval: {num}, repeats: false) {{ _ in {stmt} }}; _ = t',
    '_ = {e} ?? {e}', 'let {n} = ({e}, {e})', 'if #available(iOS 15, *) {{ {stmt} }}', 'x!.y?.z = {e}', 'fatalError()',
    # Constructs of the RealShapes corpus (Tests/LuaFetchImportTests/RealShapes).
    'let {n} = [Int](repeating: {num}, count: 2)', 'var {n} = [String: Int](); {n}["k"] = {num}',
    'Task {{ let s = await withTaskGroup(of: Int.self) {{ g in g.addTask {{ {num} }}; var t = 0; for await v in g {{ t += v }}; return t }}; print(s) }}',
    'let {n} = Calendar.current.date(byAdding: .minute, value: {num}, to: Date())', '_ = [1, 2].map(\\.description)',
    '_ = Timer.publish(every: {num}, on: .main, in: .common).autoconnect().sink {{ _ in {stmt} }}',
    'Task {{ for await _ in NotificationCenter.default.notifications(named: UIApplication.didBecomeActiveNotification) {{ {stmt} }} }}',
    'let s = DispatchSource.makeTimerSource(queue: .main); s.schedule(deadline: .now() + {num}, repeating: {num}); s.setEventHandler {{ {stmt} }}; s.resume()',
    'let t = Task {{ try? await Task.sleep(nanoseconds: {num}) }}; t.cancel()', 'async let {n} = api.fetch({e}); _ = await {n}',
    'let q = OperationQueue(); q.maxConcurrentOperationCount = {num}; q.addOperation {{ {stmt} }}',
    '(UIApplication.shared.delegate as? AppDelegate)?.counter += 1', 'swap(&counter, &counter)',
]
SWIFT_EXPRS = ['1', '0', '-1', '2.5', '"s"', 'nil', 'true', 'counter', 'x', 'self.counter', 'Client.shared.value', 'items.count',
               '[1, 2]', '["k": 1]', 'Date()', 'UUID()', 'a ?? b', '(counter + 1) * 2', 'Int.max', '!flag', 'values[0]',
               'api.thing?.other', 'Mode.a', '.b(3)', '{ $0 }']


def swift_app(r):
    names = ['a', 'b', 'value', 'end', 'local', 'self_', 'timer', 'app', 'print', 'T', 'swift', 'then', 'until', 'error']
    def stmt(depth):
        t = r.choice(SWIFT_STATEMENTS)
        return t.format(n=r.choice(names), n2=r.choice(names), num=r.choice(['0', '1', '3', '30', '120']),
                        e=r.choice(SWIFT_EXPRS), stmt=stmt(depth + 1) if depth < 3 and r.random() < 0.5 else 'counter += 1').replace('\\n', '\n')
    bodies = ['\n        '.join(stmt(0) for _ in range(r.randint(1, 8))) for _ in range(3)]
    return ('import UIKit\nimport BackgroundTasks\n\nenum Mode {{ case a, b(Int) }}\n\n@main\nclass AppDelegate: UIResponder, UIApplicationDelegate {{\n'
            '    var task: UIBackgroundTaskIdentifier = .invalid\n    var counter = 0\n    var flag = false\n    let lock = NSLock()\n'
            '    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {{\n'
            '        {0}\n        return true\n    }}\n'
            '    func applicationDidEnterBackground(_ application: UIApplication) {{\n        {1}\n    }}\n'
            '    func application(_ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {{\n'
            '        {2}\n        completionHandler(.newData)\n    }}\n}}\n').format(*bodies)


def swift_mutant(r):
    with open(r.choice(SWIFT_FILES), encoding='utf-8') as f: lines = f.read().split('\n')
    for _ in range(r.randint(1, 6)):
        if not lines: break
        i = r.randrange(len(lines))
        op = r.random()
        if op < 0.25: del lines[i]
        elif op < 0.5: lines.insert(i, lines[r.randrange(len(lines))])
        elif op < 0.7: j = r.randrange(len(lines)); lines[i], lines[j] = lines[j], lines[i]
        else: lines[i] = re.sub(r'\b\d+\b', r.choice(['0', '-1', '9223372036854775807', '1e308']), lines[i])
    return '\n'.join(lines)


PLIST = ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>UIBackgroundModes</key><array>'
         '<string>fetch</string><string>processing</string></array><key>BGTaskSchedulerPermittedIdentifiers</key>'
         '<array><string>com.example.refresh</string></array></dict></plist>\n')


def import_case(r, folder):
    """A folder of Swift (and maybe an Info.plist) to import, made at `folder`."""
    os.makedirs(folder, exist_ok=True)
    roll = r.random()
    files = {}
    if roll < 0.45: files['App.swift'] = swift_mutant(r).encode('utf-8')
    elif roll < 0.65: files['AppDelegate.swift'] = swift_app(r).encode('utf-8')
    elif roll < 0.9: files['AppDelegate.swift'] = swift_grammar.app(r).encode('utf-8')  # grammar fuzzer
    else:
        hostile = r.choice(['nest', 'huge', 'utf8', 'empty'])
        if hostile == 'nest': files['Deep.swift'] = ('func f() {' + 'if true {' * 2000 + '}' * 2000 + '}\n').encode()
        elif hostile == 'huge': files['Huge.swift'] = swift_app(r).encode('utf-8') * 200
        elif hostile == 'utf8': files['Bytes.swift'] = b'let s = "\xff\xfe\xc0"\nfunc \xe2\x28\xa1() {}\n'
        else: files['Empty.swift'] = b''
    plist = r.random()
    if plist < 0.6: files['Info.plist'] = PLIST.encode()
    elif plist < 0.7: files['Info.plist'] = b'bplist00' + bytes(r.randrange(256) for _ in range(r.randint(0, 64)))
    elif plist < 0.8: files['Info.plist'] = PLIST[:r.randrange(len(PLIST))].encode()
    for name, data in files.items():
        with open(os.path.join(folder, name), 'wb') as f: f.write(data)


class Limits:
    """The time a case may take, relative to this machine and this build: `timeout` is in seconds
    of the reference machine (CI's, idle, debug build), scaled by how long the calibration workload
    (`calibrate`) takes here against the REFERENCE seconds it took there. A case over its limit is
    timed again, alone in its slot, against a calibration measured again just before it: only a
    case over its limit both times fails (a real hang stays a hang; a case slowed by a parallel
    build does not)."""
    # The calibration workload (the best of three) took REFERENCE seconds on CI's machine (2 cores,
    # idle, the debug build): the import of a generated app of about 800 lines (the kind of work the
    # slowest cases do: an import of a huge file on the debug build) and a run of examples/twitter.lua.
    REFERENCE = 0.4
    FLOOR = 3.0

    # A release build's costly case is timed against the VM loop instead (the work it is charged
    # as): SPEC 11's 10 s hold on CI's idle machine, where the release build's VM loop took about
    # VM_REFERENCE ns per unit (bench/costs.py, `vm`: 4.4-6.3 measured idle); on a machine or a
    # moment where it is slower, the limit grows in proportion, never shrinks below 10 s.
    VM_REFERENCE = 5.0

    def __init__(self, luafetch, timeout, workdir, release=False):
        self.luafetch, self.timeout, self.workdir, self.release = luafetch, timeout, workdir, release
        self.scale = self.calibrate()
        # Costly cases are the VM's and luafetch's own work, in either build: their limit follows
        # the VM loop too, not only the importer-heavy calibration (a faster importer shrank a
        # debug costly case's limit to 27 s while case 39 of seed 1 took 26.9 s).
        self.vm_scale = self.calibrate_vm()

    def calibrate_vm(self):
        """How much slower than VM_REFERENCE this machine runs the VM loop now (at least 1): the best
        of three runs of 10^8 units of bench/costs.py's `vm` shape."""
        path = os.path.join(self.workdir, 'calibration-vm.lua')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('scenario { duration = days(30) }\nevery(0.001, function()\n'
                    '  local x = 0 for i = 1, 10000 do x = x + i * 2 end\nend)\n')
        env = dict(os.environ, LUAFETCH_BUDGET='eager')
        best = None
        for _ in range(3):
            start = time.monotonic()
            subprocess.run([self.luafetch, 'run', path, '--quiet', '--limit-instructions', '100000000'],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            took = time.monotonic() - start
            best = took if best is None else min(best, took)
        return max(1.0, best * 10 / self.VM_REFERENCE)

    def calibrate(self):
        best = None
        out = os.path.join(self.workdir, 'calibration.lua')
        app = os.path.join(self.workdir, 'calibration')
        os.makedirs(app, exist_ok=True)
        with open(os.path.join(app, 'AppDelegate.swift'), 'w', encoding='utf-8') as f:
            f.write(swift_app(random.Random('calibration')) * 20)
        for _ in range(3):
            start = time.monotonic()
            subprocess.run([self.luafetch, 'import', app, '-o', out, '--force'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run([self.luafetch, 'run', os.path.join(ROOT, 'examples', 'twitter.lua'), '--quiet'],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            took = time.monotonic() - start
            best = took if best is None else min(best, took)
        return best / self.REFERENCE

    # A `costly` case runs at the default limits, which SPEC 11 says end a run within 10 s on CI's
    # idle machine for the release build; the debug build is DEBUG_SLOWDOWN times slower per unit
    # (scripts/bench's `debug` row, issue 40; measured 2.0x on host-heavy work and 1.0x on the VM
    # loop, whose Lua is the same library: 3 leaves room). In the reference's terms (CI, debug
    # build): 10 s x it.
    COSTLY = 10.0
    DEBUG_SLOWDOWN = 3.0

    def limit(self, costly=False):
        # A release build's costly case has SPEC 11's own limit, 10 s, scaled by the VM loop only:
        # the other calibration times mostly the importer, which a release build runs several
        # times faster, while a costly run's time is the VM's and luafetch's own work (a scale of
        # 0.12 gave 3.7 s).
        if costly and self.release:
            return self.COSTLY * self.vm_scale
        scale = max(self.scale, self.vm_scale) if costly else self.scale
        return max(self.FLOOR, (max(self.timeout, self.COSTLY * self.DEBUG_SLOWDOWN) if costly else self.timeout) * scale)

    def recheck(self, costly=False):
        """The scale measured again (before a case that timed out is run once more)."""
        if costly:
            self.vm_scale = max(self.vm_scale, self.calibrate_vm())
        if not (costly and self.release):
            self.scale = max(self.scale, self.calibrate())
        return self.limit(costly)


def timed(cmd, stdin_text, limits, cwd, problems, what='', costly=False):
    """Runs cmd within the calibrated limit (a costly case's: Limits.COSTLY); a run over it is run
    again against a fresh calibration before it counts as a timeout."""
    result = run(cmd, stdin_text, limits.limit(costly), cwd)
    if result[0] is None:
        again = run(cmd, stdin_text, limits.recheck(costly), cwd)
        if again[0] is None:
            if costly and limits.release:
                basis = 'SPEC 11\'s %g s for a release build, x %.2f: the VM loop here against %g ns per unit' % (
                    limits.COSTLY, limits.vm_scale, limits.VM_REFERENCE)
            else:
                basis = '%s scaled by the calibration, %.2f' % ('the default limits\' %g s x %g' % (limits.COSTLY, limits.DEBUG_SLOWDOWN)
                                                                 if costly else '--timeout %g' % limits.timeout, limits.scale)
            problems.append('%stimeout after %.1f s, and %.1f s again (limit %.1f s: %s)' % (what, result[4], again[4], limits.limit(costly), basis))
        result = again
    return result


def case(args):
    luafetch, seed, i, workdir, limits, rerun = args
    r = random.Random('%d/%d' % (seed, i))
    kind = r.choice(os.environ.get('FUZZ_KINDS', 'api,api,api,mutant,mutant,options,repl,import,costly').split(','))
    # Each case in a folder of its own, run from there with relative paths: a failing case's folder
    # is its whole repro (every input file), and an option naming a file writes it there.
    folder = os.path.join(workdir, 'case%d' % i)
    os.makedirs(folder, exist_ok=True)
    if kind == 'import': return swift_import(luafetch, r, i, folder, limits, rerun)
    path = 'case.lua'
    stdin_text = ''
    scenario_error_needs_line = False
    if kind == 'costly':
        # At the default limits (no LIMIT): the shapes issue 40 found, which must end within 10 s.
        src = costly_case(r)
        if r.random() < 0.15:
            cmd = [luafetch, 'repl', path]
            stdin_text = r.choice(['.advance 36500d\n.now\n', '.advance 30d\n.pending\n', '.run\n.violations\n'])
        else:
            cmd = [luafetch, 'run', path] + r.choice([['--quiet'], ['--quiet'], ['--format', 'jsonl'], [], ['--format', 'jsonl', '--quiet']])
            if r.random() < 0.3: cmd += ['--until', r.choice(['3h', '30d', '100d'])]
            scenario_error_needs_line = True
    elif kind in ('api', 'mutant'):
        src = api_case(r) if kind == 'api' else mutant_case(r)
        cmd = [luafetch, 'run', path, '--quiet'] + LIMIT
        if r.random() < 0.3: cmd += ['--format', 'jsonl']
        scenario_error_needs_line = True
    elif kind == 'options':
        src = api_case(r)
        cmd = [luafetch] + option_args(r, path)
        if len(cmd) > 1 and cmd[1] in ('run', path) and r.random() < 0.8: cmd += LIMIT
    else:
        src = api_case(r)
        cmd = [luafetch, 'repl'] + ([path] if r.random() < 0.6 else []) + LIMIT
        stdin_text = repl_input(r)
    with open(os.path.join(folder, path), 'w', encoding='utf-8') as f: f.write(src)
    problems = []
    status, out, err, rss, secs = timed(cmd, stdin_text, limits, folder, problems, costly=kind == 'costly')
    if status is not None and status < 0: problems.append('killed by signal %d' % -status)
    elif status is not None and status not in (0, 1, 2): problems.append('exit %d' % status)
    if status == 2 and scenario_error_needs_line:
        first = err.decode('utf-8', 'replace').split('\n', 1)[0]
        if not re.match(r'^.+:\d+: ', first): problems.append('exit 2 without FILE:LINE: %r' % first[:200])
    if rss > RSS_LIMIT_KB: problems.append('peak RSS %d KiB' % rss)
    if status is not None and rerun and i % rerun == 0:
        again = run(cmd, stdin_text, limits.limit(kind == 'costly') * 2, folder)
        if again[0] is not None and (again[0], again[1], again[2]) != (status, out, err): problems.append('not byte-identical on a rerun')
    return i, kind, [cmd], stdin_text, folder, status, secs, problems


def swift_import(luafetch, r, i, folder, limits, rerun):
    """An import case: the import exits 0 or 2 (2 naming the file), and what it wrote runs."""
    import_case(r, os.path.join(folder, 'app'))
    cmd = [luafetch, 'import', 'app', '-o', 'imported.lua', '--force']
    problems = []
    status, stdout, err, rss, secs = timed(cmd, '', limits, folder, problems, 'import: ')
    if status is not None and status < 0: problems.append('import: killed by signal %d' % -status)
    elif status is not None and status not in (0, 2): problems.append('import: exit %d' % status)
    if status == 2:
        first = err.decode('utf-8', 'replace').split('\n', 1)[0]
        if not (re.match(r'^[^:]+\.swift:\d+:\d+: ', first) or first.startswith('luafetch import') or 'Info.plist' in first):
            problems.append('import: exit 2 without File.swift:LINE:COL: %r' % first[:200])
    if rss > RSS_LIMIT_KB: problems.append('import: peak RSS %d KiB' % rss)
    commands = [cmd]
    if status == 0:
        if rerun and i % rerun == 0:
            a, b = run(cmd[:-3], '', limits.limit() * 2, folder), run(cmd[:-3], '', limits.limit() * 2, folder)
            if a[0] is not None and b[0] is not None and (a[0], a[1], a[2]) != (b[0], b[1], b[2]):
                problems.append('import: not byte-identical on a rerun')
        run_cmd = [luafetch, 'run', 'imported.lua', '--quiet', '--until', '3h'] + LIMIT
        commands.append(run_cmd)
        s2, o2, e2, rss2, secs2 = timed(run_cmd, '', limits, folder, problems, 'run of the import: ')
        if s2 is not None and s2 not in (0, 1): problems.append('run of the import: exit %s: %r' % (s2, e2.decode('utf-8', 'replace')[:300]))
        secs += secs2
    return i, 'import', commands, '', folder, status, secs, problems


def keep_case(keep, seed, i, folder, commands, stdin_text, problems, luafetch):
    """Saves a failing case whole: its folder (every input file, and what the import wrote), the
    problems, and repro.sh, which runs its commands again from the saved folder."""
    base = os.path.join(keep, 'seed%d-case%d' % (seed, i))
    shutil.rmtree(base, ignore_errors=True)
    shutil.copytree(folder, base, symlinks=True)
    def shown(cmd):
        return ' '.join(['"${LUAFETCH:-luafetch}"'] + [shlex.quote(a) for a in cmd[1:]])
    with open(os.path.join(base, 'stdin.txt'), 'w') as f: f.write(stdin_text)
    with open(os.path.join(base, 'repro.sh'), 'w') as f:
        f.write('#!/bin/sh\n# fuzz seed %d, case %d: %s\n# LUAFETCH=path/to/luafetch sh repro.sh (run from anywhere)\n'
                'cd "$(dirname "$0")"\n' % (seed, i, '; '.join(problems)))
        for c in commands: f.write(shown(c) + ' < stdin.txt\n')
    with open(os.path.join(base, 'problems.txt'), 'w') as f:
        f.write('problems: %s\ncommands (from this folder):\n%s\nstdin:\n%s' % ('; '.join(problems), '\n'.join(shown(c) for c in commands), stdin_text))
    return base


def main():
    argv = sys.argv[1:]
    def opt(name, default):
        return type(default)(argv[argv.index(name) + 1]) if name in argv else default
    luafetch = os.path.abspath(argv[0])
    cases, seed, jobs = opt('--cases', 300), opt('--seed', 1), opt('--jobs', 2)
    timeout, rerun, keep = opt('--timeout', 10.0), opt('--rerun', 10), opt('--keep', os.path.join(ROOT, 'fuzz-failures'))
    workdir = tempfile.mkdtemp(prefix='luafetch-fuzz-')
    # A copy of the binary: a rebuild during a long run must not change (or lock) what is tested.
    # The importer beside it too, when it is beside the original: the copy finds it there and never
    # builds one in the source tree (ImportFront.locate) in the middle of a batch.
    importer = os.path.join(os.path.dirname(os.path.abspath(luafetch)), 'luafetch-import')
    shutil.copy(luafetch, os.path.join(workdir, 'luafetch'))
    if os.path.exists(importer): shutil.copy(importer, os.path.join(workdir, 'luafetch-import'))
    luafetch = os.path.join(workdir, 'luafetch')
    limits = Limits(luafetch, timeout, workdir, release='--release' in argv)
    print('fuzz: calibration %.2f (this machine and build against the reference), VM loop %.2f: a case may take %.1f s, a costly one %.1f s'
          % (limits.scale, limits.vm_scale, limits.limit(), limits.limit(costly=True)), flush=True)
    failures, kinds, exits, slowest, start = [], {}, {}, (0, None), time.monotonic()
    slowest_costly = (0, None)
    with futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for i, kind, commands, stdin_text, folder, status, secs, problems in pool.map(
                case, [(luafetch, seed, i, workdir, limits, rerun) for i in range(cases)]):
            kinds[kind] = kinds.get(kind, 0) + 1
            exits[status] = exits.get(status, 0) + 1
            if secs > slowest[0]: slowest = (secs, i)
            if kind == 'costly' and secs > slowest_costly[0]: slowest_costly = (secs, i)
            done = sum(kinds.values())
            if done % 250 == 0:  # progress: a long batch stopped early still says how far it got
                print('fuzz: %d cases in %.0f s, slowest %.1f s (case %s), slowest costly %.1f s (case %s), %d failed'
                      % (done, time.monotonic() - start, slowest[0], slowest[1], slowest_costly[0], slowest_costly[1], len(failures)), flush=True)
            if problems:
                failures.append(i)
                os.makedirs(keep, exist_ok=True)
                base = keep_case(keep, seed, i, folder, commands, stdin_text, problems, luafetch)
                print('FAIL case %d (%s): %s -> %s/ (repro.sh)' % (i, kind, '; '.join(problems), base), flush=True)
            shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(workdir, ignore_errors=True)
    print('fuzz: seed %d, %d cases (%s) in %.0f s, slowest %.1f s (case %s)' % (
        seed, cases, ', '.join('%d %s' % (n, k) for k, n in sorted(kinds.items())), time.monotonic() - start, slowest[0], slowest[1]))
    print('fuzz: slowest costly case (at the default limits) %.1f s (case %s)' % slowest_costly)
    print('fuzz: exit statuses %s' % ', '.join('%s ×%d' % (k, n) for k, n in sorted(exits.items(), key=lambda kv: str(kv[0]))))
    print('fuzz: %d passed, %d failed' % (cases - len(failures), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
