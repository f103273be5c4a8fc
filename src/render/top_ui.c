#include "render/top_ui.h"
#include "render/bpf_cost_text.h"
#include "render/class_table.h"
#include "render/cpu_table.h"
#include "render/net_table.h"
#include "render/stage_table.h"
#include "render/time_table.h"

#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FINDING_LINES 4   /* the findings panel: always there, this tall */

struct top_ui {
	bool classes;                  /* class view, else CPU view (unless net) */
	bool net;                      /* network view */
	bool time;                     /* wall-time budget view */
	char cpu_key, class_key, net_key;  /* each view keeps its own sort */
	bool net_stages;               /* the net view's ports as their stages (render/stage_table.h) */
	char time_key;
	bool all;                      /* every class, none folded into "other" ('a') */
	char status[256];
	int ncpus;
	bool have_view;
	/* copies of what the last interval showed, for redraws on a key press */
	double t_s, dt_s;
	uint64_t lost_events, thread_evictions;
	struct bpf_cost_row bpf;       /* dbtrace's own programs, all families */
	int view_ncpus;
	struct cpu_row *rows, total;
	int *order;
	struct sched_interval sched;
	bool have_sched;
	struct net_interval netiv;
	bool have_net;
	struct finding_list findings;
};

static void restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

int top_ui_open(struct top_ui **out, int ncpus, enum top_view view, char sort_key, bool all, const char *status)
{
	bool classes = view == TOP_VIEW_CLASSES;
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
	ui->all = all;
	ui->classes = classes;
	ui->cpu_key = classes ? CPU_TABLE_DEFAULT_SORT : sort_key;
	ui->class_key = classes ? sort_key : CLASS_TABLE_DEFAULT_SORT;
	ui->net = view == TOP_VIEW_NET;
	ui->net_key = ui->net ? sort_key : NET_TABLE_DEFAULT_SORT;
	ui->time = view == TOP_VIEW_TIME;
	ui->time_key = ui->time ? sort_key : TIME_TABLE_DEFAULT_SORT;
	if (ui->net || ui->time)
		ui->cpu_key = CPU_TABLE_DEFAULT_SORT;
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
	char line[512];
	int n;

	cpu_table_header(line, sizeof(line), ui->cpu_key);
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1, line);
	attroff(A_REVERSE);
	cpu_table_row(line, sizeof(line), &ui->total, ui->dt_s);
	attron(A_BOLD);
	mvprintw(y++, 0, "%s", line);
	attroff(A_BOLD);
	n = cpu_table_sort(ui->rows, ui->view_ncpus, ui->cpu_key, ui->order);
	for (int i = 0; i < n && y < last; i++) {
		cpu_table_row(line, sizeof(line), &ui->rows[ui->order[i]], ui->dt_s);
		mvprintw(y++, 0, "%s", line);
	}
	return y;
}

/* The per-class tables (the class view, the time view): one row per
 * class of the sched interval, in the view's own columns and order. */
static int draw_class_view(struct top_ui *ui, int y, int last, const struct class_view *v, char key)
{
	struct class_rows rows;
	char line[512];

	class_view_header(v, line, sizeof(line), key);
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1, line);
	attroff(A_REVERSE);
	if (!ui->have_sched) {
		mvprintw(y++, 0, "(sched probes not attached: see dbtrace probes)");
		return y;
	}
	if (class_view_rows(v, &ui->sched, key, ui->all, &rows))
		return y;
	/* the "other" row, last, stays in sight: the rows above make room */
	for (int i = 0; i < rows.n && y < last; i++) {
		int at = rows.folded && y == last - 1 ? rows.n - 1 : i;

		class_view_row(v, line, sizeof(line), &rows.row[at]);
		mvprintw(y++, 0, "%s", line);
	}
	class_rows_free(&rows);
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

/* The network view: devices, then ports, as many as fit. */
static int draw_net(struct top_ui *ui, int y, int last)
{
	const struct net_interval *ni = &ui->netiv;
	char line[512];
	int *order, n;

	net_dev_header(line, sizeof(line), ui->net_key);
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1, line);
	attroff(A_REVERSE);
	if (!ui->have_net) {
		mvprintw(y++, 0, "(net probes not attached: see dbtrace probes)");
		return y;
	}
	order = malloc(sizeof(*order) * (size_t)(ni->n_devs > ni->n_ports ? ni->n_devs + 1 : ni->n_ports + 1));
	if (!order)
		return y;
	n = net_dev_sort(ni, ui->net_key, order);
	/* leave room for the port table's header and a few ports */
	for (int i = 0; i < n && y < last - 4; i++) {
		net_dev_row(line, sizeof(line), &ni->devs[order[i]],
			    ni->dev_loss ? &ni->dev_loss[order[i]] : NULL);
		mvprintw(y++, 0, "%s", line);
	}
	y++;
	if (ui->net_stages)
		stage_table_header(line, sizeof(line));
	else
		net_port_header(line, sizeof(line), ui->net_key);
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1, line);
	attroff(A_REVERSE);
	n = net_port_sort(ni, ui->net_key, order);
	for (int i = 0; i < n && y < last; i++) {
		if (ui->net_stages)
			stage_table_row(line, sizeof(line), &ni->ports[order[i]]);
		else
			net_port_row(line, sizeof(line), &ni->ports[order[i]],
				     ni->port_loss ? &ni->port_loss[order[i]] : NULL);
		mvprintw(y++, 0, "%s", line);
	}
	free(order);
	return y;
}

static void draw(struct top_ui *ui)
{
	char help[512], bpf_text[64];
	int y = 0, maxy = getmaxy(stdscr);
	int panel = maxy - 1 - FINDING_LINES;

	erase();
	mvprintw(y++, 0, "dbtrace: %s", ui->status);
	mvprintw(y++, 0, "t=%.1fs  interval %.2fs  lost events %llu  thread evictions %llu  %s", ui->t_s,
		 ui->dt_s, (unsigned long long)ui->lost_events, (unsigned long long)ui->thread_evictions,
		 bpf_cost_text(&ui->bpf, bpf_text, sizeof(bpf_text)));
	y++;
	if (ui->net)
		draw_net(ui, y, panel);
	else if (ui->time)
		draw_class_view(ui, y, panel, &time_table_view, ui->time_key);
	else if (ui->classes)
		draw_class_view(ui, y, panel, &class_table_view, ui->class_key);
	else
		draw_cpus(ui, y, panel);
	draw_findings(ui, panel);
	mvprintw(maxy - 1, 0, "%s", ui->net ? net_table_key_help()
				    : ui->time ? class_view_key_help(&time_table_view, help, sizeof(help))
				    : ui->classes ? class_view_key_help(&class_table_view, help, sizeof(help))
						  : cpu_table_key_help());
	refresh();
}

int top_ui_draw(struct top_ui *ui, const struct interval *iv, const struct finding_list *found)
{
	int n = iv->ncpus < ui->ncpus ? iv->ncpus : ui->ncpus;

	memcpy(ui->rows, iv->rows, sizeof(*ui->rows) * (size_t)n);
	ui->total = iv->total;
	ui->view_ncpus = n;
	ui->t_s = iv->t_s;
	ui->dt_s = iv->dt_s;
	ui->lost_events = iv->lost_events;
	ui->thread_evictions = iv->thread_evictions;
	ui->bpf = bpf_cost_row(&iv->bpf, FAM_COUNT);
	if (ui->have_sched)
		sched_interval_free(&ui->sched);
	ui->have_sched = iv->have_sched && !sched_interval_copy(&ui->sched, &iv->sched);
	if (ui->have_net)
		net_interval_free(&ui->netiv);
	ui->have_net = iv->have_net && !net_interval_copy(&ui->netiv, &iv->net);
	findings_clear(&ui->findings);
	for (int i = 0; found && i < found->n; i++)
		findings_merge(&ui->findings, &found->items[i]);
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
			/* cpus -> classes -> time -> net -> cpus */
			if (ui->net) {
				ui->net = false;
			} else if (ui->time) {
				ui->time = false;
				ui->net = true;
			} else if (ui->classes) {
				ui->classes = false;
				ui->time = true;
			} else {
				ui->classes = true;
			}
			redraw = true;
		} else if (ch == 'a' && (ui->time || ui->classes) && !ui->net) {
			ui->all = !ui->all;
			redraw = true;
		} else if (ch > 0 && ch < 128 && ui->time) {
			if (class_view_valid_key(&time_table_view, (char)ch)) {
				ui->time_key = (char)ch;
				redraw = true;
			}
		} else if (ch == STAGE_TABLE_KEY && ui->net) {
			ui->net_stages = !ui->net_stages;
			redraw = true;
		} else if (ch > 0 && ch < 128 && ui->net) {
			if (net_table_valid_key((char)ch)) {
				ui->net_key = (char)ch;
				redraw = true;
			}
		} else if (ch > 0 && ch < 128 && ui->classes && class_view_valid_key(&class_table_view, (char)ch)) {
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
	if (ui->have_net)
		net_interval_free(&ui->netiv);
	findings_free(&ui->findings);
	free(ui->rows);
	free(ui->order);
	free(ui);
}
