/* formatting.c: charges the numbers Lua formats through the C library (issue 40); uses host.c's
 * clua_charge_formatting.
 *
 * Lua turns a number into a string with snprintf (lua_Number2str, "%.14g"; lua_Integer2str,
 * "%lld") for `..`, tostring, string.format and lua_tolstring. When the string it makes already
 * exists, Lua allocates nothing, so no allocation charge reaches that work: `'k' .. (i + 0.5)` in a
 * loop formatted a float (about 400 ns with glibc's multiprecision printf) for a few units, about
 * 100 ns per unit against the VM's 3 to 5, and a run of such loops took 100 s to meet the
 * instruction limit that should end it within 10 s (SPEC 11).
 *
 * So this file defines the C library's snprintf entry points in luafetch's own executable: the
 * dynamic linker binds the system Lua library's calls (Debian builds it with _FORTIFY_SOURCE, so
 * they are __snprintf_chk) to these first. Each formats with vsnprintf and charges units by what
 * the format converts (a floating-point conversion costs most). The count depends only on what the
 * scenario does, so a kill lands at the same point on every run. Where the platform binds a
 * library's calls to its own C library first (macOS's two-level namespace), these are not reached
 * and the gap stays, as the docs say. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "internal.h"

int vsnprintf(char *restrict s, size_t n, const char *restrict format, va_list ap);

/* What formatting costs, in units (a unit is what a VM instruction costs: 4 to 5 ns here), from
 * glibc's times on this machine (docs/PERFORMANCE.md): a float in %.14g 180 to 860 ns, growing with
 * its exponent (glibc works in multiprecision: a limb of 64 bits per 2^64 of magnitude either
 * way) and the digits it writes (`%.99f` of 1e300 is 17.6 us); an integer or anything else about
 * 100 ns. So a float costs CLUA_FORMAT_FLOAT_UNITS and 3/5 of a unit per character written per
 * limb; any other conversion CLUA_FORMAT_OTHER_UNITS and a unit per 8 characters. */
#define CLUA_FORMAT_FLOAT_UNITS 60
#define CLUA_FORMAT_OTHER_UNITS 12

/* The conversions of a format ('%%' is none): how many, and whether the last is a double's. */
static int conversions(const char *format, int *isFloat, int *plainDouble) {
    int count = 0;
    for (const char *p = format; p && *p; p++) {
        if (*p != '%') continue;
        p++;
        if (*p == '%') continue;
        int star = 0, longDouble = 0;
        while (*p && !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) { if (*p == '*') star = 1; p++; }
        while (*p && strchr("lhLqjzt", *p)) { if (*p == 'L') longDouble = 1; p++; }
        if (*p == '\0') break;
        count++;
        *isFloat = strchr("eEfFgGaA", *p) != NULL;
        *plainDouble = *isFloat && !longDouble && !star;
    }
    return count;
}

/* Limbs of glibc's multiprecision for a double: one, and one more per 64 of its binary exponent
 * either way (a subnormal counts as the smallest exponent). */
static long long limbs(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff);
    if (e == 0x7ff) return 1; /* inf, nan */
    e = (e == 0 ? 1 : e) - 1023;
    return 1 + (e < 0 ? -e : e) / 64;
}

static int formatted(char *restrict s, size_t n, const char *restrict format, va_list ap) {
    int isFloat = 0, plainDouble = 0;
    int count = conversions(format, &isFloat, &plainDouble);
    long long per = 1;
    if (count == 1 && plainDouble) {
        va_list peek;
        va_copy(peek, ap);
        per = limbs(va_arg(peek, double));
        va_end(peek);
    }
    int r = vsnprintf(s, n, format, ap);
    long long written = r > 0 ? r : 0;
    long long units;
    if (count == 1 && isFloat) units = CLUA_FORMAT_FLOAT_UNITS + written * per * 3 / 5;
    else if (count == 1) units = CLUA_FORMAT_OTHER_UNITS + written / 8;
    else units = (long long)count * CLUA_FORMAT_FLOAT_UNITS + written;  /* not Lua's: it formats one at a time */
    clua_charge_formatting(units);
    return r;
}

#if CLUA_FORMATTING_CHARGED
/* glibc's fortified snprintf (what a library built with _FORTIFY_SOURCE calls). */
int __snprintf_chk(char *restrict s, size_t n, int flag, size_t slen, const char *restrict format, ...);
int __snprintf_chk(char *restrict s, size_t n, int flag, size_t slen, const char *restrict format, ...) {
    (void)flag; (void)slen;
    va_list ap;
    va_start(ap, format);
    int r = formatted(s, n, format, ap);
    va_end(ap);
    return r;
}

int snprintf(char *restrict s, size_t n, const char *restrict format, ...) {
    va_list ap;
    va_start(ap, format);
    int r = formatted(s, n, format, ap);
    va_end(ap);
    return r;
}
#endif
