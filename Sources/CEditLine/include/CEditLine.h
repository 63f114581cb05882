/* CEditLine: the REPL's line editing (libedit's readline API), loaded on first use. */
#ifndef CEDITLINE_H
#define CEDITLINE_H

/* Loads libedit; 0 when it cannot be found (the REPL then reads plain lines). */
int cedit_open(void);
/* Prepares a session: history (at most 1,000 lines, read from `history_path`), completion by
 * `complete(text, state)` (readline's generator: state 0 first, a malloc'd match or NULL), and no
 * signal handling of libedit's own (Ctrl-C stays with the REPL). */
void cedit_start(const char *history_path, char *(*complete)(const char *text, int state));
/* A line without its newline (malloc'd; free it), or NULL at end of input. */
char *cedit_readline(const char *prompt);
void cedit_add_history(const char *line);
void cedit_write_history(const char *history_path);
#endif
