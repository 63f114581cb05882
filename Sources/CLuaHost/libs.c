/* libs.c: the library functions that do work in C, counted (see host.c for units; the factors
 * below were measured against Lua's own functions on CI's machine, where a VM instruction takes
 * about 3.5 ns, and round up: see docs/RELIABILITY.md). Each either
 * charges its work before calling Lua's own function (string.rep, table.move, table.concat,
 * table.sort, the utf8 functions, string.byte/format/pack/unpack, tonumber, rawequal), or is
 * written here because its loop must be counted as it goes (table.insert, table.remove,
 * table.unpack, the deep copy). setmetatable refuses `__gc` (finalizers run where no budget can
 * reach them: inside the collector and at lua_close). Uses the Lua C API and host.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>
#include "internal.h"

static long long clamp_units(double u) {
    if (!(u > 0)) return 0;
    if (u > 1e18) return 1LL << 60;
    return (long long)u;
}

/* Calls the original function (upvalue 1) with every argument; returns its results. Its own
 * errors would name it '?' at no line (it is called from C here): they get the function's name
 * (upvalue 2) and the scenario line that called the wrapper, as a direct call would. */
static int call_original(lua_State *L) {
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (lua_pcall(L, n, LUA_MULTRET, 0) == LUA_OK) return lua_gettop(L);
    if (clua_host(L)->killed == CLUA_KILL_NONE && lua_type(L, -1) == LUA_TSTRING) {
        const char *name = lua_tostring(L, lua_upvalueindex(2));
        const char *msg = lua_tostring(L, -1);
        if (!clua_has_position(msg)) {
            luaL_where(L, 1);
            lua_pushfstring(L, "'%s'", name);
            luaL_gsub(L, msg, "'?'", lua_tostring(L, -1));
            lua_remove(L, -2);
            lua_concat(L, 2);
        }
    }
    return lua_error(L);
}

/* An integer argument, also from a float with an exact integer value (2^40); 0 when none. */
static int int_arg(lua_State *L, int i, lua_Integer *out) {
    int ok = 0;
    lua_Integer v = lua_type(L, i) == LUA_TNUMBER ? lua_tointegerx(L, i, &ok) : 0;
    *out = v;
    return ok;
}

static size_t arg_len(lua_State *L, int i) {
    return lua_type(L, i) == LUA_TSTRING ? lua_rawlen(L, i) : 0;
}

static int rep(lua_State *L) {
    size_t l = arg_len(L, 1), lsep = arg_len(L, 3);
    lua_Integer n;
    if (int_arg(L, 2, &n) && n > 0) clua_charge_or_raise(L, clamp_units((double)n + (double)n * (double)(l + lsep) / 16.0));
    return call_original(L);
}

static int move(lua_State *L) {
    lua_Integer f, e;
    if (int_arg(L, 2, &f) && int_arg(L, 3, &e) && e >= f) clua_charge_or_raise(L, clamp_units(8.0 * ((double)e - (double)f + 1.0)));
    return call_original(L);
}

static int concat(lua_State *L) {
    lua_Integer i, jj;
    if (!int_arg(L, 3, &i)) i = 1;
    double j = int_arg(L, 4, &jj) ? (double)jj : (lua_type(L, 1) == LUA_TTABLE ? (double)lua_rawlen(L, 1) : 0);
    if (j >= (double)i) clua_charge_or_raise(L, clamp_units(12.0 * (j - (double)i + 1.0)));
    return call_original(L);
}

static int sort(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE) {
        double n = (double)lua_rawlen(L, 1);
        if (n > 1) clua_charge_or_raise(L, clamp_units(10.0 * n * log2(n)));
    }
    return call_original(L);
}

static void check_table(lua_State *L, int i) {
    if (lua_type(L, i) != LUA_TTABLE && !lua_getmetatable(L, i)) luaL_checktype(L, i, LUA_TTABLE);
    else if (lua_type(L, i) != LUA_TTABLE) lua_pop(L, 1);
}

static int insert(lua_State *L) {
    check_table(L, 1);
    lua_Integer e = luaL_len(L, 1);
    e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty slot */
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = e;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        clua_charge_or_raise(L, clamp_units(8.0 * ((double)e - (double)pos)));
        for (lua_Integer i = e; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int remove_(lua_State *L) {
    check_table(L, 1);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    lua_geti(L, 1, pos);
    if (size > pos) clua_charge_or_raise(L, clamp_units(8.0 * ((double)size - (double)pos)));
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

static int unpack(lua_State *L) {
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    if (i > e) return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;
    if (n >= (unsigned int)0x7fffffff || !lua_checkstack(L, (int)(++n)))
        return luaL_error(L, "too many results to unpack");
    clua_charge_or_raise(L, 3 * (long long)n);
    for (; i < e; i++) lua_geti(L, 1, i);
    lua_geti(L, 1, e);
    return (int)n;
}

/* Charges the length of string argument `which` divided by `div` (plus one), then calls Lua's. */
static int by_length(lua_State *L) {
    int which = (int)lua_tointeger(L, lua_upvalueindex(3));
    int div = (int)lua_tointeger(L, lua_upvalueindex(4));
    size_t l = arg_len(L, which);
    if (which == 1) l += arg_len(L, 2); /* e.g. string.unpack's data, rawequal's second string */
    clua_charge_or_raise(L, (long long)(l / (size_t)div) + 1);
    return call_original(L);
}

static int byte(lua_State *L) {
    size_t l = arg_len(L, 1);
    lua_Integer i, j;
    if (!int_arg(L, 2, &i)) i = 1;
    if (!int_arg(L, 3, &j)) j = i;
    if (j < 0) j = (lua_Integer)l + j + 1;
    if (i < 0) i = (lua_Integer)l + i + 1;
    if (i < 1) i = 1;
    if (j > (lua_Integer)l) j = (lua_Integer)l;
    clua_charge_or_raise(L, (j >= i ? (long long)(j - i) : 0) + 1);
    return call_original(L);
}

static int set_metatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int t = lua_rawget(L, 2);
        lua_pop(L, 1);
        if (t != LUA_TNIL)
            return luaL_error(L, "a metatable with __gc: luafetch runs no finalizers (they would run outside every "
                                 "budget, at garbage collection and at exit); remove the __gc field");
    }
    return call_original(L);
}

static int charge(lua_State *L) {
    lua_Number n = luaL_checknumber(L, 1);
    clua_charge_or_raise(L, clamp_units(n));
    return 0;
}

/* MARK: - Deep copy */

static void copy_top(lua_State *L, int seen, int depth) {
    if (lua_type(L, -1) != LUA_TTABLE) return;
    lua_pushvalue(L, -1);
    if (lua_rawget(L, seen) != LUA_TNIL) { lua_remove(L, -2); return; }
    lua_pop(L, 1);
    if (depth >= 200) luaL_error(L, "a table nested more than 200 levels deep cannot be copied");
    luaL_checkstack(L, 8, "copy");
    int src = lua_gettop(L);
    lua_createtable(L, (int)(lua_rawlen(L, src) < 1u << 20 ? lua_rawlen(L, src) : 0), 0);
    int dst = src + 1;
    lua_pushvalue(L, src);
    lua_pushvalue(L, dst);
    lua_rawset(L, seen);
    lua_pushnil(L);
    while (lua_next(L, src)) {
        clua_charge_or_raise(L, 20);
        lua_pushvalue(L, -2);
        copy_top(L, seen, depth + 1);
        lua_pushvalue(L, -2);
        copy_top(L, seen, depth + 1);
        lua_rawset(L, dst);
        lua_pop(L, 1);
    }
    lua_remove(L, src);
}

static int copier(lua_State *L) {
    lua_settop(L, 1);
    lua_newtable(L);
    lua_insert(L, 1);
    copy_top(L, 1, 0);
    return 1;
}

void clua_pushcopier(lua_State *L) { lua_pushcfunction(L, copier); }

/* MARK: - Property-list copy (UserDefaults) */

/* Replaces the value on top by a copy if it is a property list: nil, booleans, numbers, strings,
 * and acyclic tables of those with string or integer keys. Raises naming where (`value.a[2]`)
 * it found anything else. `onpath` marks the tables being copied (a table met again inside itself
 * is a cycle; the same table twice side by side is copied twice). */
static void plist_copy(lua_State *L, int onpath, int depth, const char *path) {
    int t = lua_type(L, -1);
    if (t == LUA_TNIL || t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING) return;
    if (t != LUA_TTABLE)
        luaL_error(L, "%s is a %s: defaults hold nil, booleans, numbers, strings and tables of those", path, lua_typename(L, t));
    lua_pushvalue(L, -1);
    if (lua_rawget(L, onpath) != LUA_TNIL) luaL_error(L, "%s contains itself: defaults hold tables without cycles", path);
    lua_pop(L, 1);
    if (depth >= 200) luaL_error(L, "%s is nested more than 200 levels deep", path);
    luaL_checkstack(L, 8, "copy");
    int src = lua_gettop(L);
    lua_pushvalue(L, src);
    lua_pushboolean(L, 1);
    lua_rawset(L, onpath);
    lua_createtable(L, (int)(lua_rawlen(L, src) < 1u << 20 ? lua_rawlen(L, src) : 0), 0);
    int dst = src + 1;
    lua_pushnil(L);
    while (lua_next(L, src)) {
        clua_charge_or_raise(L, 20);
        const char *inner;
        if (lua_type(L, -2) == LUA_TSTRING) {
            inner = lua_pushfstring(L, "%s.%s", path, lua_tostring(L, -2));
        } else if (lua_type(L, -2) == LUA_TNUMBER && lua_isinteger(L, -2)) {
            inner = lua_pushfstring(L, "%s[%I]", path, (LUAI_UACINT)lua_tointeger(L, -2));
        } else {
            luaL_error(L, "%s has a %s key: defaults tables have string or integer keys", path,
                       lua_type(L, -2) == LUA_TNUMBER ? "non-integer number" : lua_typename(L, lua_type(L, -2)));
            return;
        }
        lua_insert(L, -2);                 /* key, path, value */
        plist_copy(L, onpath, depth + 1, inner);
        lua_remove(L, -2);                 /* key, copied value */
        lua_pushvalue(L, -2);
        lua_insert(L, -2);                 /* key, key, value */
        lua_rawset(L, dst);
    }
    lua_pushvalue(L, src);
    lua_pushnil(L);
    lua_rawset(L, onpath);
    lua_remove(L, src);
}

/* copy(value [, name]): `name` starts the paths of messages ("value" by default). */
static int plist_copier(lua_State *L) {
    const char *name = luaL_optstring(L, 2, "value");
    lua_settop(L, 2);
    lua_newtable(L);
    lua_pushvalue(L, 1);
    plist_copy(L, 3, 0, name);
    return 1;
}

void clua_pushplistcopier(lua_State *L) { lua_pushcfunction(L, plist_copier); }

void clua_pushprimitives(lua_State *L) {
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, charge);
    lua_setfield(L, -2, "charge");
}

/* MARK: - What each call costs
 *
 * A call of a library function written in C is one VM instruction (its CALL), but the call through
 * the C API, its arguments checked and its results made cost more: a cheap one (math.abs, type)
 * about two VM instructions more, one that makes a string (string.sub, string.upper) about ten,
 * tostring of a float about thirty (the number formatted: snprintf), an error raised and caught a
 * dozen (the message with its position, the unwinding). bench/costs.py measured them (issue 40).
 * Every C function of the scenario's libraries (these counted ones too) is replaced by a closure
 * that charges its units to the run's limit and calls it in place (same stack, same frame: its
 * errors, yields and continuations are its own). Charged to the run only, like luafetch's own
 * work: the handler's budget still counts VM instructions and the work of the counted functions. */

#define CLUA_LIBCALL_UNITS 6
#define CLUA_ERROR_UNITS 30

typedef struct { lua_CFunction f; long long units; } Called;

static const struct { const char *name; long long units; } call_units[] = {
    { "string.sub", 24 }, { "string.upper", 24 }, { "string.lower", 24 }, { "string.reverse", 24 },
    { "string.char", 24 }, { "error", 24 }, { "tostring", 24 }, { "math.randomseed", 40 },
};

/* The closure that charges a call, then runs the function in place: a function with upvalues gets
 * copies of them at the same indices (C upvalues are values: the tables and userdata they name
 * are the same objects), and the charge sits after them. */
#define CALLED(N)                                                                          \
    static int called##N(lua_State *L) {                                                   \
        const Called *c = (const Called *)lua_touserdata(L, lua_upvalueindex((N) + 1));    \
        clua_charge_run_or_raise(L, c->units);                                             \
        return c->f(L);                                                                    \
    }
CALLED(0) CALLED(1) CALLED(2) CALLED(3) CALLED(4)
static const lua_CFunction called[] = { called0, called1, called2, called3, called4 };
#define CALLED_MAX 4

/* tostring: a number is formatted (a float with snprintf's %.14g: about 25 VM instructions),
 * charged here only where formatting.c cannot charge it as Lua formats it. */
static int called_tostring(lua_State *L) {
    const Called *c = (const Called *)lua_touserdata(L, lua_upvalueindex(1));
    long long units = c->units;
#if !CLUA_FORMATTING_CHARGED
    if (lua_type(L, 1) == LUA_TNUMBER) units += lua_isinteger(L, 1) ? 32 : 64;
#endif
    clua_charge_run_or_raise(L, units);
    return c->f(L);
}

/* string.upper, lower and reverse: a pass over every byte (and the buffer it fills), one unit per
 * four bytes on top of the call (bench/costs.py, `bigstrings`: 100 KB strings upper-cased). */
static int called_bytewise(lua_State *L) {
    const Called *c = (const Called *)lua_touserdata(L, lua_upvalueindex(1));
    long long units = c->units;
    if (lua_type(L, 1) == LUA_TSTRING) units += (long long)(lua_rawlen(L, 1) >> 2);
    clua_charge_run_or_raise(L, units);
    return c->f(L);
}

/* pcall and xpcall, as Lua's own (lbaselib.c) with the charge of an error they caught: its message
 * and the unwinding. The charge sits in the continuation: in a coroutine (every handler runs in
 * one) an error unwinds to lua_resume, which finishes the call through the continuation, so code
 * after lua_pcallk never runs there (a wrapper that charged after calling Lua's pcall charged
 * nothing in handlers: bench/costs.py's `pcallerror` stayed 1.3x the VM loop whatever the charge). */
static int finish_protected(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        clua_charge_run_or_raise(L, CLUA_ERROR_UNITS);
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int called_protected(lua_State *L) {
    const Called *c = (const Called *)lua_touserdata(L, lua_upvalueindex(1));
    clua_charge_run_or_raise(L, c->units);
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_protected);
    return finish_protected(L, status, 0);
}

static int called_xprotected(lua_State *L) {
    const Called *c = (const Called *)lua_touserdata(L, lua_upvalueindex(1));
    clua_charge_run_or_raise(L, c->units);
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_protected);
    return finish_protected(L, status, 2);
}

/* ipairs with a counted step (the iterator Lua's ipairs returns is a C function of its own). */
static int ipairs_step(lua_State *L) {
    lua_Integer i = luaL_checkinteger(L, 2);
    i = (lua_Integer)((lua_Unsigned)i + 1u);
    clua_charge_run_or_raise(L, 6);
    lua_pushinteger(L, i);
    return lua_geti(L, 1, i) == LUA_TNIL ? 1 : 2;
}

static int ipairs_counted(lua_State *L) {
    luaL_checkany(L, 1);
    clua_charge_run_or_raise(L, CLUA_LIBCALL_UNITS);
    lua_pushcfunction(L, ipairs_step);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

static long long units_of(const char *lib, const char *name) {
    char full[64];
    snprintf(full, sizeof full, "%s%s%s", lib ? lib : "", lib ? "." : "", name);
    for (size_t i = 0; i < sizeof call_units / sizeof call_units[0]; i++)
        if (strcmp(call_units[i].name, full) == 0) return call_units[i].units;
    return CLUA_LIBCALL_UNITS;
}

/* The number of upvalues of the C function at idx (it pushes nothing). */
static int upvalues_of(lua_State *L, int idx) {
    int n = 0;
    while (n <= CALLED_MAX && lua_getupvalue(L, idx, n + 1) != NULL) { lua_pop(L, 1); n++; }
    return n;
}

/* Replaces each C function in the table on top (lib's, or the globals) by its charging closure.
 * Keys are collected first: fields are replaced after the walk. */
static void charge_calls_in(lua_State *L, const char *lib) {
    int t = lua_gettop(L);
    lua_newtable(L);  /* names to replace */
    int names = t + 1, n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_tocfunction(L, -1) != NULL && upvalues_of(L, -1) <= CALLED_MAX) {
            lua_pushvalue(L, -2);
            lua_rawseti(L, names, ++n);
        }
        lua_pop(L, 1);
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, names, i);
        const char *name = lua_tostring(L, -1);
        lua_pushvalue(L, -1);
        lua_rawget(L, t);
        int fn = lua_gettop(L);
        lua_CFunction f = lua_tocfunction(L, fn);
        int up = upvalues_of(L, fn);
        lua_CFunction wrapper = called[up];
        if (up == 0 && lib == NULL && strcmp(name, "ipairs") == 0) { f = ipairs_counted; wrapper = NULL; }
        else if (up == 0 && lib == NULL && strcmp(name, "tostring") == 0) wrapper = called_tostring;
        else if (up == 0 && lib == NULL && strcmp(name, "pcall") == 0) wrapper = called_protected;
        else if (up == 0 && lib == NULL && strcmp(name, "xpcall") == 0) wrapper = called_xprotected;
        else if (up == 0 && lib != NULL && strcmp(lib, "string") == 0
                 && (strcmp(name, "upper") == 0 || strcmp(name, "lower") == 0 || strcmp(name, "reverse") == 0)) wrapper = called_bytewise;
        if (wrapper == NULL) {
            lua_pushcfunction(L, f);
        } else {
            for (int k = 1; k <= up; k++) lua_getupvalue(L, fn, k);
            Called *c = (Called *)lua_newuserdatauv(L, sizeof(Called), 0);
            c->f = f;
            c->units = units_of(lib, name);
            lua_pushcclosure(L, wrapper, up + 1);
        }
        lua_remove(L, fn);
        lua_rawset(L, t);  /* name (still below) = the closure */
    }
    lua_settop(L, t);
}

void clua_install_call_costs(lua_State *L) {
    static const char *const libs[] = { "string", "table", "math", "utf8", "coroutine", "os" };
    lua_pushglobaltable(L);
    charge_calls_in(L, NULL);
    lua_pop(L, 1);
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        lua_getglobal(L, libs[i]);
        if (lua_type(L, -1) == LUA_TTABLE) charge_calls_in(L, libs[i]);
        lua_pop(L, 1);
    }
}

/* MARK: - Installation */

/* Replaces lib.name with the C closure f(original, name[, which, div]). */
static void wrap_with(lua_State *L, const char *lib, const char *name, lua_CFunction f, int which, int div) {
    if (lib) lua_getglobal(L, lib); else lua_pushglobaltable(L);
    lua_getfield(L, -1, name);
    lua_pushstring(L, name);
    int n = 2;
    if (which > 0) {
        lua_pushinteger(L, which);
        lua_pushinteger(L, div);
        n = 4;
    }
    lua_pushcclosure(L, f, n);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

static void wrap(lua_State *L, const char *lib, const char *name, lua_CFunction f) { wrap_with(L, lib, name, f, 0, 0); }

static void wrap_length(lua_State *L, const char *lib, const char *name, int which, int div) {
    wrap_with(L, lib, name, by_length, which, div);
}

static void set(lua_State *L, const char *lib, const char *name, lua_CFunction f) {
    lua_getglobal(L, lib);
    lua_pushcfunction(L, f);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

void clua_install_counted(lua_State *L) {
    wrap(L, "string", "rep", rep);
    wrap(L, "string", "byte", byte);
    wrap_length(L, "string", "format", 1, 1);
    wrap_length(L, "string", "pack", 1, 1);
    wrap_length(L, "string", "unpack", 1, 1);
    wrap_length(L, "string", "packsize", 1, 1);
    wrap(L, "table", "move", move);
    wrap(L, "table", "concat", concat);
    wrap(L, "table", "sort", sort);
    set(L, "table", "insert", insert);
    set(L, "table", "remove", remove_);
    set(L, "table", "unpack", unpack);
    wrap_length(L, "utf8", "len", 1, 1);
    wrap_length(L, "utf8", "codepoint", 1, 1);
    wrap_length(L, "utf8", "offset", 1, 1);
    wrap_length(L, "os", "date", 1, 1);
    wrap_length(L, NULL, "tonumber", 1, 8);
    wrap_length(L, NULL, "rawequal", 1, 16);
    wrap(L, NULL, "setmetatable", set_metatable);
    clua_install_patterns(L);
}
