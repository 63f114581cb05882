/* Shared between the C files of CLuaHost; Swift does not see it. */
#ifndef CLUAHOST_INTERNAL_H
#define CLUAHOST_INTERNAL_H
#include <lua.h>
#include "CLuaHost.h"

/* Ends the running handler: yields the handler thread when it can, otherwise raises. */
int clua_kill_here(lua_State *L, clua_Host *h);
/* Charges units; when that decides a kill, raises (so C code deep in a library call stops). */
int clua_charge_or_raise(lua_State *L, long long units);
/* Charges units to the run's limit only (clua_charge_total); when that decides a kill, ends the
 * handler (clua_kill_here). */
int clua_charge_run_or_raise(lua_State *L, long long units);
/* Charges the formatting of a number by the C library (formatting.c) to the state whose scenario
 * code this thread runs, as an allocation is charged (it may not raise). Where formatting.c can
 * stand in for the C library's snprintf (Linux), every number Lua formats is charged there. */
void clua_charge_formatting(long long units);
#if defined(__linux__)
#define CLUA_FORMATTING_CHARGED 1
#else
#define CLUA_FORMATTING_CHARGED 0
#endif
/* Makes every library function written in C charge what a call of it costs (libs.c). */
void clua_install_call_costs(lua_State *L);
/* Whether a message starts with `something:LINE:`. */
int clua_has_position(const char *msg);
/* Replaces the error value on the top with a string that starts with the scenario line. */
int clua_position_message(lua_State *L, lua_State *at, int level);
/* Replaces the library functions that work in C with counted ones (libs.c, patterns.c). */
void clua_install_counted(lua_State *L);
void clua_install_patterns(lua_State *L);
/* The region allocator (arena.c). */
clua_Arena *clua_arena_new(size_t reserve);
void clua_arena_delete(clua_Arena *a);
void *clua_arena_realloc(clua_Arena *a, void *ptr, size_t osize, size_t nsize);
/* Records a line event (coverage.c); frees the record (clua_close). */
void clua_coverage_line(lua_State *L, lua_Debug *ar, clua_Coverage *c);
void clua_coverage_free(clua_Coverage *c);
/* Finds math.random's generator state (after the math library is open). */
void clua_note_random(lua_State *L);
#endif
