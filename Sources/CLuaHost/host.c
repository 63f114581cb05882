/* host.c: the host record of a lua_State and everything that enforces luafetch's limits on it.
 *
 * Units. A budget counts units: one Lua VM instruction is one unit, and C code that works for the
 * scenario charges units for its work (libs.c, patterns.c, 16 bytes allocated = 1 unit, host-side
 * copies and searches). Every charge depends only on what the scenario does, so a kill lands at
 * the same point on every run and every machine (SPEC 2, 11).
 *
 * Eager and lazy. In eager mode the count hook runs every `step` instructions and counts exactly.
 * In Lua 5.4 any count hook routes every instruction through the hook machinery (about 18 % of a
 * busy event loop), so `luafetch run` starts lazily: no hook, and a CPU-time watchdog (a timer
 * signal aimed at this thread) that trips when a handler call is still running at two ticks, or
 * when the whole run has used `tripMs` of CPU. A tripped run stops at once (CLUA_KILL_RESTART) and
 * the command line redoes it eagerly from the start, skipping the output it already printed; so a
 * kill only ever happens in eager mode, at an exact count. The thresholds sit far below what a
 * budget can spend in that time, so a lazy run that finishes untripped could not have been
 * killed.
 *
 * Stickiness. A kill sets a count hook of 1 on the running coroutine (and the handler thread): the
 * next instruction yields the handler thread to the host, or raises again in a nested coroutine, so
 * `pcall` cannot swallow it; the coroutine.resume wrapper carries it to the resuming thread.
 *
 * Coverage. While coverage is on (coverage.c), every hook this file sets also carries
 * LUA_MASKLINE, and where none would be set (lazy, or no budget) a line-only hook is. Lua counts
 * the instructions of a count hook whatever else the mask holds, and a line event only records (it
 * never charges, decides or yields), so every kill lands on the same instruction with or without it. */
#include "CLuaHost.h"
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <pthread.h>
#if defined(__linux__)
#include <unistd.h>
#include <sys/syscall.h>
#endif
#include "internal.h"

/* What the host's own work costs the run, in units. A unit is worth what an eagerly counted VM
 * instruction costs (about 77 machine instructions under the count hook, 3 to 5 ns on CI's
 * machine); each figure below was set from `bench/costs.py` (issue 40), which times a loop of
 * each kind of work to the run's limit and takes the worst case, not the average: a handler call
 * through the event loop, a call of a luafetch function (the trampoline, Swift's dispatch and its
 * reference counting, the arguments read and the results made). */
#define CLUA_CALL_UNITS 64
#define CLUA_HOST_UNITS 64
/* Allocation: a block (malloc, its free, the collector's sweep of it and its share of the marking
 * that Lua paces by allocation: a live heap of many small objects is marked again every cycle), a
 * new short string on top of that (the number formatted or the bytes hashed and interned before
 * it: Lua makes a string only when it is new), and one unit per 2^CLUA_BYTE_SHIFT bytes (the copy:
 * a long string's bytes are neither hashed nor marked, so more per byte would make a handler that
 * fills memory pass its instruction budget before the memory cap). */
#define CLUA_BLOCK_UNITS 32  /* 20 until issue 40's release fuzz batch: 10^5 small tables freed per event were 1.56x the VM loop */
#define CLUA_STRING_UNITS 48
#define CLUA_BYTE_SHIFT 4

clua_Host *clua_host(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (clua_Host *)ud;
}

static void hook(lua_State *L, lua_Debug *ar);
static int trampoline(lua_State *L);
/* The state whose scenario code this thread runs (the last one made or armed here): where the
 * numbers Lua formats are charged (clua_charge_formatting). */
static __thread clua_Host *formatting;
static void note_return(lua_State *L, clua_Host *h, lua_Debug *ar);

/* LUA_MASKLINE while coverage is on, else 0: or'ed into every mask this file sets. */
static inline int linemask(const clua_Host *h) { return h->cov ? LUA_MASKLINE : 0; }

/* A thread's hook when no count hook is wanted: none, or the line hook (coverage) and the return
 * hook (`ret`: a watched handler) alone. */
static inline void quiet_hook(lua_State *co, const clua_Host *h, int ret) {
    int mask = linemask(h) | ret;
    /* A reused thread usually has no hook already: setting none again would only cost a call. */
    if (mask == 0 && lua_gethook(co) == NULL) return;
    lua_sethook(co, mask ? hook : NULL, mask, 0);
}

/* MARK: - Where a kill happened */

/* The first scenario line (an `@` chunk) on the stack of `at`, from `level` up. */
static int scenario_frame(lua_State *at, int level, lua_Debug *ar) {
    for (; level < 64 && lua_getstack(at, level, ar); level++) {
        if (lua_getinfo(at, "Sl", ar) && ar->currentline > 0 && ar->source[0] == '@') return 1;
    }
    return 0;
}

static void note_where(clua_Host *h, lua_State *L) {
    if (h->killSource != NULL) return;
    lua_State *at = L ? L : (h->current ? h->current : h->top);
    if (at == NULL) return;
    lua_Debug ar;
    if (scenario_frame(at, 0, &ar) || (h->top && h->top != at && scenario_frame(h->top, 0, &ar))) {
        h->killSource = ar.source;
        h->killLine = ar.currentline;
    }
}

static const char *kill_message(int kind) {
    switch (kind) {
    case CLUA_KILL_MEMORY: return "not enough memory (luafetch memory cap)";
    case CLUA_KILL_INTERRUPT: return "interrupted!";
    default: return "handler stopped by luafetch";
    }
}

/* Arms the count-1 hook on the running coroutine and the handler thread. */
static void make_sticky(lua_State *L, clua_Host *h) {
    int mask = LUA_MASKCOUNT | linemask(h);
    if (L) lua_sethook(L, hook, mask, 1);
    lua_State *c = h->current, *t = h->top;
    if (c && c != L) lua_sethook(c, hook, mask, 1);
    if (t && t != L && t != c) lua_sethook(t, hook, mask, 1);
}

/* Decides a kill of this kind (unless one is decided already) and makes it sticky. */
static void decide(lua_State *L, clua_Host *h, int kind) {
    if (h->killed != CLUA_KILL_NONE) return;
    h->killed = kind;
    note_where(h, L);
    make_sticky(L, h);
}

int clua_kill_here(lua_State *L, clua_Host *h) {
    if (L == h->top && lua_isyieldable(L)) return lua_yield(L, 0);
    lua_pushstring(L, kill_message(h->killed));
    return lua_error(L);
}

/* The kill kind a spend of units leads to, or NONE. */
static int over(clua_Host *h) {
    if (h->lazy) {
        /* Lazy counts hold only charges, never more than eager would: past half a limit (the
         * instructions not counted could make up the rest), redo exactly. */
        if ((h->budget > 0 && h->spent > h->budget / 2) || (h->totalBudget > 0 && h->total > h->totalBudget / 2)) {
            h->tripped = 1;
            return CLUA_KILL_RESTART;
        }
        return CLUA_KILL_NONE;
    }
    if (h->budget > 0 && h->spent > h->budget) return CLUA_KILL_BUDGET;
    if (h->totalBudget > 0 && h->total > h->totalBudget) return CLUA_KILL_TOTAL;
    return CLUA_KILL_NONE;
}

/* Decides the kill a spend that passed a limit leads to (unless one is decided already); the
 * rare path of a charge checked inline. Returns the kill decided, or NONE. */
static __attribute__((noinline)) int decide_over(lua_State *L, clua_Host *h) {
    if (h->killed != CLUA_KILL_NONE) return CLUA_KILL_NONE;
    int kind = over(h);
    if (kind != CLUA_KILL_NONE) decide(L, h, kind);
    return kind;
}

int clua_charge(lua_State *L, long long units) {
    clua_Host *h = clua_host(L);
    if (h->top == NULL) return CLUA_KILL_NONE; /* no scenario code is running */
    if (units < 0) units = 0;
    /* Work refused is not spent: a charge that passes a limit counts only up to just past it (the
     * caller stops before doing the work), so one huge refused call does not use up the run. */
    long long room = 1LL << 60;
    if (h->budget > 0 && h->budget - h->spent + 1 < room) room = h->budget - h->spent + 1;
    if (h->totalBudget > 0 && h->totalBudget - h->total + 1 < room) room = h->totalBudget - h->total + 1;
    if (room < 0) room = 0;
    if (units > room) units = room;
    h->spent += units;
    h->total += units;
    if (h->killed != CLUA_KILL_NONE) return h->killed;
    int kind = over(h);
    if (kind != CLUA_KILL_NONE) decide(h->current ? h->current : L, h, kind);
    return kind;
}

int clua_charge_total(lua_State *L, long long units) {
    clua_Host *h = clua_host(L);
    if (units <= 0) return CLUA_KILL_NONE;
    long long limit = h->totalBudget;
    /* As for clua_charge: a charge that passes the limit counts only up to just past it. */
    if (limit > 0 && units > limit - h->total + 1) units = limit - h->total + 1 > 0 ? limit - h->total + 1 : 0;
    h->total += units;
    if (h->top == NULL) return CLUA_KILL_NONE; /* between handlers: the next handler call decides */
    if (h->killed != CLUA_KILL_NONE) return h->killed;
    if (limit > 0 && h->total > (h->lazy ? limit / 2 : limit)) return decide_over(h->current ? h->current : L, h);
    return CLUA_KILL_NONE;
}

int clua_charge_run_or_raise(lua_State *L, long long units) {
    if (clua_charge_total(L, units) != CLUA_KILL_NONE) return clua_kill_here(L, clua_host(L));
    return 0;
}

int clua_charge_or_raise(lua_State *L, long long units) {
    if (clua_charge(L, units) != CLUA_KILL_NONE) {
        lua_pushstring(L, kill_message(clua_host(L)->killed));
        return lua_error(L);
    }
    return 0;
}

/* MARK: - Allocator with a cap */

static void refuse(clua_Host *h) {
    if (!h->memoryHit) note_where(h, NULL);
    h->memoryHit = 1;
    /* The next instruction of the handler runs the hook, which makes the kill sticky. */
    make_sticky(NULL, h);
}

/* Charges work done inside the VM, where nothing may raise (an allocation, a number formatted):
 * while scenario code runs, to the handler and the run, and a limit passed makes the kill sticky
 * (the next instruction's hook stops it); while a luafetch function works for the scenario (its
 * results, the values it keeps), to the run only (as clua_charge_total: the next check decides). */
static inline void charge_quietly(clua_Host *h, long long units) {
    if (h->enforce) {
        h->spent += units;
        h->total += units;
        if (h->killed == CLUA_KILL_NONE && over(h) != CLUA_KILL_NONE) make_sticky(NULL, h);
    } else if (h->top != NULL) {
        h->total += units;
    }
}

static void *alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_Host *h = (clua_Host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (h->arena) clua_arena_realloc(h->arena, ptr, osize, 0);
        else free(ptr);
        h->used -= old;
        return NULL;
    }
    if (nsize > old) {
        /* A new object's type is in osize (Lua 5.4's allocation tag): a string is made only when
         * it is new, so its tag also marks the formatting and hashing done before it. */
        long long units = CLUA_BLOCK_UNITS + (long long)((nsize - old) >> CLUA_BYTE_SHIFT);
        if (ptr == NULL && osize == LUA_TSTRING) units += CLUA_STRING_UNITS;
        if (h->enforce && h->cap > 0 && h->used + h->hostBytes + (nsize - old) > h->cap) {
            refuse(h);
            return NULL;
        }
        charge_quietly(h, units);
    }
    void *p = h->arena ? clua_arena_realloc(h->arena, ptr, old, nsize) : realloc(ptr, nsize);
    if (p == NULL) return NULL;
    h->used = h->used - old + nsize;
    return p;
}

int clua_account(lua_State *L, long long bytes) {
    clua_Host *h = clua_host(L);
    if (bytes < 0) {
        size_t b = (size_t)(-bytes);
        h->hostBytes = b > h->hostBytes ? 0 : h->hostBytes - b;
        return 0;
    }
    h->hostBytes += (size_t)bytes;
    if (h->cap > 0 && h->used + h->hostBytes > h->cap) {
        if (h->top != NULL) { refuse(h); decide(h->current, h, CLUA_KILL_MEMORY); }
        return 1;
    }
    return 0;
}

/* MARK: - The count hook */

static void hook(lua_State *L, lua_Debug *ar) {
    clua_Host *h = clua_host(L);
    if (ar->event == LUA_HOOKRET) {  /* a watched handler (never counts or kills) */
        if (h->killed == CLUA_KILL_NONE) note_return(L, h, ar);
        return;
    }
    if (ar->event == LUA_HOOKLINE) {
        /* Coverage only: a line event never charges, decides or yields (the count events do). */
        if (h->cov) clua_coverage_line(L, ar, h->cov);
        return;
    }
    if (h->killed == CLUA_KILL_NONE) {
        int kind = CLUA_KILL_NONE;
        if (!h->lazy) {
            int n = lua_gethookcount(L);
            h->spent += n;
            h->total += n;
        }
        if (h->memoryHit) kind = CLUA_KILL_MEMORY;
        else if (h->interrupt && h->interruptible) kind = CLUA_KILL_INTERRUPT;
        else if (h->lazy && h->tripped) kind = CLUA_KILL_RESTART;
        else kind = over(h);
        if (kind == CLUA_KILL_NONE) {
            /* A count-1 hook that was only a check: back to the normal rhythm. */
            if (lua_gethookcount(L) != h->step) {
                int ret = lua_gethookmask(L) & LUA_MASKRET;
                if (h->lazy) quiet_hook(L, h, ret);
                else lua_sethook(L, hook, LUA_MASKCOUNT | linemask(h) | ret, h->step);
            }
            return;
        }
        /* Record the line now (after a hook yield the saved pc points one instruction back),
         * unless a refused allocation already said where the trouble began. */
        if (h->killSource == NULL && lua_getinfo(L, "Sl", ar) && ar->source[0] == '@') {
            h->killSource = ar->source;
            h->killLine = ar->currentline;
        }
        decide(L, h, kind);
    }
    if (L == h->top && lua_isyieldable(L)) { lua_yield(L, 0); return; }
    luaL_error(L, "%s", kill_message(h->killed));
}

void clua_arm(lua_State *co, clua_Host *h) {
    formatting = h;
    h->top = co;
    h->current = co;
    h->spent = 0;
    h->serial++;
    /* The host's own work to call a handler counts toward the run, and is checked here: a handler
     * shorter than the hook's step is never seen by the hook, so without this check thousands of
     * tiny handlers would never meet the run's limit (lazy: past half of it, redo exactly). A
     * limit passed here stops the handler at its first instruction (the sticky hook decide sets),
     * the same one on every run. */
    h->total += CLUA_CALL_UNITS;
    long long limit = h->totalBudget;
    if (limit > 0 && h->total > (h->lazy ? limit / 2 : limit) && decide_over(co, h) != CLUA_KILL_NONE) return;
    int ret = 0;
    if (h->watch.count > 0) {  /* a watched run: nothing recorded yet */
        ret = LUA_MASKRET;
        h->watch.source = NULL;
        h->watch.line = 0;
        h->watch.endSource = NULL;
        h->watch.endLine = 0;
        h->watch.endDepth = 0;
        h->watch.floor = 0;
    }
    if (h->lazy) {
        if (h->tripped || h->memoryHit) lua_sethook(co, hook, LUA_MASKCOUNT | linemask(h), 1);
        else quiet_hook(co, h, ret);
    } else if (h->budget > 0 || h->totalBudget > 0 || h->cap > 0 || h->interruptible) {
        lua_sethook(co, hook, LUA_MASKCOUNT | linemask(h) | ret, h->step);
    } else {
        quiet_hook(co, h, ret);
    }
}

void clua_rearm(lua_State *co, clua_Host *h) {
    formatting = h;
    h->serial++;
    h->top = co;
    h->current = co;
    int ret = h->watch.count > 0 ? LUA_MASKRET : 0;  /* the outer handler's watch, restored by the host */
    if (h->lazy) {
        if (h->tripped) lua_sethook(co, hook, LUA_MASKCOUNT | linemask(h), 1);
    } else if (h->budget > 0 || h->totalBudget > 0 || h->cap > 0 || h->interruptible) {
        lua_sethook(co, hook, LUA_MASKCOUNT | linemask(h) | ret, h->step);
    }
}

void clua_settle(clua_Host *h) {
    h->top = NULL;
    h->current = NULL;
    h->serial++;
}

/* MARK: - The lazy watchdog */

static __thread clua_Host *watched;

static void tick(int sig, siginfo_t *info, void *context) {
    (void)sig; (void)info; (void)context;
    clua_Host *h = watched;
    if (h == NULL || !h->lazy) return;
    h->ticks++;
    int doubt = (h->top != NULL && h->serial == h->seenSerial) || (h->tripTicks > 0 && h->ticks >= h->tripTicks);
    h->seenSerial = h->serial;
    if (doubt) h->tripped = 1;
    if (h->tripped) {
        lua_State *c = h->current, *t = h->top;
        if (c) lua_sethook(c, hook, LUA_MASKCOUNT | linemask(h), 1);
        if (t && t != c) lua_sethook(t, hook, LUA_MASKCOUNT | linemask(h), 1);
    }
}

int clua_start_watchdog(clua_Host *h, long periodMs, long tripMs) {
#if defined(__linux__)
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = tick;
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0) return -1;
    clockid_t cpu;
    if (pthread_getcpuclockid(pthread_self(), &cpu) != 0) return -1;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    timer_t *timer = malloc(sizeof(timer_t));
    if (timer == NULL) return -1;
    /* The thread's CPU clock; where timers on it are not supported (valgrind), the process's, which
     * is the same for `luafetch run` (one thread runs Lua). */
    if (timer_create(cpu, &sev, timer) != 0 && timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, timer) != 0) {
        free(timer);
        return -1;
    }
    struct itimerspec its;
    its.it_interval.tv_sec = periodMs / 1000;
    its.it_interval.tv_nsec = (periodMs % 1000) * 1000000L;
    its.it_value = its.it_interval;
    h->tripTicks = tripMs / (periodMs > 0 ? periodMs : 1);
    h->lazy = 1;
    watched = h;
    if (timer_settime(*timer, 0, &its, NULL) != 0) {
        watched = NULL;
        h->lazy = 0;
        timer_delete(*timer);
        free(timer);
        return -1;
    }
    h->timer = timer;
    return 0;
#else
    (void)h; (void)periodMs; (void)tripMs;
    return -1; /* elsewhere the budget is eager */
#endif
}

static void stop_watchdog(clua_Host *h) {
#if defined(__linux__)
    if (watched == h) watched = NULL; /* a tick still pending finds nothing to touch */
    if (h->timer != NULL) {
        timer_delete(*(timer_t *)h->timer);
        free(h->timer);
        h->timer = NULL;
    }
#endif
    h->lazy = 0;
}

/* MARK: - Numbers formatted (formatting.c) */

void clua_charge_formatting(long long units) {
    clua_Host *h = formatting;
    if (h != NULL) charge_quietly(h, units);
}

/* MARK: - The state */

lua_State *clua_newstate(clua_Host *h) {
    lua_State *L = lua_newstate(alloc, h);
    if (L != NULL) formatting = h;
    return L;
}

lua_State *clua_newstate_arena(clua_Host *h, size_t reserve) {
    h->arena = clua_arena_new(reserve);
    if (h->arena == NULL) return NULL;
    lua_State *L = lua_newstate(alloc, h);
    if (L == NULL) { clua_arena_delete(h->arena); h->arena = NULL; }
    else formatting = h;
    return L;
}

void clua_close(lua_State *L) {
    clua_Host *h = clua_host(L);
    stop_watchdog(h);
    h->enforce = 0;
    h->top = NULL;
    h->current = NULL;
    lua_close(L);
    if (formatting == h) formatting = NULL;
    if (h->arena) { clua_arena_delete(h->arena); h->arena = NULL; }
    clua_coverage_free(h->cov);
    h->cov = NULL;
}

/* MARK: - coroutine.resume */

/* coroutine.resume around Lua's own (upvalue 1): the resumed coroutine gets the caller's hook and
 * becomes `current` while it runs, so a watchdog tick or a kill reaches the thread that is actually
 * looping, however deep; a kill decided inside it continues in the caller. */
static int coresume(lua_State *L) {
    clua_Host *h = clua_host(L);
    lua_State *co = lua_tothread(L, 1);
    if (co == NULL) return luaL_typeerror(L, 1, "coroutine");
    if (h->killed != CLUA_KILL_NONE) return clua_kill_here(L, h);
    if (lua_gethook(L) != NULL) lua_sethook(co, lua_gethook(L), lua_gethookmask(L), lua_gethookcount(L));
    else if (lua_gethook(co) != NULL) lua_sethook(co, NULL, 0, 0);
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_State *caller = h->current;
    h->current = co;
    int status = lua_pcall(L, n, LUA_MULTRET, 0);
    h->current = caller;
    if (h->killed != CLUA_KILL_NONE) {
        lua_sethook(L, hook, LUA_MASKCOUNT | linemask(h), 1);
        return clua_kill_here(L, h);
    }
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

/* MARK: - Where code holding a completion returned
 *
 * A completion handler (fetch, push, URL-session events) is a Swift closure: a box; a BGTask's is its
 * task object, a table, held when a frame reaches that very table. While one is pending, the host
 * watches the handlers that can reach it (clua_watch_reach on the function and its arguments, or
 * on a parked thread's frames) with a return hook: at each return of a scenario
 * function that holds one (in a local, a parameter or an upvalue), it records the line. A
 * `return` statement is the path that ended without calling the handler (the last one counts: an
 * early return in a callee, then its caller's end, names the callee's); without one, the
 * outermost function's end (the handler returned with the work started). Reaching is bounded (a
 * few levels, tables of at most 32 entries) and never depends on a table's order.
 *
 * Holding directly or through a closure. A frame holds a box directly when the box is one of its
 * locals or upvalues, or in a table they reach; it holds it through a closure when only a Lua
 * function it has (a `completion` parameter whose upvalues hold the task) reaches it. The frame
 * that holds it directly is the code responsible for it: once such a frame has returned, a frame
 * it ran inside that holds the box only through a closure (the helper that called
 * `completion(...)` and then returned) is not where the code stopped, and does not count.
 * `watch.floor` finds those frames: the depth of the last direct holder that returned, lowered to
 * each return below it since (a frame returning below it was on the stack when it returned). */

#define WATCH_TABLE_MAX 32

/* The watched boxes `idx` reaches within `depth` levels, as a bit mask: the boxes it holds itself
 * (the value, or in the tables it reaches) are returned; those it reaches only through a Lua
 * function's upvalues (a closure that holds them) are or'ed into *closures. */
static int reach(lua_State *L, int idx, clua_Host *h, int depth, int *closures) {
    idx = lua_absindex(L, idx);
    int mask = 0;
    switch (lua_type(L, idx)) {
    case LUA_TFUNCTION:
        if (lua_iscfunction(L, idx)) {
            if (lua_tocfunction(L, idx) != trampoline || lua_getupvalue(L, idx, 1) == NULL) return 0;
            void **slot = (void **)lua_touserdata(L, -1);
            lua_pop(L, 1);
            if (slot != NULL)
                for (int i = 0; i < h->watch.count; i++) if (*slot == h->watch.boxes[i]) mask |= 1 << i;
            return mask;
        }
        if (depth <= 0) return 0;
        for (int i = 1; i <= 255; i++) {
            const char *name = lua_getupvalue(L, idx, i);
            if (name == NULL) break;
            if (strcmp(name, "_ENV") != 0) *closures |= reach(L, -1, h, depth - 1, closures);
            lua_pop(L, 1);
        }
        return 0;
    case LUA_TTABLE: {
        /* A watched table (a BGTask's object) is held by identity; tables are also looked into. */
        const void *p = lua_topointer(L, idx);
        for (int i = 0; i < h->watch.count; i++) if (p == h->watch.boxes[i]) mask |= 1 << i;
        if (depth <= 0) return mask;
        int n = 0;
        lua_pushnil(L);
        while (lua_next(L, idx) != 0) {
            if (++n > WATCH_TABLE_MAX) { lua_pop(L, 2); return mask; }  /* too big: never looked into */
            mask |= reach(L, -1, h, depth - 1, closures);
            lua_pop(L, 1);
        }
        return mask;
    }
    default:
        return 0;
    }
}

/* The watched boxes the frame `ar` of L holds directly in its locals (parameters included) or its
 * own upvalues; those it holds only through a closure are or'ed into *closures.
 * Its temporaries are not locals: in a hook they are every register of the function, most of them
 * stale values of earlier expressions, so Lua lists them after the named locals and the scan stops
 * there (scanning them cost most of a watched return, and a stale register is not holding). */
static int frame_holds(lua_State *L, lua_Debug *ar, clua_Host *h, int *closures) {
    int mask = 0;
    for (int i = 1; ; i++) {
        const char *name = lua_getlocal(L, ar, i);
        if (name == NULL) break;
        if (name[0] == '(' && (strcmp(name, "(temporary)") == 0 || strcmp(name, "(C temporary)") == 0)) {
            lua_pop(L, 1);
            break;
        }
        mask |= reach(L, -1, h, 2, closures);
        lua_pop(L, 1);
    }
    if (lua_getinfo(L, "f", ar)) {  /* its own upvalues are as near as its locals */
        for (int i = 1; i <= 255; i++) {
            const char *name = lua_getupvalue(L, -1, i);
            if (name == NULL) break;
            if (strcmp(name, "_ENV") != 0) mask |= reach(L, -1, h, 2, closures);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return mask;
}

int clua_watch_reach(lua_State *co, clua_Host *h) {
    if (h->watch.count <= 0) return 0;
    if (!lua_checkstack(co, 8)) return 0;
    int mask = 0, closures = 0;
    lua_Debug ar;
    if (lua_status(co) == LUA_YIELD) {
        for (int level = 0; level < 64 && lua_getstack(co, level, &ar); level++) mask |= frame_holds(co, &ar, h, &closures);
    } else {
        int top = lua_gettop(co);
        for (int i = 1; i <= top; i++) mask |= reach(co, i, h, 3, &closures);
    }
    return mask | closures;
}

/* The frames below the running one on L (at most 200). */
static int stack_depth(lua_State *L) {
    int depth = 0;
    lua_Debug up;
    while (depth < 200 && lua_getstack(L, depth + 1, &up)) depth++;
    return depth;
}

static void note_return(lua_State *L, clua_Host *h, lua_Debug *ar) {
    if (h->watch.count <= 0 || L != h->top) return;
    /* Below every frame that returned since the last direct holder did: a frame it ran inside. */
    lua_Debug up;
    int around = h->watch.floor > 0 && !lua_getstack(L, h->watch.floor, &up);
    int depth = -1;
    if (around) h->watch.floor = depth = stack_depth(L);
    if (!lua_getinfo(L, "Sl", ar) || ar->source == NULL || ar->source[0] != '@' || ar->currentline <= 0) return;
    int closures = 0;
    int direct = frame_holds(L, ar, h, &closures) != 0;
    if (!direct) {
        if (closures != 0) {
            if (around) return;  /* the closure that held it directly ran inside this frame: its line */
        } else {
            /* Watching the handler itself (an expiration handler, its box a sentinel nothing
             * holds): its own outermost frame. */
            if (!h->watch.own || lua_getstack(L, 1, &up)) return;
            direct = 1;
        }
    }
    if (depth < 0 && (direct || ar->currentline == ar->lastlinedefined)) depth = stack_depth(L);
    if (direct) h->watch.floor = depth;
    if (ar->currentline != ar->lastlinedefined) {  /* a return statement */
        h->watch.source = ar->source;
        h->watch.line = ar->currentline;
        return;
    }
    if (h->watch.endSource != NULL && depth > h->watch.endDepth) return;
    h->watch.endSource = ar->source;
    h->watch.endLine = ar->currentline;
    h->watch.endDepth = depth;
}

/* MARK: - Swift closures */

static int trampoline(lua_State *L) {
    clua_Host *h = clua_host(L);
    void **slot = (void **)lua_touserdata(L, lua_upvalueindex(1));
    if (h->top != NULL) {
        /* A call of a luafetch function counts toward the run; past a limit it is not made. */
        h->total += CLUA_HOST_UNITS;
        long long limit = h->totalBudget;
        if (limit > 0 && h->total > (h->lazy ? limit / 2 : limit) && decide_over(L, h) != CLUA_KILL_NONE) return clua_kill_here(L, h);
    }
    int saved = h->enforce;
    h->enforce = 0; /* host code never sees a refused allocation */
    int r = h->dispatch(L, slot ? *slot : NULL);
    h->enforce = saved;
    if (r >= 0 && h->killed == CLUA_KILL_NONE) return r;
    if (r == CLUA_STATUS_PARK && h->killed == CLUA_KILL_NONE && L == h->top && lua_isyieldable(L)) {
        h->parked = 1;
        return lua_yield(L, 0);
    }
    if (r == CLUA_STATUS_ERROR) return lua_error(L);
    decide(L, h, h->memoryHit ? CLUA_KILL_MEMORY : CLUA_KILL_HOST);
    return clua_kill_here(L, h);
}

static int box_gc(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, 1);
    if (slot && *slot) {
        clua_Host *h = clua_host(L);
        h->release(h->owner, slot[0], slot);
        *slot = NULL;
    }
    return 0;
}

void *clua_pushbox(lua_State *L, void *box) {
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = box;
    if (luaL_newmetatable(L, "luafetch.box")) {
        lua_pushcfunction(L, box_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushliteral(L, "luafetch.box");
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, trampoline, 1);
    return slot;
}

/* MARK: - Message handler */

/* Whether a message starts with `something:LINE:`. */
int clua_has_position(const char *msg) {
    const char *colon = strchr(msg, ':');
    if (colon == NULL || colon == msg) return 0;
    const char *d = colon + 1;
    if (*d < '0' || *d > '9') return 0;
    while (*d >= '0' && *d <= '9') d++;
    return *d == ':';
}

int clua_position_message(lua_State *L, lua_State *at, int level) {
    /* Replaces the error value on the top of L with a string that starts with the scenario line. */
    const char *msg = lua_tostring(L, -1);
    if (msg == NULL) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
    else lua_pushvalue(L, -1);
    lua_remove(L, -2);
    if (clua_has_position(msg)) return 1;
    lua_Debug ar;
    if (scenario_frame(at, level, &ar)) {
        lua_pushfstring(L, "%s:%d: %s", ar.source + 1, ar.currentline, msg);
        lua_remove(L, -2);
    }
    return 1;
}

static int msghandler(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING && lua_type(L, 1) != LUA_TNUMBER) {
        lua_settop(L, 1);
        lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    } else {
        lua_settop(L, 1);
    }
    clua_position_message(L, L, 1);
    luaL_traceback(L, L, lua_tostring(L, -1), 1);
    return 1;
}

void clua_pushmsghandler(lua_State *L) { lua_pushcfunction(L, msghandler); }

/* MARK: - Odds and ends */

static int fullgc(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); return 0; }

void clua_fullgc(lua_State *L) {
    lua_pushcfunction(L, fullgc);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) lua_pop(L, 1);
}

int clua_loadbuffer(lua_State *L, const char *s, size_t n, const char *name) {
    return luaL_loadbufferx(L, s, n, name, "t");
}

int clua_loadbinary(lua_State *L, const char *s, size_t n, const char *name) {
    return luaL_loadbufferx(L, s, n, name, "b");
}

/* Recorded by the test that keeps it current (PreludeBytecodeTests); see prelude_bytecode.c. */
extern const long clua_prelude_release;
extern const unsigned long long clua_prelude_source_hash;
extern const size_t clua_prelude_source_size, clua_prelude_size;
extern const unsigned char clua_prelude_code[];

unsigned long long clua_fnv1a(const char *s, size_t n) {
    unsigned long long h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

int clua_loadprelude(lua_State *L, const char *source, size_t n) {
    if (clua_prelude_release != LUA_VERSION_RELEASE_NUM || clua_prelude_size == 0 ||
        n != clua_prelude_source_size || clua_fnv1a(source, n) != clua_prelude_source_hash) return -1;
    return luaL_loadbufferx(L, (const char *)clua_prelude_code, clua_prelude_size, "=luafetch", "b");
}

const unsigned char *clua_prelude_bytecode(size_t *size, long *release, long *current, unsigned long long *hash) {
    *size = clua_prelude_size; *release = clua_prelude_release; *hash = clua_prelude_source_hash;
    *current = LUA_VERSION_RELEASE_NUM;
    return clua_prelude_code;
}

typedef struct { char *p; size_t n, cap; int failed; } DumpBuffer;

static int dump_writer(lua_State *L, const void *p, size_t size, void *ud) {
    DumpBuffer *b = (DumpBuffer *)ud;
    (void)L;
    if (b->failed) return 1;
    if (b->n + size > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + size) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) { b->failed = 1; return 1; }
        b->p = q; b->cap = cap;
    }
    memcpy(b->p + b->n, p, size);
    b->n += size;
    return 0;
}

char *clua_dump(lua_State *L, size_t *size) {
    DumpBuffer b = { NULL, 0, 0, 0 };
    if (lua_dump(L, dump_writer, &b, 0) != 0 || b.failed) { free(b.p); return NULL; }
    *size = b.n;
    return b.p;
}

void clua_free(void *p) { free(p); }

void clua_openlibs(lua_State *L) {
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 1);
    lua_pop(L, 7);
    clua_note_random(L);
    /* coroutine.resume that carries budgets and kills */
    lua_getglobal(L, "coroutine");
    lua_getfield(L, -1, "resume");
    lua_pushcclosure(L, coresume, 1);
    lua_setfield(L, -2, "resume");
    lua_pop(L, 1);
    clua_install_counted(L);
    clua_install_call_costs(L);
}
