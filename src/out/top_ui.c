#include "out/top_ui.h"
#include "out/cpu_table.h"

#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct top_ui {
	char sort_key;
	char status[256];
	int ncpus;
	bool have_view;
	struct interval_view view;     /* the last one, for redraws on a key */
	struct cpu_row *rows, total;
	int *order;
};

static void restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

int top_ui_open(struct top_ui **out, int ncpus, char sort_key, const char *status)
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
	ui->sort_key = sort_key;
	snprintf(ui->status, sizeof(ui->status), "%s", status);
	if (!initscr()) {
		top_ui_close(ui);
		return -ENOTTY;
	}
	/* a crash path that still calls exit() gets the terminal back too */
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

static void draw(struct top_ui *ui)
{
	const struct interval_view *iv = &ui->view;
	char line[512];
	int y = 0, n, maxy = getmaxy(stdscr);

	erase();
	mvprintw(y++, 0, "dbtrace: %s", ui->status);
	mvprintw(y++, 0, "t=%.1fs  interval %.2fs  lost events %llu", iv->t_s, iv->dt_s,
		 (unsigned long long)iv->lost_events);
	y++;
	cpu_table_header(line, sizeof(line), ui->sort_key);
	attron(A_REVERSE);
	mvprintw(y++, 0, "%-*s", COLS > 1 ? COLS - 1 : 1, line);
	attroff(A_REVERSE);
	cpu_table_row(line, sizeof(line), iv->total, iv->dt_s);
	attron(A_BOLD);
	mvprintw(y++, 0, "%s", line);
	attroff(A_BOLD);
	n = cpu_table_sort(iv->rows, iv->ncpus, ui->sort_key, ui->order);
	for (int i = 0; i < n && y < maxy - 1; i++) {
		cpu_table_row(line, sizeof(line), &iv->rows[ui->order[i]], iv->dt_s);
		mvprintw(y++, 0, "%s", line);
	}
	mvprintw(maxy - 1, 0, "%s", cpu_table_key_help());
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
	ui->have_view = true;
	draw(ui);
	return 0;
}

int top_ui_input(struct top_ui *ui)
{
	int ch;

	while ((ch = getch()) != ERR) {
		if (ch == 'q' || ch == 'Q' || ch == 27 /* Esc */)
			return 1;
		if (ch == KEY_RESIZE || (ch > 0 && ch < 128 && cpu_table_valid_key((char)ch))) {
			if (ch != KEY_RESIZE)
				ui->sort_key = (char)ch;
			if (ui->have_view)
				draw(ui);
		}
	}
	return 0;
}

void top_ui_close(struct top_ui *ui)
{
	if (!ui)
		return;
	restore_terminal();
	free(ui->rows);
	free(ui->order);
	free(ui);
}
