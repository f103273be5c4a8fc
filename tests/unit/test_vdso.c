// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/vdso.h"

#define IMAGE FIXTURES "/vdso/vdso-x86_64-6.18.so"

static void *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf = malloc(VDSO_MAX_SIZE);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, VDSO_MAX_SIZE, f);
	fclose(f);
	return buf;
}

static const struct vdso_func *by_name(const struct vdso_syms *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].name, name))
			return &s->f[i];
	return NULL;
}

/* The saved 6.18 image: the offsets readelf shows, aliases merged. */
static void parses_saved_image(void **state)
{
	struct vdso_syms s;
	const struct vdso_func *f;
	size_t len;
	void *img = load(IMAGE, &len);

	assert_int_equal(len, 8192);
	assert_int_equal(vdso_parse(img, len, &s), 0);
	assert_int_equal(s.n, 6);
	f = by_name(&s, "clock_gettime");
	assert_non_null(f);
	assert_int_equal(f->start, 0xaf0);
	assert_int_equal(f->end, 0xaf0 + 902);
	f = by_name(&s, "gettimeofday");
	assert_non_null(f);
	assert_int_equal(f->start, 0x810);
	assert_int_equal(f->end, 0x810 + 683);
	assert_non_null(by_name(&s, "time"));
	assert_non_null(by_name(&s, "clock_getres"));
	assert_non_null(by_name(&s, "getcpu"));
	assert_non_null(by_name(&s, "getrandom"));
	assert_null(by_name(&s, "__vdso_clock_gettime"));
	/* sorted, disjoint */
	for (int i = 1; i < s.n; i++)
		assert_true(s.f[i - 1].end <= s.f[i].start);
	free(img);
}

static void lookup_by_offset(void **state)
{
	struct vdso_syms s;
	size_t len;
	void *img = load(IMAGE, &len);

	assert_int_equal(vdso_parse(img, len, &s), 0);
	assert_string_equal(vdso_lookup(&s, 0xaf0)->name, "clock_gettime");
	assert_string_equal(vdso_lookup(&s, 0xaf0 + 901)->name, "clock_gettime");
	assert_string_equal(vdso_lookup(&s, 0x900)->name, "gettimeofday");
	assert_null(vdso_lookup(&s, 0xaf0 + 902 + 5));   /* padding between functions */
	assert_null(vdso_lookup(&s, 0));                 /* ELF header */
	assert_null(vdso_lookup(&s, 0x100000));
	free(img);
}

static void rejects_bad_images(void **state)
{
	struct vdso_syms s;
	char junk[64] = "not an elf";
	size_t len;
	char *img = load(IMAGE, &len);

	assert_int_equal(vdso_parse(junk, sizeof(junk), &s), -EINVAL);
	assert_int_equal(vdso_parse(NULL, 100, &s), -EINVAL);
	assert_int_equal(vdso_parse(img, 10, &s), -EINVAL);
	/* cut inside the section headers: refused or parsed, never a crash */
	for (size_t cut = 64; cut < len; cut += 509) {
		int rc = vdso_parse(img, cut, &s);

		assert_true(rc == 0 || rc == -EINVAL || rc == -ENOENT);
		assert_true(s.n >= 0 && s.n <= VDSO_MAX_FUNCS);
	}
	/* an executable, not a shared object */
	img[16] = 2;   /* e_type = ET_EXEC */
	assert_int_equal(vdso_parse(img, len, &s), -EINVAL);
	free(img);
}

static void finds_mapping_in_maps(void **state)
{
	uint64_t a = 0, b = 0;

	assert_int_equal(vdso_find_mapping(FIXTURES "/vdso", 4242, &a, &b), 0);
	assert_int_equal(a, 0x7f3e5cbfc000ull);
	assert_int_equal(b, 0x7f3e5cbfe000ull);
	assert_int_equal(vdso_find_mapping(FIXTURES "/vdso", 4243, &a, &b), -ENOENT);
	assert_int_equal(vdso_find_mapping(FIXTURES "/vdso", 4244, &a, &b), -ENOENT);
}

/* The running kernel's own image, read the way the collector reads it. */
static void reads_running_kernel(void **state)
{
	struct vdso_syms s;
	uint64_t len = 0;
	int rc = vdso_self(&s, &len);

	if (rc == -ENOENT) {
		/* tests/run.sh lists the last line before SKIPPED as the reason */
		print_message("skip: this process has no vDSO (booted with vdso=0?)\n");
		skip();
	}
	assert_int_equal(rc, 0);
	assert_true(len >= 4096);
	assert_non_null(by_name(&s, "clock_gettime"));
	assert_non_null(by_name(&s, "gettimeofday"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_saved_image),
		cmocka_unit_test(lookup_by_offset),
		cmocka_unit_test(rejects_bad_images),
		cmocka_unit_test(finds_mapping_in_maps),
		cmocka_unit_test(reads_running_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
