#!/usr/bin/env python3
"""Differential test of luafetch's own pattern matcher (Sources/CLuaHost/patterns.c) against the
stock Lua 5.4 interpreter: random subjects and patterns through string.find, match, gmatch and
gsub (string, table and function replacements, init, plain, max counts), errors included.
Usage: patterns_diff.py LUAFETCH [--cases N] [--seed S]. Needs lua5.4 on PATH. Exit 1 on a
difference (the first ones are printed)."""
import random, subprocess, sys, tempfile, os

def lua_str(s):
    return '"' + ''.join(c if c.isalnum() or c in ' ()[]%^$*+-?.' else '\\%d' % ord(c) for c in s) + '"'

TOKENS = ['a', 'b', 'c', '.', '%a', '%d', '%s', '%w', '%p', '%A', '[ab]', '[^a]', '[a-c]', '[%d%s]', '[]]',
          '%b()', '%f[%w]', '%f[%W]', '(', ')', '()', '%1', '%2', '%%', '%.', '1', ' ', '[', '%', '%z', '%x']
QUANT = ['', '', '', '*', '+', '-', '?']

def pattern(r):
    p = ''.join(r.choice(TOKENS) + r.choice(QUANT) for _ in range(r.randint(0, 5)))
    if r.random() < 0.2: p = '^' + p
    if r.random() < 0.2: p = p + '$'
    return p

def subject(r):
    return ''.join(r.choice('ab c1()[]%.xyz') for _ in range(r.randint(0, 14)))

def main():
    luafetch = sys.argv[1]
    n = int(sys.argv[sys.argv.index('--cases') + 1]) if '--cases' in sys.argv else 2000
    seed = int(sys.argv[sys.argv.index('--seed') + 1]) if '--seed' in sys.argv else 1
    r = random.Random(seed)
    lines = ['local out = {}',
             'local function show(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end return table.concat(t, ",", 1, t.n) end',
             'local function run(f) local ok, a = pcall(f) out[#out + 1] = (ok and "ok " or "err ") .. tostring(a) end']
    for i in range(n):
        s, p = lua_str(subject(r)), lua_str(pattern(r))
        init = r.choice(['nil', '1', '2', '-3', '0', '20'])
        kind = r.randrange(5)
        if kind == 0:
            plain = r.choice(['nil', 'true'])
            lines.append('run(function() return show(string.find(%s, %s, %s, %s)) end)' % (s, p, init, plain))
        elif kind == 1:
            lines.append('run(function() return show(string.match(%s, %s, %s)) end)' % (s, p, init))
        elif kind == 2:
            lines.append('run(function() local t = {} for a, b in string.gmatch(%s, %s, %s) do t[#t+1] = show(a, b) end return table.concat(t, ";") end)' % (s, p, init))
        else:
            repl = r.choice(['"<%0>"', '"%1-%2"', '"%%"', '{a = "A", b = false}', 'function(x, y) return y and x .. y end', '"%9"', '"x%"'])
            mx = r.choice(['nil', '1', '2'])
            lines.append('run(function() return show(string.gsub(%s, %s, %s, %s)) end)' % (s, p, repl, mx))
    lines.append('for i = 1, #out do print(out[i]) end')
    src = '\n'.join(lines) + '\n'
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'patterns.lua')
        with open(path, 'w') as f: f.write(src)
        want = subprocess.run(['lua5.4', path], capture_output=True, text=True).stdout.splitlines()
        got = subprocess.run([luafetch, 'run', path, '--no-color'], capture_output=True, text=True).stdout.splitlines()
    got = [l.split('  world   ', 1)[1] for l in got if '  world   ' in l]
    bad = [(i, a, b) for i, (a, b) in enumerate(zip(want, got)) if a != b]
    if len(want) != len(got): bad.append((-1, '%d lines' % len(want), '%d lines' % len(got)))
    for i, a, b in bad[:10]:
        print('case %d:\n  lua5.4:   %s\n  luafetch: %s\n  source:   %s' % (i, a, b, lines[3 + i] if i >= 0 else ''))
    print('patterns: %d cases, %d differences' % (n, len(bad)))
    sys.exit(1 if bad else 0)

main()
