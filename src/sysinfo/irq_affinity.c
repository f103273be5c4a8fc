// SPDX-License-Identifier: GPL-2.0
#include "sysinfo/irq_affinity.h"
#include "core/vec.h"
#include "sysinfo/procfile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Linux caps a device at 4096 tx queues and nr_irqs well below 2^20;
 * the caps only bound work on a corrupt or hostile tree.
 */
#define DIR_ENTRIES_MAX (1u << 16)
#define IFNAMSIZ_ 16

int dbt_irq_affinity_read(const char *root, unsigned int irq,
			  struct dbt_irq_affinity *out)
{
	char rel[64];
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(rel, sizeof(rel), "proc/irq/%u/smp_affinity_list", irq);
	err = dbt_cpuset_read_list(root, rel, &out->configured);
	if (err == -ENOENT) {
		/* Kernels before 2.6.37 only have the hex mask. */
		snprintf(rel, sizeof(rel), "proc/irq/%u/smp_affinity", irq);
		err = dbt_cpuset_read_mask(root, rel, &out->configured);
		out->configured_from_mask = err == 0;
	}
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "proc/irq/%u/effective_affinity_list", irq);
	out->has_effective =
		dbt_cpuset_read_list(root, rel, &out->effective) == 0;
	if (!out->has_effective)
		dbt_cpuset_zero(&out->effective);
	return 0;
}

/* An interface name as the kernel allows it (dev_valid_name()); anything
 * else could walk out of sys/class/net. */
static bool valid_dev(const char *dev)
{
	size_t n;

	if (!dev)
		return false;
	n = strnlen(dev, IFNAMSIZ_);
	if (n == 0 || n >= IFNAMSIZ_ || strcmp(dev, ".") == 0 ||
	    strcmp(dev, "..") == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (dev[i] == '/' || dev[i] == ':' || dev[i] == ' ' ||
		    dev[i] == '\t' || dev[i] == '\n')
			return false;
	return true;
}

/* Plain decimal without sign or leading junk, as sysfs names are. */
static bool parse_index(const char *s, unsigned int *out)
{
	unsigned long v = 0;
	size_t i = 0;

	if (!s[0])
		return false;
	for (; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 9)
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*out = (unsigned int)v;
	return true;
}

static int queue_cmp(const void *a, const void *b)
{
	const struct dbt_net_queue *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return 0;
}

int dbt_net_queues_read(const char *root, const char *dev,
			struct dbt_net_queues *out)
{
	char rel[128];
	size_t cap = 0;
	DIR *d;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (!valid_dev(dev))
		return -EINVAL;
	snprintf(rel, sizeof(rel), "sys/class/net/%s/queues", dev);
	err = procfile_opendir(root, rel, &d);
	if (err)
		return err;
	for (unsigned int seen = 0; seen < DIR_ENTRIES_MAX; seen++) {
		struct dirent *e = readdir(d);
		enum dbt_queue_kind kind;
		unsigned int index;

		if (!e)
			break;
		if (strncmp(e->d_name, "rx-", 3) == 0)
			kind = DBT_QUEUE_RX;
		else if (strncmp(e->d_name, "tx-", 3) == 0)
			kind = DBT_QUEUE_TX;
		else
			continue;
		if (!parse_index(e->d_name + 3, &index))
			continue;
		err = VEC_RESERVE(out->q, cap, out->n + 1);
		if (err)
			goto out;
		struct dbt_net_queue *q = &out->q[out->n++];

		q->kind = kind;
		q->index = index;
		snprintf(rel, sizeof(rel), "sys/class/net/%s/queues/%s-%u/%s",
			 dev, kind == DBT_QUEUE_RX ? "rx" : "tx", index,
			 kind == DBT_QUEUE_RX ? "rps_cpus" : "xps_cpus");
		q->mask_err = dbt_cpuset_read_mask(root, rel, &q->cpus);
		q->has_mask = q->mask_err == 0;
		if (kind == DBT_QUEUE_RX)
			out->n_rx++;
		else
			out->n_tx++;
	}
	/* readdir order is the filesystem's; findings want rx-0, rx-1, ... */
	if (out->n)
		qsort(out->q, out->n, sizeof(*out->q), queue_cmp);
out:
	closedir(d);
	return err;
}

void dbt_net_queues_free(struct dbt_net_queues *qs)
{
	if (!qs)
		return;
	free(qs->q);
	memset(qs, 0, sizeof(*qs));
}

const struct dbt_net_queue *dbt_net_queues_find(const struct dbt_net_queues *qs,
						enum dbt_queue_kind kind,
						unsigned int index)
{
	for (size_t i = 0; i < qs->n; i++)
		if (qs->q[i].kind == kind && qs->q[i].index == index)
			return &qs->q[i];
	return NULL;
}

static int uint_cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static int list_irqs(const char *root, const char *rel, unsigned int **irqs, size_t *n)
{
	size_t cap = 0;
	unsigned int *v = NULL;
	DIR *d;
	int err;

	err = procfile_opendir(root, rel, &d);
	if (err)
		return err;
	for (unsigned int seen = 0; seen < DIR_ENTRIES_MAX; seen++) {
		struct dirent *e = readdir(d);
		unsigned int irq;

		if (!e)
			break;
		if (!parse_index(e->d_name, &irq))
			continue;
		err = VEC_RESERVE(v, cap, *n + 1);
		if (err)
			goto out;
		v[(*n)++] = irq;
	}
	if (*n)
		qsort(v, *n, sizeof(*v), uint_cmp);
out:
	closedir(d);
	if (err) {
		free(v);
		*n = 0;
		v = NULL;
	}
	*irqs = v;
	return err;
}

/* virtio-net's "device" is the virtio device; its subsystem link ends in
 * "/virtio" and its MSI-X vectors sit on the PCI function above it. */
static bool is_virtio(const char *root, const char *dev)
{
	char rel[128], name[64];

	snprintf(rel, sizeof(rel), "sys/class/net/%s/device/subsystem", dev);
	return !procfile_link_name(root, rel, name, sizeof(name)) && !strcmp(name, "virtio");
}

int dbt_net_msi_irqs(const char *root, const char *dev, unsigned int **irqs,
		     size_t *n)
{
	char rel[128];
	int err;

	*irqs = NULL;
	*n = 0;
	if (!valid_dev(dev))
		return -EINVAL;
	snprintf(rel, sizeof(rel), "sys/class/net/%s/device/msi_irqs", dev);
	err = list_irqs(root, rel, irqs, n);
	if (err != -ENOENT || !is_virtio(root, dev))
		return err;
	/* ".." after a symlink resolves from its target: the PCI parent. */
	snprintf(rel, sizeof(rel), "sys/class/net/%s/device/../msi_irqs", dev);
	return list_irqs(root, rel, irqs, n);
}
