/* patterns.c: Lua 5.4's string.find, string.match, string.gmatch and string.gsub, written for
 * luafetch so that the matcher's work counts toward the budgets: every step of matching (each
 * attempt, each character an expansion tries, each backtrack) is one unit, charged in batches, so
 * a pattern that backtracks for hours is stopped at the same step on every run. The semantics are
 * those of the Lua 5.4 manual, section 6.4.1 (classes, sets, quantifiers, captures, %b, %f,
 * anchors, back-references), including its error messages. Uses the Lua C API and host.c. */
#define _GNU_SOURCE
#include <ctype.h>
#include <string.h>
#include <lauxlib.h>
#include "internal.h"

#define MAXCAPTURES 32
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define MAXDEPTH 200
#define ESC '%'
#define SPECIALS "^$*+?.([%-"
#define BATCH 4096

typedef struct Matcher {
    const char *src_init, *src_end, *p_end;
    lua_State *L;
    int depth;   /* recursion left */
    int level;   /* captures in use */
    long long steps; /* not charged yet */
    struct { const char *init; ptrdiff_t len; } capture[MAXCAPTURES];
} Matcher;

static inline unsigned char uc(char c) { return (unsigned char)c; }

/* A step costs about two VM instructions (measured against Lua's matcher): charged as 2 units. */
static inline void step(Matcher *m) {
    if (++m->steps >= BATCH) { long long n = m->steps; m->steps = 0; clua_charge_or_raise(m->L, 2 * n); }
}

static void flush(Matcher *m) {
    long long n = m->steps;
    m->steps = 0;
    if (n > 0) clua_charge_or_raise(m->L, 2 * n);
}

static const char *match(Matcher *m, const char *s, const char *p);

static const char *class_end(Matcher *m, const char *p) {
    char c = *p++;
    if (c == ESC) {
        if (p == m->p_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (*p == '^') p++;
        do { /* the first character of a set is literal, even ']' */
            if (p == m->p_end) luaL_error(m->L, "malformed pattern (missing ']')");
            c = *p++;
            if (c == ESC && p < m->p_end) p++;
        } while (*p != ']');
        return p + 1;
    }
    return p;
}

static int class_match(int c, int cl) {
    int r;
    switch (tolower(cl)) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'g': r = isgraph(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    case 'z': r = (c == 0); break; /* deprecated in Lua, still there */
    default: return cl == c;
    }
    if (isupper(cl)) r = !r;
    return r != 0;
}

/* p at '[', last at the closing ']' */
static int set_match(int c, const char *p, const char *last) {
    int found = 1;
    if (*(p + 1) == '^') { found = 0; p++; }
    while (++p < last) {
        if (*p == ESC) {
            p++;
            if (class_match(c, uc(*p))) return found;
        } else if (*(p + 1) == '-' && p + 2 < last) {
            p += 2;
            if (uc(*(p - 2)) <= c && c <= uc(*p)) return found;
        } else if (uc(*p) == c) {
            return found;
        }
    }
    return !found;
}

static int single_match(Matcher *m, const char *s, const char *p, const char *ep) {
    if (s >= m->src_end) return 0;
    int c = uc(*s);
    switch (*p) {
    case '.': return 1;
    case ESC: return class_match(c, uc(*(p + 1)));
    case '[': return set_match(c, p, ep - 1);
    default: return uc(*p) == c;
    }
}

static const char *match_balance(Matcher *m, const char *s, const char *p) {
    if (p + 1 >= m->p_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->src_end || *s != *p) return NULL;
    char open = *p, close = *(p + 1);
    int depth = 1;
    while (++s < m->src_end) {
        step(m);
        if (*s == close) { if (--depth == 0) return s + 1; }
        else if (*s == open) depth++;
    }
    return NULL;
}

static const char *max_expand(Matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t i = 0;
    while (single_match(m, s + i, p, ep)) { i++; step(m); }
    while (i >= 0) {
        step(m);
        const char *r = match(m, s + i, ep + 1);
        if (r) return r;
        i--;
    }
    return NULL;
}

static const char *min_expand(Matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        step(m);
        const char *r = match(m, s, ep + 1);
        if (r) return r;
        if (single_match(m, s, p, ep)) s++;
        else return NULL;
    }
}

static const char *start_capture(Matcher *m, const char *s, const char *p, ptrdiff_t what) {
    if (m->level >= MAXCAPTURES) luaL_error(m->L, "too many captures");
    m->capture[m->level].init = s;
    m->capture[m->level].len = what;
    m->level++;
    const char *r = match(m, s, p);
    if (r == NULL) m->level--;
    return r;
}

static const char *end_capture(Matcher *m, const char *s, const char *p) {
    int l = -1;
    for (int i = m->level - 1; i >= 0; i--)
        if (m->capture[i].len == CAP_UNFINISHED) { l = i; break; }
    if (l < 0) luaL_error(m->L, "invalid pattern capture");
    m->capture[l].len = s - m->capture[l].init;
    const char *r = match(m, s, p);
    if (r == NULL) m->capture[l].len = CAP_UNFINISHED;
    return r;
}

static const char *match_capture(Matcher *m, const char *s, int digit) {
    int l = digit - '1';
    if (l < 0 || l >= m->level || m->capture[l].len == CAP_UNFINISHED)
        luaL_error(m->L, "invalid capture index %%%d", l + 1);
    ptrdiff_t len = m->capture[l].len;
    if (len < 0) return NULL;
    if (m->src_end - s >= len && memcmp(m->capture[l].init, s, (size_t)len) == 0) {
        m->steps += len >> 4;
        return s + len;
    }
    return NULL;
}

static const char *match(Matcher *m, const char *s, const char *p) {
    if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
again:
    step(m);
    if (p != m->p_end) {
        const char *ep;
        switch (*p) {
        case '(':
            if (*(p + 1) == ')') s = start_capture(m, s, p + 2, CAP_POSITION);
            else s = start_capture(m, s, p + 1, CAP_UNFINISHED);
            break;
        case ')':
            s = end_capture(m, s, p + 1);
            break;
        case '$':
            if (p + 1 != m->p_end) goto plain;
            s = (s == m->src_end) ? s : NULL;
            break;
        case ESC:
            switch (*(p + 1)) {
            case 'b':
                s = match_balance(m, s, p + 2);
                if (s != NULL) { p += 4; goto again; }
                break;
            case 'f': {
                p += 2;
                if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                ep = class_end(m, p);
                char prev = (s == m->src_init) ? '\0' : *(s - 1);
                if (!set_match(uc(prev), p, ep - 1) && set_match(uc(*s), p, ep - 1)) { p = ep; goto again; }
                s = NULL;
                break;
            }
            case '0': case '1': case '2': case '3': case '4':
            case '5': case '6': case '7': case '8': case '9':
                s = match_capture(m, s, uc(*(p + 1)));
                if (s != NULL) { p += 2; goto again; }
                break;
            default:
                goto plain;
            }
            break;
        default:
        plain:
            ep = class_end(m, p);
            if (!single_match(m, s, p, ep)) {
                if (*ep == '*' || *ep == '?' || *ep == '-') { p = ep + 1; goto again; }
                s = NULL;
            } else {
                switch (*ep) {
                case '?': {
                    const char *r = match(m, s + 1, ep + 1);
                    if (r != NULL) s = r;
                    else { p = ep + 1; goto again; }
                    break;
                }
                case '+': s = max_expand(m, s + 1, p, ep); break;
                case '*': s = max_expand(m, s, p, ep); break;
                case '-': s = min_expand(m, s, p, ep); break;
                default: s++; p = ep; goto again;
                }
            }
            break;
        }
    }
    m->depth++;
    return s;
}

static size_t push_one(Matcher *m, int i, const char *s, const char *e) {
    if (i >= m->level) {
        if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(m->L, s, (size_t)(e - s));
        return (size_t)(e - s);
    }
    ptrdiff_t l = m->capture[i].len;
    if (l == CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
    if (l == CAP_POSITION) { lua_pushinteger(m->L, (m->capture[i].init - m->src_init) + 1); return 0; }
    lua_pushlstring(m->L, m->capture[i].init, (size_t)l);
    return (size_t)l;
}

static int push_captures(Matcher *m, const char *s, const char *e) {
    int n = (m->level == 0 && s) ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++) push_one(m, i, s, e);
    return n;
}

static void prepare(Matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    m->L = L;
    m->src_init = s;
    m->src_end = s + ls;
    m->p_end = p + lp;
    m->depth = MAXDEPTH;
    m->level = 0;
    m->steps = 0;
}

static void reset(Matcher *m) { m->level = 0; m->depth = MAXDEPTH; }

static int no_specials(const char *p, size_t lp) {
    size_t upto = 0;
    do {
        if (strpbrk(p + upto, SPECIALS)) return 0;
        upto += strlen(p + upto) + 1; /* past an embedded zero */
    } while (upto <= lp);
    return 1;
}

/* 1-based start position, as Lua's posrelatI */
static size_t start_at(lua_Integer pos, size_t len) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static int find_aux(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_at(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) { lua_pushnil(L); return 1; }
    if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
        clua_charge_or_raise(L, (long long)((ls - init + lp) >> 4) + 1);
        const char *hit = lp == 0 ? s + init : memmem(s + init, ls - init, p, lp);
        if (hit) {
            lua_pushinteger(L, (hit - s) + 1);
            lua_pushinteger(L, (lua_Integer)((hit - s) + lp));
            return 2;
        }
    } else {
        Matcher m;
        prepare(&m, L, s, ls, p, lp);
        int anchor = (*p == '^');
        if (anchor) { p++; m.p_end = p + lp - 1; }
        const char *s1 = s + init;
        do {
            reset(&m);
            const char *e = match(&m, s1, p);
            if (e != NULL) {
                flush(&m);
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, e - s);
                    return push_captures(&m, NULL, 0) + 2;
                }
                return push_captures(&m, s1, e);
            }
        } while (s1++ < m.src_end && !anchor);
        flush(&m);
    }
    lua_pushnil(L);
    return 1;
}

static int str_find(lua_State *L) { return find_aux(L, 1); }
static int str_match(lua_State *L) { return find_aux(L, 0); }

typedef struct GMatch {
    const char *src, *p, *lastmatch;
    Matcher m;
} GMatch;

static int gmatch_next(lua_State *L) {
    GMatch *g = (GMatch *)lua_touserdata(L, lua_upvalueindex(3));
    g->m.L = L;
    for (const char *src = g->src; src <= g->m.src_end; src++) {
        reset(&g->m);
        const char *e = match(&g->m, src, g->p);
        if (e != NULL && e != g->lastmatch) {
            g->src = g->lastmatch = e;
            flush(&g->m);
            return push_captures(&g->m, src, e);
        }
    }
    flush(&g->m);
    return 0;
}

static int str_gmatch(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_at(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) init = ls + 1; /* start past the end: no matches */
    lua_settop(L, 2);
    GMatch *g = (GMatch *)lua_newuserdatauv(L, sizeof(GMatch), 0);
    prepare(&g->m, L, s, ls, p, lp);
    g->src = s + init;
    g->p = p;
    g->lastmatch = NULL;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

static void add_s(Matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    size_t l;
    lua_State *L = m->L;
    const char *news = lua_tolstring(L, 3, &l);
    const char *p;
    while ((p = (const char *)memchr(news, ESC, l)) != NULL) {
        luaL_addlstring(b, news, (size_t)(p - news));
        p++;
        if (*p == ESC) luaL_addchar(b, *p);
        else if (isdigit(uc(*p))) {
            if (*p == '0') luaL_addlstring(b, s, (size_t)(e - s));
            else {
                push_one(m, *p - '1', s, e);
                luaL_tolstring(L, -1, NULL);
                lua_remove(L, -2);
                luaL_addvalue(b);
            }
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", ESC);
        }
        l -= (size_t)(p + 1 - news);
        news = p + 1;
        step(m);
    }
    luaL_addlstring(b, news, l);
}

static int add_value(Matcher *m, luaL_Buffer *b, const char *s, const char *e, int tr) {
    lua_State *L = m->L;
    switch (tr) {
    case LUA_TFUNCTION: {
        flush(m);
        lua_pushvalue(L, 3);
        int n = push_captures(m, s, e);
        lua_call(L, n, 1);
        break;
    }
    case LUA_TTABLE:
        push_one(m, 0, s, e);
        lua_gettable(L, 3);
        break;
    default:
        add_s(m, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int str_gsub(lua_State *L) {
    size_t srcl, lp;
    const char *src = luaL_checklstring(L, 1, &srcl);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *lastmatch = NULL;
    int tr = lua_type(L, 3);
    lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
    int anchor = (*p == '^');
    lua_Integer n = 0;
    int changed = 0;
    luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
                     "string/function/table");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (anchor) { p++; lp--; }
    Matcher m;
    prepare(&m, L, src, srcl, p, lp);
    while (n < max_s) {
        reset(&m);
        m.steps += 4; /* the loop's own work: a character copied or a replacement added */
        const char *e = match(&m, src, p);
        if (e != NULL && e != lastmatch) {
            n++;
            changed = add_value(&m, &b, src, e, tr) | changed;
            src = lastmatch = e;
        } else if (src < m.src_end) {
            luaL_addchar(&b, *src++);
        } else break;
        if (anchor) break;
    }
    flush(&m);
    if (!changed) lua_pushvalue(L, 1);
    else {
        luaL_addlstring(&b, src, (size_t)(m.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void clua_install_patterns(lua_State *L) {
    lua_getglobal(L, "string");
    lua_pushcfunction(L, str_find); lua_setfield(L, -2, "find");
    lua_pushcfunction(L, str_match); lua_setfield(L, -2, "match");
    lua_pushcfunction(L, str_gmatch); lua_setfield(L, -2, "gmatch");
    lua_pushcfunction(L, str_gsub); lua_setfield(L, -2, "gsub");
    lua_pop(L, 1);
}
