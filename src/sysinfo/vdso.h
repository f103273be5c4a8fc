/* The vDSO: where it is mapped in a process and which functions it holds,
 * read from the kernel's own image (its ELF dynamic symbol table), never
 * from offsets known in advance: they change with every kernel build. */
#ifndef DBTRACE_SYSINFO_VDSO_H
#define DBTRACE_SYSINFO_VDSO_H

#include <stddef.h>
#include <stdint.h>

#define VDSO_NAME_MAX 32
#define VDSO_MAX_FUNCS 32
/* A vDSO is a few pages; anything larger is not one. */
#define VDSO_MAX_SIZE (1u << 20)

/* One function: [start, end) as offsets from the start of the mapping
 * (the image is mapped from file offset 0). */
struct vdso_func {
	char name[VDSO_NAME_MAX];      /* "clock_gettime": __vdso_ / __kernel_ dropped */
	uint64_t start, end;
};

struct vdso_syms {
	struct vdso_func f[VDSO_MAX_FUNCS];   /* sorted by start, no two alike */
	int n;
};

/* Finds the "[vdso]" line of ROOT/proc/PID/maps (pid 0: self). Returns 0,
 * -ENOENT when the process has no vDSO (vdso=0, a kernel thread), or
 * -errno. */
int vdso_find_mapping(const char *root, int pid, uint64_t *start, uint64_t *end);

/* Copies [start, end) of ROOT/proc/PID/mem into a malloc'd buffer (caller
 * frees). Returns 0 or -errno; -EFBIG above VDSO_MAX_SIZE. */
int vdso_read_image(const char *root, int pid, uint64_t start, uint64_t end,
		    void **img, size_t *len);

/* Parses an in-memory vDSO image with libelf: every sized function of its
 * dynamic symbol table, aliases (clock_gettime and __vdso_clock_gettime)
 * merged under the name without prefix. Pure. Returns 0, -EINVAL for an
 * image that is not an ELF shared object, -ENOENT when it has no dynamic
 * symbol table, -ENOMEM. */
int vdso_parse(const void *img, size_t len, struct vdso_syms *out);

/* The function holding offset off, or NULL. */
const struct vdso_func *vdso_lookup(const struct vdso_syms *s, uint64_t off);

/* Convenience for the running kernel: maps, image and symbols of this
 * very process (every 64-bit process maps the same image). *text_len gets
 * the mapping's size. */
int vdso_self(struct vdso_syms *out, uint64_t *text_len);

#endif
