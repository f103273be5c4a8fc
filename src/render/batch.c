#include "render/batch.h"
#include "render/bpf_cost_text.h"
#include "render/class_table.h"
#include "render/cpu_table.h"
#include "render/net_table.h"
#include "render/time_table.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

static int print_cpus(FILE *out, const struct interval *iv, char sort_key)
{
	char line[512];
	int *order, n;

	order = malloc(sizeof(*order) * (size_t)iv->ncpus);
	if (!order)
		return -ENOMEM;
	cpu_table_header(line, sizeof(line), sort_key);
	fprintf(out, "%s\n", line);
	cpu_table_row(line, sizeof(line), &iv->total, iv->dt_s);
	fprintf(out, "%s\n", line);
	n = cpu_table_sort(iv->rows, iv->ncpus, sort_key, order);
	for (int i = 0; i < n; i++) {
		cpu_table_row(line, sizeof(line), &iv->rows[order[i]], iv->dt_s);
		fprintf(out, "%s\n", line);
	}
	free(order);
	return 0;
}

/* The class view or the time view (render/class_view.h). */
static int print_class_view(FILE *out, const struct interval *iv, const struct class_view *v, char sort_key,
			    bool all)
{
	struct class_rows rows;
	char line[512];
	int err;

	class_view_header(v, line, sizeof(line), sort_key);
	fprintf(out, "%s\n", line);
	if (!iv->have_sched) {
		fprintf(out, "(sched probes not attached)\n");
		return 0;
	}
	err = class_view_rows(v, &iv->sched, sort_key, all, &rows);
	if (err)
		return err;
	for (int i = 0; i < rows.n; i++) {
		class_view_row(v, line, sizeof(line), &rows.row[i]);
		fprintf(out, "%s\n", line);
	}
	class_rows_free(&rows);
	return 0;
}

/* The network view: devices, then ports. */
static int print_net(FILE *out, const struct interval *iv, char sort_key)
{
	const struct net_interval *ni = iv->have_net ? &iv->net : NULL;
	char line[512];
	int *order, n;

	net_dev_header(line, sizeof(line), sort_key);
	fprintf(out, "%s\n", line);
	if (!ni) {
		fprintf(out, "(net probes not attached)\n");
		return 0;
	}
	order = malloc(sizeof(*order) * (size_t)(ni->n_devs > ni->n_ports ? ni->n_devs + 1 : ni->n_ports + 1));
	if (!order)
		return -ENOMEM;
	n = net_dev_sort(ni, sort_key, order);
	for (int i = 0; i < n; i++) {
		net_dev_row(line, sizeof(line), &ni->devs[order[i]],
			    ni->dev_loss ? &ni->dev_loss[order[i]] : NULL);
		fprintf(out, "%s\n", line);
	}
	net_port_header(line, sizeof(line), sort_key);
	fprintf(out, "%s\n", line);
	n = net_port_sort(ni, sort_key, order);
	for (int i = 0; i < n; i++) {
		net_port_row(line, sizeof(line), &ni->ports[order[i]],
			     ni->port_loss ? &ni->port_loss[order[i]] : NULL);
		fprintf(out, "%s\n", line);
	}
	free(order);
	return 0;
}

int batch_print(FILE *out, const struct interval *iv, const struct finding_list *found, enum top_view view,
		char sort_key, bool all)
{
	char stamp[16];
	time_t now = time(NULL);
	struct tm tm;
	struct bpf_cost_row bpf = bpf_cost_row(&iv->bpf, FAM_COUNT);
	char bpf_text[64];
	int err;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(out, "dbtrace top - %s  t=%.1fs  interval %.2fs  lost events %llu  thread evictions %llu  %s\n",
		stamp, iv->t_s, iv->dt_s, (unsigned long long)iv->lost_events,
		(unsigned long long)iv->thread_evictions, bpf_cost_text(&bpf, bpf_text, sizeof(bpf_text)));
	err = view == TOP_VIEW_NET       ? print_net(out, iv, sort_key)
	      : view == TOP_VIEW_CLASSES ? print_class_view(out, iv, &class_table_view, sort_key, all)
	      : view == TOP_VIEW_TIME    ? print_class_view(out, iv, &time_table_view, sort_key, all)
					 : print_cpus(out, iv, sort_key);
	if (err)
		return err;
	for (int i = 0; found && i < found->n; i++) {
		const struct finding *f = &found->items[i];

		fprintf(out, "FINDING %s %s: %s\n", finding_severity_name(f->severity), f->id, f->title);
	}
	fputc('\n', out);
	fflush(out);
	return ferror(out) ? -EIO : 0;
}
