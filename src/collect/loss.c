#include "collect/loss.h"
#include "core/bpf_batch.h"
#include "core/bpf_percpu.h"
#include "core/bpf_plan_skel.h"
#include "core/log.h"
#include "core/loop_fds.h"
#include "core/vec.h"
#include "sysinfo/kernel_hz.h"
#include "sysinfo/netns.h"
#include "sysinfo/netstat.h"
#include "sysinfo/procfile.h"
#include "sysinfo/softnet.h"
#include "loss.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

/* tp_btf first: typed loads for the drop path and socket storage. */
static const struct plan_variant variants[] = {
	{ "tp_btf", "_btf", FEAT(FEAT_KERNEL_BTF) },
	{ "raw_tp", "_raw", 0 },
};

PLAN_SKEL(loss)

/* Socket state in the LRU hash for raw_tp, and for tp_btf where tracing
 * programs may not use socket storage; the hash shrinks to one entry
 * where it is not used. */
static int skel_prepare(struct plan_handle *h, const struct plan_variant *v, struct probe_report *rep)
{
	struct loss_bpf *s = h->skel;
	bool hash = !strcmp(v->suffix, "_raw") ||
		    !bpf_feature_or_note(h->kernel, FEAT_SK_STORAGE_TRACING, rep, "socket state in a hash");

	s->rodata->socks_in_hash = hash;
	return hash ? 0 : bpf_map__set_max_entries(s->maps.loss_socks, 1);
}

static const struct plan_family family = {
	.name = "loss",
	.variants = variants,
	.n_variants = sizeof(variants) / sizeof(variants[0]),
	PLAN_SKEL_OPS(loss),
	.prepare = skel_prepare,
};

/* "SKB_DROP_REASON_QDISC_DROP" -> "qdisc_drop", "SKB_CONSUMED" -> "consumed". */
static void reason_name(const char *enum_name, char *out, size_t len)
{
	static const char long_prefix[] = "SKB_DROP_REASON_", short_prefix[] = "SKB_";
	const char *s = enum_name;
	size_t i = 0;

	if (!strncmp(s, long_prefix, sizeof(long_prefix) - 1))
		s += sizeof(long_prefix) - 1;
	else if (!strncmp(s, short_prefix, sizeof(short_prefix) - 1))
		s += sizeof(short_prefix) - 1;
	for (; *s && i + 1 < len; s++)
		out[i++] = (char)tolower((unsigned char)*s);
	out[i] = 0;
}

/* Names the reason slots from the running kernel's enum skb_drop_reason
 * (in btf, the kernel's or --btf's): values differ between kernels, so
 * they are never compiled in. */
static void name_reasons(struct loss_reason_names *n, const struct btf *btf)
{
	const struct btf_type *t;
	int id;

	memset(n, 0, sizeof(*n));
	if (!btf) {
		log_debug("loss: no kernel BTF: drop reasons go unnamed");
		return;
	}
	id = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t && btf_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (int i = 0; i < btf_vlen(t); i++) {
			uint32_t v = (uint32_t)e[i].val;

			if (v < DBT_LOSS_REASON_OTHER && !n->name[v][0])
				reason_name(btf__name_by_offset(btf, e[i].name_off), n->name[v],
					    sizeof(n->name[v]));
		}
	}
}

static long read_hz(void)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	return kernel_hz_read(NULL, u.release);
}

int loss_collector_open(struct loss_collector *c, struct probe_report *rep, struct bpf_features *kernel)
{
	struct loss_bpf *s;
	size_t vsize;
	int err;

	memset(c, 0, sizeof(*c));
	c->h.kernel = kernel;
	c->ncpus = percpu_ncpus();
	if (c->ncpus <= 0)
		return c->ncpus ? c->ncpus : -EINVAL;
	c->self_netns = netns_self(NULL);
	c->hz = read_hz();
	if (c->hz <= 0)
		log_debug("loss: kernel HZ unknown (no kernel config): RTOs are not converted to ms");
	name_reasons(&c->names, bpf_features_btf(kernel));
	vsize = sizeof(struct dbt_loss_port) > sizeof(struct dbt_loss_drop) ? sizeof(struct dbt_loss_port)
									     : sizeof(struct dbt_loss_drop);
	c->keys = calloc(LOSS_CHUNK, sizeof(struct dbt_loss_drop_key));
	c->values = calloc((size_t)LOSS_CHUNK * (size_t)c->ncpus, (vsize + 7) & ~(size_t)7);
	c->reasons = calloc((size_t)c->ncpus, sizeof(*c->reasons));
	c->stats = calloc((size_t)c->ncpus, sizeof(*c->stats));
	if (!c->keys || !c->values || !c->reasons || !c->stats) {
		loss_collector_close(c);
		return -ENOMEM;
	}
	err = plan_run(&family, &c->h, rep);
	if (err) {
		loss_collector_close(c);
		return err;
	}
	s = c->h.skel;
	c->ports_fd = bpf_map__fd(s->maps.loss_ports);
	c->drops_fd = bpf_map__fd(s->maps.loss_drops);
	c->reasons_fd = bpf_map__fd(s->maps.loss_reasons);
	c->netns_fd = bpf_map__fd(s->maps.loss_netns);
	c->stats_fd = bpf_map__fd(s->maps.loss_stats);
	return 0;
}

/* --- the maps ------------------------------------------------------------ */

struct take_ctx {
	struct loss_collector *c;
	struct loss_snapshot *snap;
};

static int take_ports(void *ctx, uint32_t n)
{
	struct take_ctx *t = ctx;
	const struct dbt_loss_port_key *keys = t->c->keys;
	size_t stride = (sizeof(struct dbt_loss_port) + 7) & ~(size_t)7;

	for (uint32_t i = 0; i < n; i++) {
		const char *base = (const char *)t->c->values + (size_t)i * stride * (size_t)t->c->ncpus;
		struct loss_port_sample *p = loss_snapshot_add_port(t->snap);

		if (!p)
			return -ENOMEM;
		p->port = keys[i].port;
		p->role = (uint8_t)keys[i].role;
		for (int cpu = 0; cpu < t->c->ncpus; cpu++) {
			const struct dbt_loss_port *v = (const void *)(base + (size_t)cpu * stride);

			for (int k = 0; k < DBT_RETX_KINDS; k++)
				p->c.segs[k] += v->segs[k];
			p->c.rto_timer += v->rto_timer;
			p->c.tlp_probes += v->tlp_probes;
			p->c.stalls += v->stalls;
			p->c.stall_rto_jiffies += v->stall_rto_jiffies;
			p->c.conns += v->conns;
		}
	}
	return 0;
}

static int take_drops(void *ctx, uint32_t n)
{
	struct take_ctx *t = ctx;
	const struct dbt_loss_drop_key *keys = t->c->keys;
	size_t stride = (sizeof(struct dbt_loss_drop) + 7) & ~(size_t)7;

	for (uint32_t i = 0; i < n; i++) {
		const char *base = (const char *)t->c->values + (size_t)i * stride * (size_t)t->c->ncpus;
		struct loss_drop_sample *d = loss_snapshot_add_drop(t->snap);

		if (!d)
			return -ENOMEM;
		d->key = keys[i];
		for (int cpu = 0; cpu < t->c->ncpus; cpu++) {
			const struct dbt_loss_drop *v = (const void *)(base + (size_t)cpu * stride);

			if (!d->dev[0] && v->dev[0])
				memcpy(d->dev, v->dev, sizeof(d->dev));
			d->count += v->count;
		}
		d->dev[sizeof(d->dev) - 1] = 0;
	}
	return 0;
}

static int read_maps(struct loss_collector *c, struct loss_snapshot *snap)
{
	struct take_ctx t = { c, snap };
	__u32 zero = 0;
	int err;

	err = bpf_hash_stream(c->ports_fd, c->keys, c->values, LOSS_CHUNK, false, DBT_LOSS_MAX_PORTS,
			      take_ports, &t);
	if (!err)
		err = bpf_hash_stream(c->drops_fd, c->keys, c->values, LOSS_CHUNK, false,
				      DBT_LOSS_MAX_DROPS, take_drops, &t);
	if (!err)
		err = percpu_lookup(c->reasons_fd, &zero, c->reasons, sizeof(*c->reasons));
	if (!err)
		err = percpu_lookup(c->stats_fd, &zero, c->stats, sizeof(*c->stats));
	if (err)
		return err;
	memset(&snap->stats, 0, sizeof(snap->stats));
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		for (int s = 0; s < DBT_LOSS_REASON_SLOTS; s++)
			snap->reasons[s] += c->reasons[cpu].n[s];
		snap->stats.port_failed += c->stats[cpu].port_failed;
		snap->stats.drop_failed += c->stats[cpu].drop_failed;
		snap->stats.sock_failed += c->stats[cpu].sock_failed;
		snap->stats.netns_failed += c->stats[cpu].netns_failed;
	}
	c->failed = snap->stats.port_failed + snap->stats.drop_failed + snap->stats.sock_failed +
		    snap->stats.netns_failed;
	return 0;
}

/* --- namespaces ------------------------------------------------------------ */

static struct loss_ns_ref *ns_ref(struct loss_collector *c, uint32_t inum)
{
	struct loss_ns_ref *r;

	for (int i = 0; i < c->n_ns; i++)
		if (c->ns[i].inum == inum)
			return &c->ns[i];
	r = NULL;
	if (c->n_ns >= DBT_LOSS_MAX_NETNS) {
		/* full: a namespace not found at this read (gone, as containers
		 * come and go) makes room */
		for (int i = 0; i < c->n_ns && !r; i++)
			if (!c->ns[i].live)
				r = &c->ns[i];
		if (!r)
			return NULL;
	} else {
		if (VEC_RESERVE(c->ns, c->cap_ns, (size_t)c->n_ns + 1))
			return NULL;
		r = &c->ns[c->n_ns++];
	}
	memset(r, 0, sizeof(*r));
	r->inum = inum;
	return r;
}

/* The namespaces `ip netns` names (/run/netns/NAME): where test rigs and
 * many container runtimes keep theirs. */
static void scan_named(struct loss_collector *c)
{
	struct dirent *de;
	DIR *d;

	if (procfile_opendir(NULL, "/run/netns", &d))
		return;
	while ((de = readdir(d))) {
		struct loss_ns_ref *r;
		char path[300];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/run/netns/%.200s", de->d_name);
		if (stat(path, &st) || (uint32_t)st.st_ino == c->self_netns)
			continue;
		r = ns_ref(c, (uint32_t)st.st_ino);
		if (!r)
			break;
		snprintf(r->path, sizeof(r->path), "%s", path);
		snprintf(r->name, sizeof(r->name), "%.*s", (int)sizeof(r->name) - 1, de->d_name);
		r->live = true;
	}
	closedir(d);
}

/* Namespaces whose sockets or devices the kernel side saw. */
static void scan_seen(struct loss_collector *c)
{
	__u32 key, next;

	for (int i = 0; i < DBT_LOSS_MAX_NETNS; i++) {
		struct loss_ns_ref *r;
		char name[NET_NETNS_NAME_MAX] = "";

		if (bpf_map_get_next_key(c->netns_fd, i ? &key : NULL, &next))
			break;
		key = next;
		if (next == c->self_netns)
			continue;
		r = ns_ref(c, next);
		if (!r || r->live)
			continue;
		if (netns_find(NULL, next, r->path, sizeof(r->path), name, sizeof(name))) {
			/* gone: stop looking for it */
			bpf_map_delete_elem(c->netns_fd, &next);
			continue;
		}
		if (name[0])
			snprintf(r->name, sizeof(r->name), "%s", name);
		else
			snprintf(r->name, sizeof(r->name), "net:[%u]", next);
		r->live = true;
	}
}

struct ns_read {
	struct loss_collector *c;
	struct loss_ns_sample *ns;
	int lis_err;
};

static int read_here(void *ctx)
{
	struct ns_read *r = ctx;

	if (netstat_read(NULL, &r->ns->tcp))
		r->ns->tcp.have = false;
	net_limits_read(NULL, &r->ns->limits);
	r->lis_err = listeners_dump(&r->c->lis);
	return 0;
}

/* Reads one namespace (path NULL: dbtrace's own) into snap. */
static int read_ns(struct loss_collector *c, struct loss_snapshot *snap, uint32_t inum,
		   const char *path, const char *name)
{
	struct loss_ns_sample *ns = loss_snapshot_add_ns(snap);
	struct ns_read r = { c, ns, 0 };
	int err;

	if (!ns)
		return -ENOMEM;
	ns->netns = inum;
	snprintf(ns->name, sizeof(ns->name), "%s", name);
	c->lis.n = 0;
	err = path ? netns_run(path, read_here, &r) : read_here(&r);
	if (err == -ENOTRECOVERABLE)
		return err;
	if (err || r.lis_err) {
		log_debug("loss: namespace %s: %s", name[0] ? name : "own", strerror(-(err ? err : r.lis_err)));
		c->lis.n = 0;
	}
	for (int i = 0; i < c->lis.n; i++) {
		const struct listener_info *l = &c->lis.l[i];
		struct loss_listener_sample *s = loss_snapshot_add_listener(snap);

		if (!s)
			return -ENOMEM;
		s->netns = inum;
		s->inode = l->inode;
		s->port = l->port;
		s->queue = l->queue;
		s->backlog = l->backlog;
		s->have_drops = l->have_drops;
		s->drops = l->drops;
	}
	return 0;
}

static int read_namespaces(struct loss_collector *c, struct loss_snapshot *snap)
{
	int err = read_ns(c, snap, c->self_netns, NULL, "");

	for (int i = 0; i < c->n_ns; i++)
		c->ns[i].live = false;
	scan_named(c);
	scan_seen(c);
	for (int i = 0; !err && i < c->n_ns; i++)
		if (c->ns[i].live)
			err = read_ns(c, snap, c->ns[i].inum, c->ns[i].path, c->ns[i].name);
	return err;
}

int loss_collector_read(struct loss_collector *c, struct loss_snapshot *snap)
{
	int err, n;

	snap->n_port = snap->n_drop = snap->n_ns = snap->n_lis = 0;
	memset(snap->reasons, 0, sizeof(snap->reasons));
	snap->mono_ns = mono_ns();
	snap->self_netns = c->self_netns;
	snap->hz = c->hz;
	snap->names = &c->names;
	err = read_maps(c, snap);
	if (err)
		return err;
	err = loss_snapshot_reserve_softnet(snap, c->ncpus);
	if (err)
		return err;
	n = softnet_read(NULL, snap->softnet, c->ncpus);
	if (n < 0)
		log_debug("loss: cannot read /proc/net/softnet_stat: %s", strerror(-n));
	snap->n_softnet = n < 0 ? 0 : n;
	return read_namespaces(c, snap);
}

uint64_t loss_collector_lost(const struct loss_collector *c)
{
	return plan_lost_events(&c->h) + c->failed;
}

void loss_collector_close(struct loss_collector *c)
{
	plan_close(&family, &c->h);
	free(c->keys);
	free(c->values);
	free(c->reasons);
	free(c->stats);
	free(c->ns);
	listener_table_free(&c->lis);
	memset(c, 0, sizeof(*c));
}
