/* CLua: the C side of luafetch's Lua bridge. It provides clua_* inline helpers for Lua's macros,
 * the per-state host record (memory cap, instruction budget, sticky kill flag), the capped
 * allocator, the count hook that yields the running handler, the trampoline that turns a Swift
 * status into lua_error / lua_yield (so no longjmp ever crosses a Swift frame), and the traceback
 * message handler. It uses only the Lua 5.4 C API (lua.h, lauxlib.h, lualib.h). */
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#if defined(__linux__)
#include <unistd.h>
#include <sys/syscall.h>
#endif

/* Statuses a Swift host function returns through the trampoline (>= 0 is a result count). */
#define CLUA_STATUS_ERROR (-1) /* the error value is on the top of the stack: raise it */
#define CLUA_STATUS_YIELD (-2) /* yield the running handler thread with no values */
#define CLUA_STATUS_KILL  (-3) /* the host ended the handler: sticky kill, then yield */

/* Why a handler was killed (the sticky flag). */
#define CLUA_KILL_NONE   0
#define CLUA_KILL_BUDGET 1 /* ran past the instruction budget (endless loop) */
#define CLUA_KILL_MEMORY 2 /* the scenario's memory passed its cap */
#define CLUA_KILL_HOST   3 /* the host ended it (watchdog, crash decided by the simulator) */
#define CLUA_KILL_INTERRUPT 4 /* Ctrl-C in the REPL */

typedef int (*clua_Dispatch)(lua_State *L, void *box);
typedef void (*clua_Release)(void *box);

/* One per lua_State, reachable from any thread through the allocator's userdata. */
typedef struct clua_Host {
    size_t used;          /* bytes allocated now */
    size_t peak;          /* most bytes allocated at once */
    size_t cap;           /* memory cap in bytes (0: none) */
    int enforce;          /* the cap applies only while scenario code runs */
    int memoryHit;        /* sticky: an allocation was refused */
    long long budget;     /* instructions one handler call may run (0: none) */
    long long spent;      /* instructions counted in the current call */
    int step;             /* count-hook granularity */
    int killed;           /* CLUA_KILL_*: sticky until the host clears it */
    lua_State *top;       /* the handler thread the host resumed */
    const char *killSource; /* where the kill happened (a chunk name owned by its function) */
    int killLine;
    volatile int interrupt;   /* set from a SIGINT handler; honoured only while interruptible */
    int interruptible;        /* the REPL is running a typed line */
    int lazy;                 /* arm the count hook only for handlers that run long (see clua_watch_tick) */
    volatile unsigned long serial;     /* bumps at every handler start and return */
    volatile unsigned long seenSerial; /* what the last watchdog tick saw */
    lua_State *nested[32];    /* coroutines the handler is resuming now (coroutine.resume), innermost last */
    volatile int depth;
    clua_Dispatch dispatch;
    clua_Release release;
    void *owner;          /* the Swift LuaState */
} clua_Host;

static inline clua_Host *clua_host(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (clua_Host *)ud;
}

static void clua_hook(lua_State *L, lua_Debug *ar);

/* Records the line the running handler (its innermost coroutine) is at: the first Lua frame. */
static void clua_note_where(clua_Host *h) {
    lua_State *at = (h->depth > 0 && h->depth <= 32) ? h->nested[h->depth - 1] : h->top;
    if (at == NULL) return;
    lua_Debug ar;
    for (int level = 0; level < 16 && lua_getstack(at, level, &ar); level++) {
        if (lua_getinfo(at, "Sl", &ar) && ar.currentline > 0) {
            h->killSource = ar.source;
            h->killLine = ar.currentline;
            return;
        }
    }
}

/* MARK: - Allocator with a cap */

static void *clua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_Host *h = (clua_Host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        h->used -= old;
        return NULL;
    }
    if (nsize > old && h->enforce && h->cap > 0 && h->used + (nsize - old) > h->cap) {
        if (!h->memoryHit && h->killSource == NULL) clua_note_where(h);
        h->memoryHit = 1;
        /* The next instruction of the handler runs the hook, which makes the kill sticky. */
        if (h->top != NULL) lua_sethook(h->top, clua_hook, LUA_MASKCOUNT, 1);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) return NULL;
    h->used = h->used - old + nsize;
    if (h->used > h->peak) h->peak = h->used;
    return p;
}

static inline lua_State *clua_newstate(clua_Host *h) {
    return lua_newstate(clua_alloc, h);
}

/* MARK: - Instruction budget and sticky kill */

static void clua_hook(lua_State *L, lua_Debug *ar);

static inline void clua_make_sticky(lua_State *L, clua_Host *h) {
    lua_sethook(L, clua_hook, LUA_MASKCOUNT, 1);
    if (h->top != NULL && h->top != L) lua_sethook(h->top, clua_hook, LUA_MASKCOUNT, 1);
    for (int i = 0; i < h->depth && i < 32; i++) lua_sethook(h->nested[i], clua_hook, LUA_MASKCOUNT, 1);
}

/* Ends the current handler: yields the handler thread when it can, otherwise raises an error that
 * the next instruction's hook follows up on, so a pcall in the script cannot swallow the kill. */
static inline int clua_kill_here(lua_State *L, clua_Host *h) {
    if (L == h->top && lua_isyieldable(L)) return lua_yield(L, 0);
    lua_pushstring(L, h->killed == CLUA_KILL_MEMORY ? "not enough memory (luafetch memory cap)"
                      : h->killed == CLUA_KILL_INTERRUPT ? "interrupted!" : "handler stopped by luafetch");
    return lua_error(L);
}

static void clua_hook(lua_State *L, lua_Debug *ar) {
    clua_Host *h = clua_host(L);
    if (h->killed == CLUA_KILL_NONE) {
        h->spent += h->step;
        if (h->memoryHit) h->killed = CLUA_KILL_MEMORY;
        else if (h->interrupt && h->interruptible) h->killed = CLUA_KILL_INTERRUPT;
        else if (h->budget > 0 && h->spent > h->budget) h->killed = CLUA_KILL_BUDGET;
        else return;
        /* Record the line now (after a hook yield the saved pc points one instruction back), unless
         * a refused allocation already said where the trouble began. */
        if (h->killSource == NULL && lua_getinfo(L, "Sl", ar)) { h->killSource = ar->source; h->killLine = ar->currentline; }
        clua_make_sticky(L, h);
    }
    if (L == h->top && lua_isyieldable(L)) { lua_yield(L, 0); return; }
    luaL_error(L, h->killed == CLUA_KILL_MEMORY ? "not enough memory (luafetch memory cap)"
                 : h->killed == CLUA_KILL_INTERRUPT ? "interrupted!" : "handler stopped by luafetch");
}

/* Arms the budget on a thread before the host resumes it. In lazy mode the hook stays off (Lua
 * then runs at full speed) until the watchdog sees the same call running at two ticks. */
static inline void clua_arm(lua_State *co, clua_Host *h) {
    h->top = co;
    h->spent = 0;
    h->serial++;
    if (!h->lazy && (h->budget > 0 || h->cap > 0)) lua_sethook(co, clua_hook, LUA_MASKCOUNT, h->step);
    else lua_sethook(co, NULL, 0, 0);
}

/* MARK: - Lazy budget: a CPU-time watchdog on the main thread */

/* Where the watched host lives for a tick that carries no value (the setitimer fallback). A
 * function-local static, because Swift's importer gives a header's file-level statics no storage. */
static inline clua_Host **clua_watched_slot(void) {
    static clua_Host *watched;
    return &watched;
}

/* One watchdog tick (a signal handler on the thread that runs Lua): a call still running since the
 * previous tick gets the count hook, as lua.c's SIGINT handler arms lstop. */
static void clua_watch_tick(int sig, siginfo_t *info, void *context) {
    (void)sig; (void)context;
    clua_Host *h = (info != NULL && info->si_code == SI_TIMER) ? (clua_Host *)info->si_value.sival_ptr
                                                                : *clua_watched_slot();
    if (h == NULL) return;
    if (h->top != NULL && h->serial == h->seenSerial && h->budget > 0) {
        lua_sethook(h->top, clua_hook, LUA_MASKCOUNT, h->step);
        for (int i = 0; i < h->depth && i < 32; i++) lua_sethook(h->nested[i], clua_hook, LUA_MASKCOUNT, h->step);
    }
    h->seenSerial = h->serial;
}

/* coroutine.resume, around Lua's own (upvalue 1): the resumed coroutine gets the caller's hook, and
 * sits on the host's stack of running coroutines while it runs, so a watchdog tick or a kill can
 * reach the thread that is actually looping. */
static int clua_coresume(lua_State *L) {
    clua_Host *h = clua_host(L);
    lua_State *co = lua_tothread(L, 1);
    if (co == NULL) return luaL_typeerror(L, 1, "coroutine");
    if (lua_gethook(L) != NULL) lua_sethook(co, lua_gethook(L), lua_gethookmask(L), lua_gethookcount(L));
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (h->depth < 32) h->nested[h->depth] = co;
    h->depth++;
    int status = lua_pcall(L, n, LUA_MULTRET, 0);
    h->depth--;
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

/* Replaces coroutine.resume with clua_coresume (call once, before the prelude). */
static inline void clua_install_coresume(lua_State *L) {
    lua_getglobal(L, "coroutine");
    lua_getfield(L, -1, "resume");
    lua_pushcclosure(L, clua_coresume, 1);
    lua_setfield(L, -2, "resume");
    lua_pop(L, 1);
}

/* Starts the watchdog: every periodMs of CPU time, a tick aimed at this thread. Returns 0 on success. */
static inline int clua_start_watchdog(clua_Host *h, long periodMs) {
    *clua_watched_slot() = h;
    h->lazy = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = clua_watch_tick;
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0) { h->lazy = 0; return -1; }
    struct itimerspec its;
    its.it_interval.tv_sec = periodMs / 1000;
    its.it_interval.tv_nsec = (periodMs % 1000) * 1000000L;
    its.it_value = its.it_interval;
#if defined(__linux__)
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_value.sival_ptr = h;
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    timer_t timer;
    if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &timer) != 0 || timer_settime(timer, 0, &its, NULL) != 0) {
        h->lazy = 0;
        return -1;
    }
    return 0;
#else
    struct itimerval itv;
    itv.it_interval.tv_sec = its.it_interval.tv_sec;
    itv.it_interval.tv_usec = its.it_interval.tv_nsec / 1000;
    itv.it_value = itv.it_interval;
    if (setitimer(ITIMER_PROF, &itv, NULL) != 0) { h->lazy = 0; return -1; }
    return 0;
#endif
}

/* Re-arms an outer handler thread after a nested call returns to it. */
static inline void clua_rearm(lua_State *co, clua_Host *h) {
    h->serial++;
    if (!h->lazy && (h->budget > 0 || h->cap > 0)) lua_sethook(co, clua_hook, LUA_MASKCOUNT, h->step);
}

/* MARK: - Swift closures: boxed in userdata, called through one trampoline */

static int clua_trampoline(lua_State *L) {
    clua_Host *h = clua_host(L);
    void **slot = (void **)lua_touserdata(L, lua_upvalueindex(1));
    int saved = h->enforce;
    h->enforce = 0; /* host code never sees a refused allocation */
    int r = h->dispatch(L, slot ? *slot : NULL);
    h->enforce = saved;
    if (r >= 0) return r;
    if (r == CLUA_STATUS_YIELD) return lua_yield(L, 0);
    if (r == CLUA_STATUS_KILL) {
        if (h->killed == CLUA_KILL_NONE) h->killed = CLUA_KILL_HOST;
        clua_make_sticky(L, h);
        return clua_kill_here(L, h);
    }
    return lua_error(L);
}

static int clua_box_gc(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, 1);
    if (slot && *slot) {
        clua_host(L)->release(*slot);
        *slot = NULL;
    }
    return 0;
}

/* Pushes a C closure whose upvalue is a userdata holding `box` (released by __gc). */
static inline void clua_pushbox(lua_State *L, void *box) {
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = box;
    if (luaL_newmetatable(L, "luafetch.box")) {
        lua_pushcfunction(L, clua_box_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushliteral(L, "luafetch.box");
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, clua_trampoline, 1);
}

/* MARK: - Message handler (as lua.c's msghandler) */

static int clua_msghandler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static inline void clua_pushmsghandler(lua_State *L) { lua_pushcfunction(L, clua_msghandler); }

/* MARK: - Macros as functions */

static inline void clua_fullgc(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); }
static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline int clua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline const char *clua_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline lua_Number clua_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
static inline lua_Integer clua_tointeger(lua_State *L, int i) { return lua_tointeger(L, i); }
static inline int clua_isinteger(lua_State *L, int i) { return lua_isinteger(L, i); }
static inline void clua_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void clua_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void clua_replace(lua_State *L, int i) { lua_replace(L, i); }
static inline int clua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void clua_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline int clua_loadbuffer(lua_State *L, const char *s, size_t n, const char *name) {
    return luaL_loadbufferx(L, s, n, name, "t");
}
static inline void clua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }
static inline int clua_resume(lua_State *co, lua_State *from, int nargs, int *nres) {
    return lua_resume(co, from, nargs, nres);
}
static inline void clua_traceback(lua_State *L, lua_State *co, const char *msg, int level) {
    luaL_traceback(L, co, msg, level);
}
static inline void clua_openlibs(lua_State *L) {
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 1);
    lua_pop(L, 7);
}

#endif
