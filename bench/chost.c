/* bench/chost.c: the physical limit for luafetch's event loop. A minimal C host embedding Lua 5.4:
 * CALLBACKS periodic Lua callbacks (each every 1,000 ms of virtual time) in a binary heap keyed by
 * (time, sequence); every popped event lua_pcall's its callback and is pushed back one period later,
 * until EVENTS events ran. Prints "<events> <seconds>". Built by scripts/bench; written for luafetch. */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { long long time; unsigned long long seq; int callback; } Event;

static Event *heap;
static int count;

static int before(const Event *a, const Event *b) {
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void push(Event e) {
    int i = count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!before(&e, &heap[parent])) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = e;
}

static Event pop(void) {
    Event top = heap[0], last = heap[--count];
    int i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= count) break;
        if (child + 1 < count && before(&heap[child + 1], &heap[child])) child++;
        if (!before(&heap[child], &last)) break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = last;
    return top;
}

int main(int argc, char **argv) {
    int callbacks = argc > 1 ? atoi(argv[1]) : 1000;
    long long events = argc > 2 ? atoll(argv[2]) : 1000000;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    if (luaL_dostring(L, "calls = 0\nfunction make() return function() calls = calls + 1 end end") != LUA_OK) return 1;
    int *refs = malloc(sizeof(int) * callbacks);
    heap = malloc(sizeof(Event) * callbacks);
    unsigned long long seq = 0;
    for (int i = 0; i < callbacks; i++) {
        lua_getglobal(L, "make");
        lua_call(L, 0, 1);
        refs[i] = luaL_ref(L, LUA_REGISTRYINDEX);
        push((Event){ 1000, ++seq, i });
    }
    for (long long n = 0; n < events; n++) {
        Event e = pop();
        lua_rawgeti(L, LUA_REGISTRYINDEX, refs[e.callback]);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) return 1;
        push((Event){ e.time + 1000, ++seq, e.callback });
    }
    lua_close(L);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%lld %.6f\n", events, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
