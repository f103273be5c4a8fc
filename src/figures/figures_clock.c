/* The clock section: clock reads per group and per thread class, from
 * CPU-clock samples (in the vDSO, in clock syscalls) and, where they are
 * counted, the clock syscalls themselves. Rows: struct clock_stats; the
 * context of its text: the vDSO function names (struct clock_fn_table). */
#include "figures/figures.h"
#include "model/clock_model.h"

#include <string.h>

#include <stddef.h>

#define CLK(field) offsetof(struct clock_stats, field)

enum { TEXT_TOP_FUNCTION = 1 };

static const char *clock_text(const struct figure *f, const void *row, const void *ctx, char *buf, size_t len)
{
	const struct clock_stats *s = row;

	(void)buf;
	(void)len;
	if (f->which != TEXT_TOP_FUNCTION || s->top_fn < 0)
		return NULL;
	return clock_fn_name(ctx, s->top_fn);
}

/* The slot of the function in the capture's own table of names (ctx). */
static void clock_parse(const struct figure *f, void *row, const char *text, void *ctx)
{
	if (f->which == TEXT_TOP_FUNCTION)
		((struct clock_stats *)row)->top_fn = text ? clock_fn_slot(ctx, text) : -1;
}

static const struct figure clock_figs[] = {
	{ .name = "threads", .type = FIG_INT, .offset = CLK(threads),
	  .doc = "threads with a sample or a clock syscall", .report = { "threads", 40 } },
	{ .name = "samples", .type = FIG_COUNT, .offset = CLK(samples),
	  .doc = "CPU samples of its threads (user and kernel); one sample is 1/`sample_hz` s of CPU",
	  .report = { "samples", 50 } },
	{ .name = "vdso_pct", .unit = "%", .type = FIG_NUM, .offset = CLK(vdso_pct),
	  .doc = "share of `samples` with the user IP inside the vDSO; `null` without samples",
	  .diff = { FIG_LOWER, 1, 0.10 }, .report = { "vDSO %", 60 } },
	{ .name = "vdso_top_function", .type = FIG_TEXT, .which = TEXT_TOP_FUNCTION,
	  .doc = "the vDSO function with the most samples (`clock_gettime`, `gettimeofday`, `time`, "
		 "`clock_getres`, `getcpu`, ...; `other` for vDSO code outside every named function); `null` "
		 "when no sample was in the vDSO",
	  .report = { "top vDSO function", 70 } },
	{ .name = "clock_sys_pct", .unit = "%", .type = FIG_NUM, .offset = CLK(sys_pct),
	  .doc = "share of `samples` in the kernel inside one of the four clock syscalls",
	  .diff = { FIG_LOWER, 1, 0.10 }, .report = { "clock syscall %", 80 } },
	{ .name = "clock_syscalls_per_s", .unit = "/s", .type = FIG_NUM, .offset = CLK(reads_per_s),
	  .doc = "`clock_gettime` + `gettimeofday` + `time` system calls per second (clock reads that did not "
		 "stay in the vDSO; `clock_nanosleep` is counted apart); `null` when `syscall_method` is "
		 "`sampled`",
	  .diff = { FIG_LOWER, 10, 0.10 }, .report = { "clock syscalls/s", 90 } },
};

const struct fig_table fig_clock = { "clock", clock_figs, (int)(sizeof(clock_figs) / sizeof(clock_figs[0])),
				     clock_text, clock_parse };
