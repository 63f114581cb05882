/* arena.c: a lua_State whose whole heap lives in one reserved region, so that it can be saved
 * once and put back in a few microseconds (explore's warm runs: load the scenario once, then
 * restore the state it left for every run, the way a fork server would but without a process).
 *
 * The allocator. One mmap'd region, reserved (not committed) up front. Blocks come from size
 * classes (16-byte steps up to 1 KiB, then powers of two); a freed block goes on its class's free
 * list, a new one is cut from the top. Lua always passes a block's size when it frees or resizes
 * it, so blocks carry no header. A request the region cannot hold goes to malloc (with a small
 * header that links it into a list), so running out of region never changes what Lua sees.
 *
 * Saving and restoring. The save copies the used part of the region and the free-list heads;
 * the restore copies them back, which also forgets everything allocated since. Every pointer in
 * the heap stays valid because the region never moves. A state cannot be saved while any block
 * lives outside the region; blocks malloc'd after the save are freed by the restore. The host
 * record and the Swift side save and restore their own parts (LuaState.swift).
 *
 * Also here: reading and setting the state of math.random (its generator lives in the heap), and
 * computing the state `math.randomseed(n)` leaves, in a scratch state. Uses the Lua 5.4 C API. */
#include "CLuaHost.h"
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include "internal.h"

#define SMALL_STEP 16
#define SMALL_MAX 1024
#define SMALL_CLASSES (SMALL_MAX / SMALL_STEP)      /* classes 0..63: 16..1024 bytes */
#define LARGE_CLASSES 40                              /* classes 64..: 2 KiB, 4 KiB, ... */
#define CLASSES (SMALL_CLASSES + LARGE_CLASSES)

/* A block that lives outside the region (malloc'd), linked so a restore can free it. */
typedef struct Outside {
    struct Outside *prev, *next;
    size_t size;
    size_t pad; /* keeps the payload 16-byte aligned */
} Outside;

struct clua_Arena {
    char *base;
    size_t size;       /* reserved bytes */
    size_t top;        /* bytes cut so far */
    void *free[CLASSES];
    Outside outside;   /* the list of outside blocks (a sentinel) */
    size_t outsideCount;
    lua_State *scratch; /* a plain state for computing math.randomseed's results */
    int directChecked, directSeed; /* whether xoshiro_seed was checked against it, and agreed */
    int avx2;                      /* copies use AVX2 */
    /* the saved image */
    char *saved;
    size_t savedTop;
    void *savedFree[CLASSES];
    int hasSaved;
};

static int has_avx2(void);

static inline int class_of(size_t n, size_t *rounded) {
    if (n <= SMALL_MAX) {
        size_t c = (n + SMALL_STEP - 1) / SMALL_STEP;
        if (c == 0) c = 1;
        *rounded = c * SMALL_STEP;
        return (int)c - 1;
    }
    size_t r = 2048;
    int c = SMALL_CLASSES;
    while (r < n) { r <<= 1; c++; }
    *rounded = r;
    return c;
}

static inline int inside(clua_Arena *a, void *p) {
    return (char *)p >= a->base && (char *)p < a->base + a->size;
}

static void *outside_alloc(clua_Arena *a, size_t n) {
    Outside *o = malloc(sizeof(Outside) + n);
    if (o == NULL) return NULL;
    o->size = n;
    o->next = a->outside.next;
    o->prev = &a->outside;
    a->outside.next->prev = o;
    a->outside.next = o;
    a->outsideCount++;
    return o + 1;
}

static void outside_free(clua_Arena *a, void *p) {
    Outside *o = (Outside *)p - 1;
    o->prev->next = o->next;
    o->next->prev = o->prev;
    a->outsideCount--;
    free(o);
}

static void *arena_get(clua_Arena *a, size_t n) {
    size_t rounded;
    int c = class_of(n, &rounded);
    if (c < CLASSES) {
        void *p = a->free[c];
        if (p != NULL) {
            a->free[c] = *(void **)p;
            return p;
        }
        if (rounded <= a->size - a->top) {
            p = a->base + a->top;
            a->top += rounded;
            return p;
        }
    }
    return outside_alloc(a, n);
}

static void arena_put(clua_Arena *a, void *p, size_t n) {
    if (!inside(a, p)) { outside_free(a, p); return; }
    size_t rounded;
    int c = class_of(n, &rounded);
    *(void **)p = a->free[c];
    a->free[c] = p;
}

void *clua_arena_realloc(clua_Arena *a, void *ptr, size_t osize, size_t nsize) {
    if (nsize == 0) {
        if (ptr != NULL) arena_put(a, ptr, osize);
        return NULL;
    }
    if (ptr == NULL) return arena_get(a, nsize);
    if (inside(a, ptr)) {
        size_t ro, rn;
        int co = class_of(osize, &ro), cn = class_of(nsize, &rn);
        /* Same class, or smaller: keep the block (freed later as the smaller size's class). */
        if (cn <= co) return ptr;
    } else if (nsize <= ((Outside *)ptr - 1)->size) {
        return ptr;
    }
    void *q = arena_get(a, nsize);
    if (q == NULL) return NULL;
    memcpy(q, ptr, osize < nsize ? osize : nsize);
    arena_put(a, ptr, osize);
    return q;
}

clua_Arena *clua_arena_new(size_t reserve) {
    clua_Arena *a = calloc(1, sizeof(clua_Arena));
    if (a == NULL) return NULL;
    void *base = mmap(NULL, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) { free(a); return NULL; }
    a->base = base;
    a->size = reserve;
    a->outside.next = a->outside.prev = &a->outside;
    a->avx2 = has_avx2();
    return a;
}

void clua_arena_delete(clua_Arena *a) {
    if (a == NULL) return;
    while (a->outside.next != &a->outside) outside_free(a, a->outside.next + 1);
    munmap(a->base, a->size);
    if (a->scratch) lua_close(a->scratch);
    free(a->saved);
    free(a);
}

/* MARK: - Saving and restoring */

/* Copies the image in 128-byte chunks with the widest vector moves the machine has (AVX2 when
 * present), then the rest: as fast as memcpy, and counted by callgrind as what it is (memcpy's
 * `rep movsb` counts one instruction per byte). Both ends are 64-byte aligned. */
typedef struct { uint64_t w[16]; } Chunk;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
__attribute__((target("avx2"))) static void copy_chunks_avx2(char *dst, const char *src, size_t chunks) {
    for (size_t i = 0; i < chunks; i++) {
        const __m256i *s = (const __m256i *)(src + i * sizeof(Chunk));
        __m256i *d = (__m256i *)(dst + i * sizeof(Chunk));
        __m256i a = _mm256_load_si256(s), b = _mm256_load_si256(s + 1), c = _mm256_load_si256(s + 2), e = _mm256_load_si256(s + 3);
        _mm256_store_si256(d, a); _mm256_store_si256(d + 1, b); _mm256_store_si256(d + 2, c); _mm256_store_si256(d + 3, e);
    }
}
#endif
static int has_avx2(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

static void copy_image(char *dst, const char *src, size_t n, int avx2) {
    size_t chunks = n / sizeof(Chunk);
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (avx2) {
        copy_chunks_avx2(dst, src, chunks);
    } else
#endif
    {
        Chunk *d = (Chunk *)dst;
        const Chunk *s = (const Chunk *)src;
        for (size_t i = 0; i < chunks; i++) d[i] = s[i];
    }
    size_t done = chunks * sizeof(Chunk);
    if (done < n) memcpy(dst + done, src + done, n - done);
}

int clua_arena_save(clua_Arena *a) {
    if (a->outsideCount != 0) return -1;
    char *copy = NULL;
    if (posix_memalign((void **)&copy, 64, a->top ? a->top : 64) != 0) return -1;
    free(a->saved);
    if (copy == NULL) return -1;
    copy_image(copy, a->base, a->top, a->avx2);
    a->saved = copy;
    a->savedTop = a->top;
    memcpy(a->savedFree, a->free, sizeof(a->free));
    a->hasSaved = 1;
    return 0;
}

int clua_arena_restore(clua_Arena *a) {
    if (!a->hasSaved) return -1;
    while (a->outside.next != &a->outside) outside_free(a, a->outside.next + 1);
    copy_image(a->base, a->saved, a->savedTop, a->avx2);
    a->top = a->savedTop;
    memcpy(a->free, a->savedFree, sizeof(a->free));
    return 0;
}


/* MARK: - math.random's state */

/* The generator's state: math.random's first upvalue (a userdata), or NULL. */
static void *random_state(lua_State *L, size_t *size) {
    void *p = NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushliteral(L, LUA_MATHLIBNAME);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_istable(L, -1)) {
        lua_pushliteral(L, "random");
        lua_rawget(L, -2);
        if (lua_iscfunction(L, -1) && lua_getupvalue(L, -1, 1) != NULL) {
            if (lua_type(L, -1) == LUA_TUSERDATA) {
                p = lua_touserdata(L, -1);
                *size = lua_rawlen(L, -1);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return p;
}

void clua_note_random(lua_State *L) {
    clua_Host *h = clua_host(L);
    h->randState = random_state(L, &h->randSize);
}

size_t clua_get_random(lua_State *L, void *out, size_t cap) {
    clua_Host *h = clua_host(L);
    if (h->randState == NULL || h->randSize > cap) return 0;
    memcpy(out, h->randState, h->randSize);
    return h->randSize;
}

static int open_scratch(lua_State *S) {
    luaL_requiref(S, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(S, LUA_MATHLIBNAME, luaopen_math, 1);
    return 0;
}

static int seed_scratch(lua_State *S) {
    lua_Integer n = lua_tointeger(S, 1);
    lua_getglobal(S, LUA_MATHLIBNAME);
    lua_getfield(S, -1, "randomseed");
    lua_pushinteger(S, n);
    lua_call(S, 1, 0);
    return 0;
}

/* What Lua 5.4's math.randomseed(n) leaves in its xoshiro256** state, computed directly: the
 * state {n, 0xff, 0, 0} with its first 16 outputs discarded. Used only once a first call, made in
 * the scratch state, found that it agrees with Lua's own (directSeed). */
static inline uint64_t rotl64(uint64_t x, int n) { return (x << n) | (x >> (64 - n)); }
static void xoshiro_seed(uint64_t s[4], uint64_t n) {
    s[0] = n; s[1] = 0xff; s[2] = 0; s[3] = 0;
    for (int i = 0; i < 16; i++) {
        uint64_t t = s[1] << 17;
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
        s[2] ^= t; s[3] = rotl64(s[3], 45);
    }
}

size_t clua_seeded_random(lua_State *L, lua_Integer seed, void *out, size_t cap) {
    clua_Host *h = L ? clua_host(L) : NULL;
    if (h && h->arena && h->arena->directSeed && cap >= sizeof(uint64_t[4])) {
        uint64_t s[4];
        xoshiro_seed(s, (uint64_t)seed);
        memcpy(out, s, sizeof s);
        return sizeof s;
    }
    lua_State *S = h && h->arena ? h->arena->scratch : NULL;
    if (S == NULL) {
        S = luaL_newstate();
        if (S == NULL) return 0;
        lua_pushcfunction(S, open_scratch);
        if (lua_pcall(S, 0, 0, 0) != LUA_OK) { lua_close(S); return 0; }
        if (h && h->arena) h->arena->scratch = S;
    }
    size_t got = 0;
    lua_pushcfunction(S, seed_scratch);
    lua_pushinteger(S, seed);
    if (lua_pcall(S, 1, 0, 0) == LUA_OK) {
        size_t size = 0;
        void *p = random_state(S, &size);
        if (p != NULL && size <= cap) { memcpy(out, p, size); got = size; }
    }
    lua_settop(S, 0);
    if (!(h && h->arena)) lua_close(S);
    /* The direct computation is used from now on when it agrees with Lua's own. */
    if (h && h->arena && !h->arena->directChecked) {
        h->arena->directChecked = 1;
        uint64_t s[4];
        xoshiro_seed(s, (uint64_t)seed);
        h->arena->directSeed = got == sizeof s && memcmp(s, out, sizeof s) == 0;
    }
    return got;
}

void clua_reseed_random(lua_State *L, lua_Integer seed) {
    clua_Host *h = clua_host(L);
    unsigned char buf[64];
    if (h->randState == NULL || h->randSize > sizeof buf) return;
    if (clua_seeded_random(L, seed, buf, sizeof buf) == h->randSize) memcpy(h->randState, buf, h->randSize);
}
