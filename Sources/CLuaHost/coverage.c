/* coverage.c: line coverage of scenario code, recorded in C by the line hook (host.c calls
 * clua_coverage_line for every LUA_HOOKLINE event while coverage is on). Only chunks named `@path`
 * count (the scenario and the modules it requires): the prelude ("=luafetch"), the runtime of
 * imported scenarios ("=swift") and strings given to `load` are skipped at the first byte.
 *
 * Per chunk: a hit count per line and a mark per function entered (by the line it is defined on,
 * which `lua_getinfo("S")` gives with the source). With edges on (explore's guidance), also a
 * 64 KiB map of pairs of consecutive lines (AFL's edges), each a saturating count. Everything is
 * plain malloc'd memory outside the Lua heap: recording never allocates through Lua's allocator,
 * so it charges no units and moves no memory accounting (budgets land where they land without it).
 * The counts are one run's: the host reads them after the run (LuaState.swift) and clears them. */
#include "CLuaHost.h"
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

typedef struct {
    char *name;          /* the chunk name, with its '@' */
    size_t len;
    uint32_t *lines;     /* hit counts by line number */
    int size;            /* entries of lines and fns */
    uint8_t *fns;        /* 1 where a function defined on that line was entered (0: the main chunk) */
    uint32_t key;        /* a hash of the name: the chunk's part of an edge (the same in every process) */
} Chunk;

struct clua_Coverage {
    Chunk *chunks;
    int n, cap;
    int last;            /* the chunk of the last event, and its source pointer (checked by content) */
    const char *lastSource;
    uint32_t prev;       /* the last location, for edges */
    uint8_t *edges;      /* CLUA_COVERAGE_EDGES counts, or NULL */
};

/* Lines past this are not recorded (a scenario is at most 64 MiB of source, far fewer lines). */
#define MAX_LINE (1 << 24)

clua_Coverage *clua_coverage_start(clua_Host *h, int edges) {
    if (h->cov) return h->cov;
    clua_Coverage *c = calloc(1, sizeof *c);
    if (c == NULL) return NULL;
    c->last = -1;
    if (edges) {
        c->edges = calloc(CLUA_COVERAGE_EDGES, 1);
        if (c->edges == NULL) { free(c); return NULL; }
    }
    h->cov = c;
    return c;
}

void clua_coverage_free(clua_Coverage *c) {
    if (c == NULL) return;
    for (int i = 0; i < c->n; i++) { free(c->chunks[i].name); free(c->chunks[i].lines); free(c->chunks[i].fns); }
    free(c->chunks);
    free(c->edges);
    free(c);
}

void clua_coverage_clear(clua_Coverage *c) {
    for (int i = 0; i < c->n; i++) {
        Chunk *k = &c->chunks[i];
        if (k->size > 0) { memset(k->lines, 0, (size_t)k->size * sizeof(uint32_t)); memset(k->fns, 0, (size_t)k->size); }
    }
    if (c->edges) memset(c->edges, 0, CLUA_COVERAGE_EDGES);
    c->prev = 0;
}

static uint32_t hash(const char *s, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The chunk named `source` (srclen bytes), added when new; -1 when it cannot be kept. */
static int chunk_of(clua_Coverage *c, const char *source, size_t len) {
    if (c->last >= 0 && source == c->lastSource) {
        Chunk *k = &c->chunks[c->last];
        if (k->len == len && memcmp(k->name, source, len) == 0) return c->last;
    }
    for (int i = 0; i < c->n; i++) {
        if (c->chunks[i].len == len && memcmp(c->chunks[i].name, source, len) == 0) {
            c->last = i; c->lastSource = source;
            return i;
        }
    }
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 8;
        Chunk *more = realloc(c->chunks, (size_t)cap * sizeof(Chunk));
        if (more == NULL) return -1;
        c->chunks = more;
        c->cap = cap;
    }
    char *name = malloc(len + 1);
    if (name == NULL) return -1;
    memcpy(name, source, len);
    name[len] = 0;
    Chunk *k = &c->chunks[c->n];
    memset(k, 0, sizeof *k);
    k->name = name;
    k->len = len;
    k->key = hash(source, len);
    c->last = c->n++;
    c->lastSource = source;
    return c->last;
}

/* Room for line `line` (and a function defined there); 0 when it cannot be made. */
static int reach(Chunk *k, int line) {
    if (line < k->size) return 1;
    if (line >= MAX_LINE) return 0;
    int size = k->size ? k->size : 64;
    while (size <= line) size *= 2;
    uint32_t *lines = realloc(k->lines, (size_t)size * sizeof(uint32_t));
    if (lines == NULL) return 0;
    k->lines = lines;
    uint8_t *fns = realloc(k->fns, (size_t)size);
    if (fns == NULL) return 0;
    k->fns = fns;
    memset(k->lines + k->size, 0, (size_t)(size - k->size) * sizeof(uint32_t));
    memset(k->fns + k->size, 0, (size_t)(size - k->size));
    k->size = size;
    return 1;
}

void clua_coverage_line(lua_State *L, lua_Debug *ar, clua_Coverage *c) {
    int line = ar->currentline;
    if (line <= 0 || !lua_getinfo(L, "S", ar) || ar->source == NULL || ar->source[0] != '@') return;
    int i = chunk_of(c, ar->source, ar->srclen);
    if (i < 0) return;
    Chunk *k = &c->chunks[i];
    int defined = ar->linedefined > 0 ? ar->linedefined : 0;
    if (!reach(k, line > defined ? line : defined)) return;
    if (k->lines[line] != UINT32_MAX) k->lines[line]++;
    k->fns[defined] = 1;
    if (c->edges) {
        uint32_t here = k->key ^ ((uint32_t)line * 2654435761u);
        uint32_t e = (here ^ (c->prev >> 1)) & (CLUA_COVERAGE_EDGES - 1);
        if (c->edges[e] != 255) c->edges[e]++;
        c->prev = here;
    }
}

int clua_coverage_count(const clua_Coverage *c) { return c ? c->n : 0; }

const char *clua_coverage_chunk(const clua_Coverage *c, int i, size_t *len, const unsigned int **lines,
                                const unsigned char **fns, int *size) {
    if (c == NULL || i < 0 || i >= c->n) return NULL;
    const Chunk *k = &c->chunks[i];
    *len = k->len;
    *lines = k->lines;
    *fns = k->fns;
    *size = k->size;
    return k->name;
}

const unsigned char *clua_coverage_edges(const clua_Coverage *c) { return c ? c->edges : NULL; }
