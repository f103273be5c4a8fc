#include "sysinfo/vdso.h"
#include "sysinfo/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void proc_rel(char *buf, size_t len, int pid, const char *file)
{
	if (pid > 0)
		snprintf(buf, len, "/proc/%d/%s", pid, file);
	else
		snprintf(buf, len, "/proc/self/%s", file);
}

int vdso_find_mapping(const char *root, int pid, uint64_t *start, uint64_t *end)
{
	char rel[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int err;

	proc_rel(rel, sizeof(rel), pid, "maps");
	err = procfile_fopen(root, rel, &f);
	if (err)
		return err;
	err = -ENOENT;
	while (getline(&line, &cap, f) > 0) {
		uint64_t a, b;
		size_t n = strcspn(line, "\n");

		line[n] = 0;
		/* the name is the last field; "[vdso]" exactly, not "[vdso_data]" */
		if (n < 6 || strcmp(line + n - 6, "[vdso]"))
			continue;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &a, &b) != 2 || b <= a) {
			err = -EINVAL;
			break;
		}
		*start = a;
		*end = b;
		err = 0;
		break;
	}
	free(line);
	fclose(f);
	return err;
}

int vdso_read_image(const char *root, int pid, uint64_t start, uint64_t end,
		    void **img, size_t *len)
{
	char rel[64];
	size_t want, got = 0;
	char *buf;
	int fd, err = 0;

	if (end <= start)
		return -EINVAL;
	if (end - start > VDSO_MAX_SIZE)
		return -EFBIG;
	want = (size_t)(end - start);
	proc_rel(rel, sizeof(rel), pid, "mem");
	fd = procfile_open(root, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	buf = malloc(want);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < want) {
		ssize_t n = pread(fd, buf + got, want - got, (off_t)(start + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	*img = buf;
	*len = want;
	return 0;
}

/* "__vdso_clock_gettime" and "__kernel_clock_gettime" (arm64, ppc) are
 * the same function as "clock_gettime": report the name people call. */
static const char *strip_prefix(const char *name)
{
	static const char *const prefixes[] = { "__vdso_", "__kernel_" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);

		if (!strncmp(name, prefixes[i], n) && name[n])
			return name + n;
	}
	return name;
}

/* Symbol values are virtual addresses of the link; the mapping starts at
 * file offset 0, so a function's place in the mapping is its file offset. */
static bool vaddr_to_offset(Elf *e, size_t nphdr, uint64_t va, uint64_t *off)
{
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (va >= ph.p_vaddr && va - ph.p_vaddr < ph.p_filesz) {
			*off = va - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

static void add_func(struct vdso_syms *out, const char *name, uint64_t start, uint64_t end)
{
	const char *plain = strip_prefix(name);

	for (int i = 0; i < out->n; i++) {
		struct vdso_func *f = &out->f[i];

		if (f->start != start)
			continue;
		/* an alias: keep the shorter (unprefixed) name, the wider end */
		if (strlen(plain) < strlen(f->name))
			snprintf(f->name, sizeof(f->name), "%s", plain);
		if (end > f->end)
			f->end = end;
		return;
	}
	if (out->n >= VDSO_MAX_FUNCS)
		return;
	snprintf(out->f[out->n].name, sizeof(out->f[0].name), "%s", plain);
	out->f[out->n].start = start;
	out->f[out->n].end = end;
	out->n++;
}

static int cmp_func(const void *a, const void *b)
{
	const struct vdso_func *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int parse_dynsym(Elf *e, size_t nphdr, struct vdso_syms *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t nsyms;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			return -EINVAL;
		nsyms = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < nsyms; i++) {
			GElf_Sym sym;
			const char *name;
			uint64_t off;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size ||
			    sym.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !*name || !vaddr_to_offset(e, nphdr, sym.st_value, &off))
				continue;
			add_func(out, name, off, off + sym.st_size);
		}
		return 0;
	}
	return -ENOENT;
}

int vdso_parse(const void *img, size_t len, struct vdso_syms *out)
{
	GElf_Ehdr eh;
	size_t nphdr;
	char *copy;
	Elf *e;
	int err;

	memset(out, 0, sizeof(*out));
	if (!img || len < sizeof(Elf32_Ehdr) || len > VDSO_MAX_SIZE || memcmp(img, ELFMAG, SELFMAG))
		return -EINVAL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	/* libelf wants a writable image; the caller's stays untouched */
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, img, len);
	e = elf_memory(copy, len);
	if (!e) {
		free(copy);
		return -EINVAL;
	}
	err = -EINVAL;
	if (elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh) && eh.e_type == ET_DYN &&
	    !elf_getphdrnum(e, &nphdr))
		err = parse_dynsym(e, nphdr, out);
	elf_end(e);
	free(copy);
	if (!err)
		qsort(out->f, (size_t)out->n, sizeof(out->f[0]), cmp_func);
	return err;
}

const struct vdso_func *vdso_lookup(const struct vdso_syms *s, uint64_t off)
{
	for (int i = 0; i < s->n; i++)
		if (off >= s->f[i].start && off < s->f[i].end)
			return &s->f[i];
	return NULL;
}

int vdso_self(struct vdso_syms *out, uint64_t *text_len)
{
	uint64_t start, end;
	size_t len;
	void *img;
	int err;

	err = vdso_find_mapping(NULL, 0, &start, &end);
	if (!err)
		err = vdso_read_image(NULL, 0, start, end, &img, &len);
	if (err)
		return err;
	err = vdso_parse(img, len, out);
	free(img);
	if (!err)
		*text_len = end - start;
	return err;
}
