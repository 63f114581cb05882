"""Drives `luafetch repl` through a pseudo-terminal, as a person would: the prompt, line editing
history (up arrow), Ctrl-C stopping a long .run without leaving the REPL, Ctrl-D to quit, and the
history file. Usage: pty_repl.py LUAFETCH SCENARIO HOME [plain]; with `plain`, without line editing
(LUAFETCH_LINE_EDITING=off: no history). Prints what it saw; exits 1 on a failure."""
import os, pty, select, sys, time

binary, scenario, home = sys.argv[1:4]
plain = sys.argv[4:5] == ["plain"]
pid, fd = pty.fork()
if pid == 0:
    os.environ["HOME"] = home
    os.environ["TERM"] = "dumb"
    os.environ.pop("NO_COLOR", None)
    if plain:
        os.environ["LUAFETCH_LINE_EDITING"] = "off"
    os.execv(binary, [binary, "repl", scenario, "--no-color"])

seen = b""
def read_until(marker, timeout=10.0):
    global seen
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if marker in seen:
                return True
    return marker in seen

def send(data):
    os.write(fd, data)

failures = []
def check(ok, what):
    if not ok:
        failures.append(what)

check(read_until(b"> "), "the prompt appears")
send(b"40 + 2\r")
check(read_until(b"42"), "an expression prints its value")
seen = b""
if not plain:
    send(b"\x1b[A\r")                   # up arrow: recall the last line, run it again
    check(read_until(b"42"), "history recall with the up arrow")
    seen = b""
def interrupt(command, what):
    """Sends a long command, then Ctrl-C (again if it came too early) until it stops."""
    global seen
    send(command + b"\r")
    stopped = False
    for _ in range(20):
        time.sleep(0.3)
        send(b"\x03")
        if read_until(b"interrupted at", timeout=0.5):
            stopped = True
            break
    check(stopped, "Ctrl-C stops " + what)
    seen = b""
interrupt(b".run", ".run")
interrupt(b".advance 20d", ".advance")              # a long .advance stops on Ctrl-C too
send(b"\x03")                           # Ctrl-C at the prompt: harmless
time.sleep(0.2)
send(b"1 + 1\r")
check(read_until(b"2\r\n> "), "the session goes on after Ctrl-C")
time.sleep(0.3)   # as a person would: input typed before libedit is back in raw mode goes to the kernel
status = None
for attempt in range(100):              # Ctrl-D quits; never wait forever
    if attempt % 10 == 0:
        send(b"\x04")                   # (again, if it arrived while the terminal was not in raw mode)
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = st
        break
    read_until(b"\x00", timeout=0.1)
    time.sleep(0.05)                    # read_until returns at once once the pty is closed
if status is None:
    try:  # show where it is stuck, to make a failure diagnosable
        import subprocess
        import termios
        lflag = termios.tcgetattr(fd)[3]
        print("ICANON" if lflag & termios.ICANON else "raw", "ECHO" if lflag & termios.ECHO else "noecho", repr(seen[-200:]))
        for f in ("wchan",):
            try: print(f, open(f"/proc/{pid}/{f}").read()[:800])
            except Exception as e: print(f, e)
        r = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 12"],
                           capture_output=True, text=True, timeout=30)
        print(r.stdout[-3000:], r.stderr[-500:])
    except Exception as e:
        print("no backtrace:", e)
    os.kill(pid, 9)
    check(False, "the REPL quits on Ctrl-D")
else:
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "exit status 0 after Ctrl-D")
history = os.path.join(home, ".luafetch_history")
text = open(history, errors="replace").read().replace("\\040", " ") if os.path.exists(history) else ""
check(("40 + 2" in text) != plain, "history saved in ~/.luafetch_history (none without line editing)")
if failures:
    print("FAILED: " + "; ".join(failures))
    print(seen.decode(errors="replace")[-2000:])
    sys.exit(1)
print("ok")
