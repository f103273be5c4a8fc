#include "out/top_ui.h"
#include "out/class_table.h"
#include "out/cpu_table.h"

#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FINDING_LINES 4   /* the findings panel: always there, this tall */

struct top_ui {
	bool classes;                  /* class view, else CPU view */
	char cpu_key, class_key;       /* each view keeps its own sort */
	char status[256];
	int ncpus;
	bool have_view;
	/* copies of the last interval, for redraws on a key press */
	struct interval_view view;
	struct cpu_row *rows, total;
	int *order;
	struct sched_interval sched;
	bool have_sched;
	struct finding_list findings;
};

static void restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

int top_ui_open(struct top_ui **out, int ncpus, bool classes, char sort_key, const char *status)
{
	struct top_ui *ui = calloc(1, sizeof(*ui));

	if (!ui)
		return -ENOMEM;
	ui->rows = calloc((size_t)ncpus, sizeof(*ui->rows));
	ui->order = calloc((size_t)ncpus, sizeof(*ui->order));
	if (!ui->rows || !ui->order) {
		top_ui_close(ui);
		return -ENOMEM;
	}
	ui->ncpus = ncpus;
	ui->classes = classes;
	ui->cpu_key = classes ? CPU_TABLE_DEFAULT_SORT : sort_key;
	ui->class_key = classes ? sort_key : CLASS_TABLE_DEFAULT_SORT;
	snprintf(ui->status, sizeof(ui->status), "%s", status);
	if (!initscr()) {
		top_ui_close(ui);
		return -ENOTTY;
	}
	/* a path that still calls exit() gets the terminal back too */
	atexit(restore_terminal);
	cbreak();
	noecho();
	nodelay(stdscr, TRUE);
	keypad(stdscr, TRUE);
	curs_set(0);
	erase();
	mvprintw(0, 0, "dbtrace: %s", ui->status);
	mvprintw(2, 0, "measuring the first interval...");
	refresh();
	*out = ui;
	return 0;
}

static int draw_cpus(struct top_ui *ui, int y, int last)
{
	const struct interval_view *iv = &ui->view;
	char line[512];
	int n;

	cpu_table_header(line, sizeof(line), ui->cpu_key);
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1, line);
	attroff(A_REVERSE);
	cpu_table_row(line, sizeof(line), iv->total, iv->dt_s);
	attron(A_BOLD);
	mvprintw(y++, 0, "%s", line);
	attroff(A_BOLD);
	n = cpu_table_sort(iv->rows, iv->ncpus, ui->cpu_key, ui->order);
	for (int i = 0; i < n && y < last; i++) {
		cpu_table_row(line, sizeof(line), &iv->rows[ui->order[i]], iv->dt_s);
		mvprintw(y++, 0, "%s", line);
	}
	return y;
}

static int draw_classes(struct top_ui *ui, int y, int last)
{
	struct class_row *rows;
	char line[512];
	int n;

	class_table_header(line, sizeof(line), ui->class_key);
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1, line);
	attroff(A_REVERSE);
	if (!ui->have_sched) {
		mvprintw(y++, 0, "(sched probes not attached: see dbtrace probes)");
		return y;
	}
	n = class_table_rows(&ui->sched, ui->class_key, &rows);
	for (int i = 0; i < n && y < last; i++) {
		class_table_row(line, sizeof(line), &rows[i]);
		mvprintw(y++, 0, "%s", line);
	}
	if (n >= 0)
		free(rows);
	return y;
}

static void draw_findings(struct top_ui *ui, int y)
{
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1,
		 ui->findings.n ? "FINDINGS" : "FINDINGS: none in this interval");
	attroff(A_REVERSE);
	for (int i = 0; i < ui->findings.n && i < FINDING_LINES - 1; i++) {
		const struct finding *f = &ui->findings.items[i];

		if (f->severity >= SEV_WARNING)
			attron(A_BOLD);
		mvprintw(y++, 0, "%-8s %-22s %s", finding_severity_name(f->severity), f->id, f->title);
		attroff(A_BOLD);
	}
}

static void draw(struct top_ui *ui)
{
	const struct interval_view *iv = &ui->view;
	int y = 0, maxy = getmaxy(stdscr);
	int panel = maxy - 1 - FINDING_LINES;

	erase();
	mvprintw(y++, 0, "dbtrace: %s", ui->status);
	mvprintw(y++, 0, "t=%.1fs  interval %.2fs  lost events %llu  thread evictions %llu", iv->t_s,
		 iv->dt_s, (unsigned long long)iv->lost_events, (unsigned long long)iv->thread_evictions);
	y++;
	if (ui->classes)
		draw_classes(ui, y, panel);
	else
		draw_cpus(ui, y, panel);
	draw_findings(ui, panel);
	mvprintw(maxy - 1, 0, "%s", ui->classes ? class_table_key_help() : cpu_table_key_help());
	refresh();
}

int top_ui_draw(struct top_ui *ui, const struct interval_view *iv)
{
	int n = iv->ncpus < ui->ncpus ? iv->ncpus : ui->ncpus;

	memcpy(ui->rows, iv->rows, sizeof(*ui->rows) * (size_t)n);
	ui->total = *iv->total;
	ui->view = *iv;
	ui->view.ncpus = n;
	ui->view.rows = ui->rows;
	ui->view.total = &ui->total;
	if (ui->have_sched)
		sched_interval_free(&ui->sched);
	ui->have_sched = iv->sched && !sched_interval_copy(&ui->sched, iv->sched);
	ui->view.sched = NULL;
	findings_clear(&ui->findings);
	for (int i = 0; iv->findings && i < iv->findings->n; i++)
		findings_merge(&ui->findings, &iv->findings->items[i]);
	ui->view.findings = NULL;
	ui->have_view = true;
	draw(ui);
	return 0;
}

int top_ui_input(struct top_ui *ui)
{
	int ch;

	while ((ch = getch()) != ERR) {
		bool redraw = ch == KEY_RESIZE;

		if (ch == 'q' || ch == 27 /* Esc */)
			return 1;
		if (ch == 'v') {
			ui->classes = !ui->classes;
			redraw = true;
		} else if (ch > 0 && ch < 128 && ui->classes && class_table_valid_key((char)ch)) {
			ui->class_key = (char)ch;
			redraw = true;
		} else if (ch > 0 && ch < 128 && !ui->classes && cpu_table_valid_key((char)ch)) {
			ui->cpu_key = (char)ch;
			redraw = true;
		}
		if (redraw && ui->have_view)
			draw(ui);
	}
	return 0;
}

void top_ui_close(struct top_ui *ui)
{
	if (!ui)
		return;
	restore_terminal();
	if (ui->have_sched)
		sched_interval_free(&ui->sched);
	findings_free(&ui->findings);
	free(ui->rows);
	free(ui->order);
	free(ui);
}
