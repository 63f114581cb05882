/* CLua: Lua 5.4 from the system (pkg-config lua5.4), as Swift sees it. This header only turns the
 * C API's macros into functions Swift can import; everything with logic (the host record, the
 * allocator, hooks, the watchdog, the trampoline, the counted library functions) lives in the C
 * target CLuaHost. */
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

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
static inline void clua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }
static inline int clua_resume(lua_State *co, lua_State *from, int nargs, int *nres) {
    return lua_resume(co, from, nargs, nres);
}
static inline void clua_traceback(lua_State *L, lua_State *co, const char *msg, int level) {
    luaL_traceback(L, co, msg, level);
}

#endif
