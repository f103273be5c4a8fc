#include "core/bpf_plan.h"
#include "core/log.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static void reject_text(struct probe_report *rep, const char *path, const char *text)
{
	struct probe_rejection *r;

	if (rep->n_rejected >= PROBE_MAX_REJECTED)
		return;
	r = &rep->rejected[rep->n_rejected++];
	snprintf(r->path, sizeof(r->path), "%s", path);
	snprintf(r->error, sizeof(r->error), "%s", text);
}

static void reject(struct probe_report *rep, const char *path, const char *stage, int err)
{
	char text[PROBE_ERROR_MAX], eb[96];

	snprintf(text, sizeof(text), "%s: %s", stage, log_errno_text(err, eb, sizeof(eb)));
	reject_text(rep, path, text);
}

static void detach_all(struct plan_handle *h)
{
	while (h->n_links > 0)
		bpf_link__destroy(h->links[--h->n_links]);
}

/* Attaches every program the variant switched on. */
static int attach_each(struct plan_handle *h, char *stage, size_t stagelen)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, h->obj) {
		struct bpf_link *link;

		if (!bpf_program__autoload(prog))
			continue;
		if (h->n_links >= PLAN_MAX_LINKS)
			return -E2BIG;
		link = bpf_program__attach(prog);
		if (!link) {
			int err = -errno;

			snprintf(stage, stagelen, "attach %s", bpf_program__name(prog));
			return err ? err : -EINVAL;
		}
		h->links[h->n_links++] = link;
	}
	return 0;
}

/* What the winning variant hooks, once each (the sampler is one program
 * on every CPU), for `probes` and the capture. */
static void record_hooks(const struct plan_handle *h, struct probe_report *rep)
{
	struct bpf_program *prog;

	rep->n_hooks = 0;
	bpf_object__for_each_program(prog, h->obj) {
		const char *sec = bpf_program__section_name(prog);
		bool seen = false;

		if (!bpf_program__autoload(prog) || !sec)
			continue;
		if (*sec == '?')
			sec++;
		for (int i = 0; i < rep->n_hooks && !seen; i++)
			seen = !strcmp(rep->hooks[i], sec);
		if (!seen && rep->n_hooks < PROBE_MAX_HOOKS)
			snprintf(rep->hooks[rep->n_hooks++], PROBE_HOOK_MAX, "%s", sec);
	}
}

static int try_variant(const struct plan_family *fam, const struct plan_variant *v,
		       struct plan_handle *h, struct probe_report *rep)
{
	struct bpf_features *kernel = h->kernel;
	struct bpf_program *prog;
	char stage[64] = "open", missing[PROBE_ERROR_MAX];
	void *ctx = h->ctx;
	int err, n = 0;

	memset(h, 0, sizeof(*h));
	h->ctx = ctx;
	h->kernel = kernel;
	rep->n_notes = 0;
	/* what the kernel lacks is said as such, without a load the
	 * verifier would refuse with a bare EINVAL */
	if (kernel && bpf_features_missing(kernel, v->needs, missing, sizeof(missing))) {
		reject_text(rep, v->path, missing);
		log_debug("%s: %s rejected: %s", fam->name, v->path, missing);
		return -EOPNOTSUPP;
	}
	err = fam->open(kernel ? kernel->btf_path : NULL, &h->skel, &h->obj);
	if (err)
		goto fail;
	bpf_object__for_each_program(prog, h->obj) {
		int mine = ends_with(bpf_program__name(prog), v->suffix);

		bpf_program__set_autoload(prog, mine);
		n += mine;
	}
	if (!n) {
		err = -ENOENT;
		snprintf(stage, sizeof(stage), "no programs named *%s", v->suffix);
		goto fail;
	}
	if (fam->prepare) {
		snprintf(stage, sizeof(stage), "prepare");
		err = fam->prepare(h, v, rep);
		if (err)
			goto fail;
	}
	snprintf(stage, sizeof(stage), "load");
	err = fam->load(h->skel);
	if (err)
		goto fail;
	if (fam->loaded) {
		snprintf(stage, sizeof(stage), "fill maps");
		err = fam->loaded(h);
		if (err)
			goto fail;
	}
	snprintf(stage, sizeof(stage), "attach");
	err = fam->attach ? fam->attach(h, v, stage, sizeof(stage))
			  : attach_each(h, stage, sizeof(stage));
	if (err)
		goto fail;
	snprintf(rep->attach, sizeof(rep->attach), "%s", v->path);
	rep->n_programs = h->n_links;
	record_hooks(h, rep);
	log_debug("%s: attached %d programs via %s", fam->name, h->n_links, v->path);
	return 0;
fail:
	rep->n_notes = 0;
	reject(rep, v->path, stage, err);
	log_debug("%s: %s rejected: %s", fam->name, v->path, rep->rejected[rep->n_rejected - 1].error);
	plan_close(fam, h);
	return err;
}

/* A path --attach named that the family does not have: the one
 * rejection, listing the paths it has. */
static int unknown_path(const struct plan_family *fam, struct probe_report *rep)
{
	char text[PROBE_ERROR_MAX];
	size_t at;

	at = (size_t)snprintf(text, sizeof(text), "no such attach path; %s has", fam->name);
	for (int i = 0; i < fam->n_variants && at < sizeof(text); i++)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s %s", i ? "," : "",
				       fam->variants[i].path);
	reject_text(rep, rep->forced, text);
	return -EINVAL;
}

int plan_run(const struct plan_family *fam, struct plan_handle *h, struct probe_report *rep)
{
	char forced[PROBE_PATH_MAX], text[PROBE_ERROR_MAX];
	bool known = false;
	int err = -ENOENT;

	snprintf(forced, sizeof(forced), "%s", rep->forced);
	memset(rep, 0, sizeof(*rep));
	snprintf(rep->family, sizeof(rep->family), "%s", fam->name);
	snprintf(rep->forced, sizeof(rep->forced), "%s", forced);
	for (int i = 0; i < fam->n_variants; i++)
		known |= !strcmp(fam->variants[i].path, forced);
	if (*forced && !known) {
		rep->error = unknown_path(fam, rep);
		return rep->error;
	}
	snprintf(text, sizeof(text), "not tried: --attach %s=%s", fam->name, forced);
	for (int i = 0; i < fam->n_variants; i++) {
		const struct plan_variant *v = &fam->variants[i];

		/* with --attach, every other path said (those after the one
		 * tried too), so a forced one is never taken for the kernel's
		 * choice */
		if (*forced && strcmp(v->path, forced)) {
			reject_text(rep, v->path, text);
			continue;
		}
		err = try_variant(fam, v, h, rep);
		if (!err && !*forced)
			return 0;
	}
	rep->error = err;
	return err;
}

void plan_close(const struct plan_family *fam, struct plan_handle *h)
{
	struct bpf_features *kernel = h->kernel;
	void *ctx = h->ctx;

	detach_all(h);
	if (h->skel)
		fam->destroy(h->skel);
	memset(h, 0, sizeof(*h));
	h->ctx = ctx;
	h->kernel = kernel;
}

/* The kernel's counters of every loaded program of h, summed. */
static void prog_totals(const struct plan_handle *h, uint64_t *lost, uint64_t *run_ns, uint64_t *runs)
{
	struct bpf_program *prog;

	*lost = *run_ns = *runs = 0;
	if (!h->obj)
		return;
	bpf_object__for_each_program(prog, h->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		*lost += info.recursion_misses;
		*run_ns += info.run_time_ns;
		*runs += info.run_cnt;
	}
}

uint64_t plan_lost_events(const struct plan_handle *h)
{
	uint64_t lost, run_ns, runs;

	prog_totals(h, &lost, &run_ns, &runs);
	return lost;
}

void plan_run_time(const struct plan_handle *h, uint64_t *run_ns, uint64_t *runs)
{
	uint64_t lost;

	prog_totals(h, &lost, run_ns, runs);
}
