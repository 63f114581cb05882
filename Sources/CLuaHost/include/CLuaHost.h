/* CLuaHost: what Swift sees of luafetch's C side. One host record per lua_State (memory cap,
 * instruction budgets, the sticky kill), the state's allocator, the count hook, the lazy CPU-time
 * watchdog, the trampoline through which every Swift function is called (Swift returns a status;
 * only C raises), counted replacements of the library functions that work in C (patterns,
 * string.rep, table.move, ...), and a capped deep copy. Implemented in host.c, libs.c and
 * patterns.c on top of the Lua 5.4 C API; Swift code never calls lua_error or luaL_check*. */
#ifndef CLUAHOST_H
#define CLUAHOST_H

#include <lua.h>
#include <stddef.h>
#include <signal.h>

/* Statuses a Swift host function returns through the trampoline (>= 0 is a result count). */
#define CLUA_STATUS_ERROR (-1) /* the error value is on the top of the stack: raise it */
#define CLUA_STATUS_KILL  (-3) /* the host ended the handler: sticky kill, then yield */
#define CLUA_STATUS_PARK  (-4) /* the host parks the handler thread (a background thread waits): yield it */

/* Why a handler was killed (the sticky flag). */
#define CLUA_KILL_NONE      0
#define CLUA_KILL_BUDGET    1 /* one call ran past its instruction budget (an endless loop) */
#define CLUA_KILL_MEMORY    2 /* the scenario's memory passed its cap */
#define CLUA_KILL_HOST      3 /* the host ended it (watchdog, crash decided by the simulator) */
#define CLUA_KILL_INTERRUPT 4 /* Ctrl-C in the REPL */
#define CLUA_KILL_TOTAL     5 /* the whole run passed its instruction limit */
#define CLUA_KILL_RESTART   6 /* lazy mode only: the watchdog asks for an exact (eager) rerun */

typedef int (*clua_Dispatch)(lua_State *L, void *box);
/* A box's userdata (at `slot`, as clua_pushbox returned it) was collected. */
typedef void (*clua_Release)(void *owner, void *box, void *slot);
/* A heap that can be saved and restored (arena.c). */
typedef struct clua_Arena clua_Arena;
/* Line coverage of scenario chunks (coverage.c). */
typedef struct clua_Coverage clua_Coverage;

/* Where code holding a completion handler returned (a missed completion's line, host.c): the
 * handlers' boxes that the running handler can reach, and the scenario lines where functions
 * holding one of them returned: the last `return` statement, and the outermost return at a
 * function's end. Chunk names are owned by their functions (read them before the next run). */
#define CLUA_WATCH_MAX 8
typedef struct clua_Watch {
    void *boxes[CLUA_WATCH_MAX];
    int count;               /* 0: the running handler is not watched (unless `self`) */
    int own;                 /* 1: the handler's own function counts as holding (where it returned) */
    const char *source;      /* the last return statement's chunk name, NULL when none */
    int line;
    const char *endSource;   /* the outermost return at a function's `end`, NULL when none */
    int endLine;
    int endDepth;            /* its frames below it on the handler thread */
    int floor;               /* the depth of the last frame holding a box directly that returned,
                                lowered to each return below it since; 0: none (host.c) */
} clua_Watch;

/* One per lua_State, reachable from any coroutine through the allocator's userdata. */
typedef struct clua_Host {
    size_t used;            /* bytes Lua has allocated now */
    size_t hostBytes;       /* host-side memory kept for the scenario, counted against the cap */
    size_t cap;             /* memory cap in bytes (0: none) */
    int enforce;            /* the cap and charges apply only while scenario code runs */
    int memoryHit;          /* sticky: an allocation was refused */
    long long budget;       /* units one handler call may spend (0: none) */
    long long spent;        /* units spent by the current call */
    long long totalBudget;  /* units the whole run may spend (0: none) */
    long long total;        /* units spent by the whole run */
    int step;               /* count-hook granularity (instructions) */
    int killed;             /* CLUA_KILL_*: sticky until the host clears it */
    int parked;             /* the last yield of the handler thread was a park the host asked for */
    lua_State *volatile top;     /* the handler thread the host resumed */
    lua_State *volatile current; /* the innermost coroutine running now (top or a nested resume) */
    const char *killSource; /* where the kill happened (a chunk name owned by its function) */
    int killLine;
    volatile sig_atomic_t interrupt; /* set from a SIGINT handler; honoured while interruptible */
    int interruptible;
    /* The lazy budget (see host.c): no count hook until the watchdog doubts the run. */
    int lazy;
    volatile sig_atomic_t tripped;   /* the watchdog doubted: the run must be redone eagerly */
    volatile unsigned long serial;   /* bumps at every handler start and return */
    volatile unsigned long seenSerial;
    volatile long ticks;
    long tripTicks;                  /* ticks of CPU time after which a whole run is doubted */
    void *timer;                     /* the watchdog's timer (0 when none) */
    clua_Dispatch dispatch;
    clua_Release release;
    void *owner;                     /* the Swift LuaState */
    clua_Arena *arena;               /* the heap's region when it can be saved (0: malloc) */
    void *randState;                 /* math.random's generator state (in the heap), and its size */
    size_t randSize;
    clua_Watch watch;                /* set by the host for the next clua_arm (see clua_watch_reach) */
    clua_Coverage *cov;              /* line coverage while it is on (0: off, and no line hook) */
} clua_Host;

/* The state and its host record. */
lua_State *clua_newstate(clua_Host *h);
/* A state whose heap lives in a region of `reserve` bytes that can be saved and restored; NULL
 * when the region cannot be reserved. clua_close deletes the region too. */
lua_State *clua_newstate_arena(clua_Host *h, size_t reserve);
/* Saves the heap (0; -1 when it cannot be saved now); restores the saved heap (0; -1 when none).
 * The host record is the caller's to save and restore. */
int clua_arena_save(clua_Arena *a);
int clua_arena_restore(clua_Arena *a);
/* math.random's generator: its state now (returns the size copied; 0 when unknown), the state
 * `math.randomseed(seed)` leaves (computed in a scratch state that L's region keeps, or directly
 * once that agreed), and giving the generator that state. */
size_t clua_get_random(lua_State *L, void *out, size_t cap);
size_t clua_seeded_random(lua_State *L, lua_Integer seed, void *out, size_t cap);
void clua_reseed_random(lua_State *L, lua_Integer seed); /* the state math.randomseed(seed) leaves */
void clua_close(lua_State *L);            /* stops the watchdog, then lua_close */
clua_Host *clua_host(lua_State *L);
void clua_openlibs(lua_State *L);         /* the allow-listed libraries, with counted replacements */

/* Budgets. */
void clua_arm(lua_State *co, clua_Host *h);    /* before the host resumes a handler thread */
void clua_rearm(lua_State *co, clua_Host *h);  /* after a nested call returns to an outer thread */
void clua_settle(clua_Host *h);                /* after a handler returned: clear `top` and `current` */
/* Adds `units` to the budgets (host-side work done for the scenario). Returns the kill kind it
 * decided, or CLUA_KILL_NONE; the caller then stops the handler (a Swift host function returns
 * CLUA_STATUS_KILL). */
int clua_charge(lua_State *L, long long units);
/* Host work done for the scenario (a request's life, a walk over its threads): counts toward the
 * run's instruction limit only, not the running handler's budget (it is not the app's time); past
 * the limit while a handler runs, decides the kill (returned), else the next handler call does. */
int clua_charge_total(lua_State *L, long long units);
/* Counts host-side bytes against the cap (negative to release). Returns 1 when the cap is passed. */
int clua_account(lua_State *L, long long bytes);

/* The lazy budget: a CPU-time watchdog on this thread every periodMs; a handler still running at
 * two ticks, or a run past tripMs of CPU time, trips it. Returns 0 on success. */
int clua_start_watchdog(clua_Host *h, long periodMs, long tripMs);

/* Which of h->watch.boxes the thread `co` can reach, as a bit mask: through the values on its
 * stack (a handler about to run: the function and its arguments), or, for a suspended thread,
 * through its frames' functions and locals. Reaching goes through upvalues (not _ENV), small
 * tables (at most 32 entries, whatever their order) and Swift closures (a box), a few levels
 * deep. A thread armed while h->watch.count > 0 records, at every return of a scenario function
 * that holds a watched box (a local or an upvalue), where it returned; a function that reaches it
 * only through a closure does not count once a function holding it directly returned inside it. */
int clua_watch_reach(lua_State *co, clua_Host *h);

/* Swift closures: a C closure with the boxed pointer as upvalue, called through the trampoline. */
void *clua_pushbox(lua_State *L, void *box); /* returns the box's slot (what clua_Release gets) */

/* The traceback message handler (as lua.c's msghandler); it also gives non-string errors and
 * errors raised at level 0 the position of the scenario line that raised them. */
void clua_pushmsghandler(lua_State *L);

/* A protected full garbage collection. */
void clua_fullgc(lua_State *L);

/* Loads a text chunk; returns a Lua status (the chunk or an error message is on the top). */
int clua_loadbuffer(lua_State *L, const char *s, size_t n, const char *name);
/* A chunk compiled earlier by luafetch itself (clua_dump's bytes): binary mode only. */
int clua_loadbinary(lua_State *L, const char *s, size_t n, const char *name);
/* The function on the top of the stack as bytecode with its debug information (malloc'd; free
   with clua_free); NULL when it cannot be dumped. */
char *clua_dump(lua_State *L, size_t *size);
void clua_free(void *p);

/* The prelude compiled when it was last recorded (prelude_bytecode.c): loads it as chunk
 * "=luafetch" when `source` is the source it was compiled from and this Lua release is the one
 * that compiled it; returns a Lua status, or -1 (nothing pushed) when the source must be compiled. */
int clua_loadprelude(lua_State *L, const char *source, size_t n);
/* The recorded bytecode, the Lua release that compiled it, this build's release and the FNV-1a
 * hash of its source (for the test that keeps it current). */
const unsigned char *clua_prelude_bytecode(size_t *size, long *release, long *current, unsigned long long *hash);
unsigned long long clua_fnv1a(const char *s, size_t n);

/* Pushes the C function that deep-copies its argument (tables recursively, cycles kept; only
 * plain data; the cap applies). Call it with lua_pcall. */
void clua_pushcopier(lua_State *L);
void clua_pushplistcopier(lua_State *L); /* the copy of a property list (defaults), raising for anything else */

void clua_pushprimitives(lua_State *L); /* the prelude's C helpers: { charge = fn } */

/* Line coverage (coverage.c). Started on a state before its handlers run (`edges`: also the map of
 * consecutive line pairs explore's guidance reads), it adds a line hook to every handler thread:
 * the line hook only records, never charges or yields, so budgets land where they land without
 * it. Counts are one run's: read them (chunk by chunk), then clear them for the next run. Freed by
 * clua_close. */
#define CLUA_COVERAGE_EDGES (1 << 16)
clua_Coverage *clua_coverage_start(clua_Host *h, int edges);
void clua_coverage_clear(clua_Coverage *c);
int clua_coverage_count(const clua_Coverage *c);
/* Chunk i's name (with its '@', `len` bytes), hit counts by line and functions entered by the line
 * they are defined on (both `size` entries); NULL past the last. */
const char *clua_coverage_chunk(const clua_Coverage *c, int i, size_t *len, const unsigned int **lines,
                                const unsigned char **fns, int *size);
const unsigned char *clua_coverage_edges(const clua_Coverage *c); /* CLUA_COVERAGE_EDGES counts, or NULL */

#endif
