// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/nic_layout.h"
#include "core/vec.h"
#include "sysinfo/procfile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A host has at most a few thousand interfaces; bounds a corrupt tree. */
#define DEV_ENTRIES_MAX (1u << 16)

static int add_irq(struct dbt_nic *nic, size_t *cap, const char *root,
		   const struct dbt_interrupts *it, int irq)
{
	const struct dbt_irq_row *row = it ? dbt_interrupts_find_irq(it, irq) : NULL;
	struct dbt_nic_irq *ni;
	int err = VEC_RESERVE(nic->irqs, *cap, nic->n_irqs + 1);

	if (err)
		return err;
	ni = &nic->irqs[nic->n_irqs++];
	memset(ni, 0, sizeof(*ni));
	ni->irq = irq;
	if (row) {
		snprintf(ni->name, sizeof(ni->name), "%s", row->actions);
		ni->count = dbt_irq_row_total(row);
	}
	ni->has_affinity = dbt_irq_affinity_read(root, (unsigned int)irq, &ni->aff) == 0;
	return 0;
}

static void read_master(const char *root, const char *dev, char *out, size_t len)
{
	char rel[96];

	snprintf(rel, sizeof(rel), "sys/class/net/%s/master", dev);
	/* a name too long for an interface is not one: leave it empty */
	if (procfile_link_name(root, rel, out, len))
		out[0] = '\0';
}

static int read_ifindex(const char *root, const char *dev)
{
	char rel[96], *buf;
	size_t len;
	long v;

	snprintf(rel, sizeof(rel), "sys/class/net/%s/ifindex", dev);
	if (procfile_slurp(root, rel, 64, &buf, &len))
		return 0;
	v = strtol(buf, NULL, 10);
	free(buf);
	return v > 0 && v <= INT_MAX ? (int)v : 0;
}

int dbt_nic_read(const char *root, const struct dbt_interrupts *it,
		 const char *dev, struct dbt_nic *out)
{
	unsigned int *msi = NULL;
	size_t n_msi = 0, cap = 0;
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(out->dev, sizeof(out->dev), "%s", dev);
	out->queues_err = dbt_net_queues_read(root, dev, &out->queues);
	if (out->queues_err == -EINVAL)
		return -EINVAL;		/* not an interface name */
	read_master(root, dev, out->master, sizeof(out->master));
	out->ifindex = read_ifindex(root, dev);
	err = dbt_net_msi_irqs(root, dev, &msi, &n_msi);
	if (!err && n_msi) {
		out->irqs_from_msi = true;
		for (size_t i = 0; i < n_msi && !err; i++)
			err = add_irq(out, &cap, root, it, (int)msi[i]);
		free(msi);
		return err;
	}
	free(msi);
	if (err && err != -ENOENT && err != -ENOTDIR)
		return err;
	/* no MSI vectors in the tree: fall back to handler names, in the
	 * order /proc/interrupts lists them (ascending IRQ) */
	for (size_t i = 0; it && i < it->n_rows; i++) {
		const struct dbt_irq_row *row = &it->rows[i];

		if (row->irq < 0 || !dbt_irq_row_is_nic_queue(row, dev))
			continue;
		err = add_irq(out, &cap, root, it, row->irq);
		if (err)
			return err;
	}
	return 0;
}

void dbt_nic_free(struct dbt_nic *nic)
{
	if (!nic)
		return;
	free(nic->irqs);
	dbt_net_queues_free(&nic->queues);
	memset(nic, 0, sizeof(*nic));
}

static int by_dev(const void *a, const void *b)
{
	return strcmp(((const struct dbt_nic *)a)->dev, ((const struct dbt_nic *)b)->dev);
}

int dbt_nic_layout_read(const char *root, struct dbt_nic_layout *out)
{
	struct dbt_interrupts it = { 0 };
	struct dirent *e;
	size_t cap = 0;
	DIR *d;
	int err;

	memset(out, 0, sizeof(*out));
	err = procfile_opendir(root, "sys/class/net", &d);
	if (err)
		return err;
	out->interrupts_err = dbt_interrupts_read(root, &it);
	for (unsigned int seen = 0; seen < DEV_ENTRIES_MAX && (e = readdir(d)); seen++) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo") ||
		    strlen(e->d_name) >= sizeof(out->nics[0].dev))
			continue;
		err = VEC_RESERVE(out->nics, cap, out->n + 1);
		if (err)
			break;
		err = dbt_nic_read(root, out->interrupts_err ? NULL : &it, e->d_name,
				   &out->nics[out->n]);
		if (err == -EINVAL) {
			/* sysfs entries that are not interface names are skipped */
			dbt_nic_free(&out->nics[out->n]);
			err = 0;
			continue;
		}
		out->n++;
		if (err)
			break;
	}
	closedir(d);
	dbt_interrupts_free(&it);
	if (out->n)
		qsort(out->nics, out->n, sizeof(*out->nics), by_dev);
	return err;
}

void dbt_nic_layout_free(struct dbt_nic_layout *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		dbt_nic_free(&l->nics[i]);
	free(l->nics);
	memset(l, 0, sizeof(*l));
}

const struct dbt_cpuset *dbt_nic_irq_cpus(const struct dbt_nic_irq *irq)
{
	if (!irq->has_affinity)
		return NULL;
	if (irq->aff.has_effective && !dbt_cpuset_empty(&irq->aff.effective))
		return &irq->aff.effective;
	return &irq->aff.configured;
}
