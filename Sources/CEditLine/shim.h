/* CEditLine: libedit's readline-compatible API (line editing, history, completion) for the REPL.
 * readline.h needs stdio's FILE declared first. */
#ifndef CEDITLINE_SHIM_H
#define CEDITLINE_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <editline/readline.h>

/* Sets the completion generator (a function of libedit's global state). */
static inline void cedit_set_completion(rl_compentry_func_t *f) { rl_completion_entry_function = f; }

/* Keeps libedit out of signal handling: its SIGINT handler leaves the terminal in cooked mode
 * while readline still waits, which breaks line editing and Ctrl-D afterwards. */
static inline void cedit_no_signal_handling(void) { rl_catch_signals = 0; }
#endif
