/* `top`: the full-screen ncurses view. Reads the model only; the terminal
 * is restored by top_ui_close() on every exit path of `dbtrace top`. */
#ifndef DBTRACE_RENDER_TOP_UI_H
#define DBTRACE_RENDER_TOP_UI_H

#include <stdbool.h>
#include "findings/finding.h"
#include "session/interval.h"
#include "render/batch.h"

struct top_ui;

/* status: one line about the probes, shown at the top. */
/* view: the one to start in ('v' cycles through them); all: every class
 * in the class and time views ('a' toggles it). */
int top_ui_open(struct top_ui **ui, int ncpus, enum top_view view, char sort_key, bool all, const char *status);
int top_ui_draw(struct top_ui *ui, const struct interval *iv, const struct finding_list *found);
/* Handles pending key presses; returns 1 when the user quit. */
int top_ui_input(struct top_ui *ui);
void top_ui_close(struct top_ui *ui);

#endif
