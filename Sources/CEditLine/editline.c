/* editline.c: libedit for the REPL, opened with dlopen when a session starts, so every other run
 * skips loading it and the three libraries it needs (about 0.5 M instructions of dynamic linking
 * at each start; issue #19). Uses libedit's readline-compatible functions, found by name. */
#include "CEditLine.h"
#include <dlfcn.h>
#include <stddef.h>

typedef char *(*completion_fn)(const char *, int);

static struct {
    int tried, ok;
    char *(*readline)(const char *);
    int (*add_history)(const char *);
    void (*using_history)(void);
    void (*stifle_history)(int);
    int (*read_history)(const char *);
    int (*write_history)(const char *);
    completion_fn *completion_entry_function;
    int *catch_signals;
} ed;

int cedit_open(void) {
    if (ed.tried) return ed.ok;
    ed.tried = 1;
    static const char *names[] = { "libedit.so.2", "libedit.so", "libedit.3.dylib", "libedit.dylib" };
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) return 0;
    ed.readline = (char *(*)(const char *))dlsym(h, "readline");
    ed.add_history = (int (*)(const char *))dlsym(h, "add_history");
    ed.using_history = (void (*)(void))dlsym(h, "using_history");
    ed.stifle_history = (void (*)(int))dlsym(h, "stifle_history");
    ed.read_history = (int (*)(const char *))dlsym(h, "read_history");
    ed.write_history = (int (*)(const char *))dlsym(h, "write_history");
    ed.completion_entry_function = (completion_fn *)dlsym(h, "rl_completion_entry_function");
    ed.catch_signals = (int *)dlsym(h, "rl_catch_signals");
    ed.ok = ed.readline && ed.add_history && ed.using_history && ed.stifle_history && ed.read_history &&
            ed.write_history && ed.completion_entry_function && ed.catch_signals;
    return ed.ok;
}

void cedit_start(const char *history_path, completion_fn complete) {
    if (!cedit_open()) return;
    *ed.catch_signals = 0;  /* its SIGINT handler would leave the terminal cooked while it waits */
    ed.using_history();
    ed.stifle_history(1000);
    (void)ed.read_history(history_path);
    *ed.completion_entry_function = complete;
}

char *cedit_readline(const char *prompt) { return cedit_open() ? ed.readline(prompt) : NULL; }

void cedit_add_history(const char *line) {
    if (cedit_open()) (void)ed.add_history(line);
}

void cedit_write_history(const char *history_path) {
    if (cedit_open()) (void)ed.write_history(history_path);
}
