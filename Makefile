# dbtrace build. `make` builds build/dbtrace; `make run` and `make test`
# are the two commands of README.md and install dependencies first.
# V=1 shows the full commands.

SHELL      := /bin/bash
BUILD      ?= build
PREFIX     ?= /usr/local
CC         ?= cc
CLANG      ?= clang
BPFTOOL    ?= $(shell command -v bpftool || echo /usr/sbin/bpftool)
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
ARCH       := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
VERSION    := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
# make deb passes it down: the package is built from a copy without .git
GIT_REV    ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

# One skeleton per probe family: a refused probe in one family cannot stop
# the others from loading.
FAMILIES   := softirq sched clock net loss floor

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

CFLAGS     ?= -O2 -g
CFLAGS     += -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
              -MMD -MP -Iinclude -Isrc -I$(BUILD) \
              -DDBTRACE_VERSION='"$(VERSION)"' -DDBTRACE_GIT_REV='"$(GIT_REV)"'
# What the pure library needs; the binary adds libbpf.
LIB_LDLIBS := -lelf -lz -lncursesw -ljson-c -lmnl -lmicrohttpd -lm
LDLIBS     := -lbpf $(LIB_LDLIBS)
# BPF_DEFS: set only by the skeleton's build (below)
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
              -MMD -MP -Iinclude -Ibpf -I$(BUILD) $(BPF_DEFS)

# Sources that touch libbpf: the collectors, the BPF core helpers, the
# subcommands and main. Everything else is pure and linked into the unit
# tests through libdbtrace.a.
BPF_SRCS   := $(wildcard bpf/*.bpf.c)
MAIN_SRCS  := src/main.c src/session/session.c $(wildcard src/collect/*.c src/cmd/*.c src/core/bpf_*.c)
LIB_SRCS   := $(filter-out $(MAIN_SRCS),$(wildcard src/*/*.c))
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
TOOL_SRCS  := $(wildcard tests/tools/*.c)

BPF_OBJS   := $(FAMILIES:%=$(BUILD)/bpf/%.bpf.o)
SKELS      := $(FAMILIES:%=$(BUILD)/%.skel.h)
MAIN_OBJS  := $(MAIN_SRCS:%.c=$(BUILD)/%.o)
LIB_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/unit/%)
TOOL_BINS  := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tests/tools/%)

.PHONY: all deps test-deps run test unit bats tools bench skeleton install clean layers demo docs deb
.DELETE_ON_ERROR:
# Keep the BPF objects: bpftool reads them and tests inspect them.
.SECONDARY: $(BPF_OBJS)

all: $(BUILD)/dbtrace

deps:
	$(Q)scripts/setup.sh

# make test also needs Prometheus and Chromium (serve.bats, report.bats),
# and Debian's packaging tools (package.bats builds and installs the .deb)
test-deps:
	$(Q)scripts/setup.sh --test --deb

# `make run`: the newcomer's first command. DBTRACE_ARGS lets CI run the
# same path non-interactively (e.g. DBTRACE_ARGS="--batch -d 3").
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
DBTRACE_ARGS ?=
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(SUDO) $(BUILD)/dbtrace top $(DBTRACE_ARGS)

test: test-deps
	$(Q)scripts/check-layers.sh
	$(Q)$(MAKE) --no-print-directory all unit-bins tools
	$(Q)$(MAKE) --no-print-directory fuzz-smoke
	$(Q)tests/run.sh

# includes point only downwards (docs/architecture.md)
layers:
	$(Q)scripts/check-layers.sh

unit: $(UNIT_BINS)
	$(Q)tests/run.sh unit

unit-bins: $(UNIT_BINS)
tools: $(TOOL_BINS)

bats: all tools
	$(Q)tests/run.sh bats

# the anchors too (bpftrace, perf); the report also goes into docs/benchmarks.md
# A throwaway PostgreSQL under pgbench with an oversized client pool, and
# dbtrace top on it (scripts/demo.sh; DBTRACE_ARGS="--batch -d 10").
demo: all
	$(SUDO) scripts/demo.sh $(DBTRACE_ARGS)

bench:
	$(Q)scripts/setup.sh --bench
	$(Q)$(MAKE) --no-print-directory all tools skeleton
	$(Q)bench/run.sh --write docs/benchmarks.md

# The benchmark's skeleton (bpf/skeleton.bpf.h): dbtrace whose programs
# find their records and measure nothing, built apart in $(BUILD)/skeleton
# and never installed.
skeleton:
	$(Q)$(MAKE) --no-print-directory BUILD=$(BUILD)/skeleton BPF_DEFS=-DDBT_SKELETON=1 $(BUILD)/skeleton/dbtrace

install: $(BUILD)/dbtrace
	install -D -m 0755 $(BUILD)/dbtrace $(DESTDIR)$(PREFIX)/sbin/dbtrace
	install -D -m 0644 man/dbtrace.8 $(DESTDIR)$(PREFIX)/share/man/man8/dbtrace.8
	install -D -m 0644 completion/dbtrace.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dbtrace

# dbtrace_VERSION_ARCH.deb in build/deb/, built by Debian's own tools
# (dpkg-buildpackage, debhelper: debian/) from a copy of the source tree,
# so that neither the tree nor its parent directory gets their output.
DEB_DIR := $(BUILD)/deb
deb:
	$(Q)scripts/setup.sh --deb
	$(Q)v="$$(dpkg-parsechangelog -S Version)"; [ "$$v" = "$(VERSION)" ] || \
		{ echo "debian/changelog is at $$v, VERSION at $(VERSION): add an entry (dch -v $(VERSION))" >&2; exit 1; }
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/dbtrace-$(VERSION)
	$(Q)tar -c --exclude=./$(BUILD) --exclude=./.git . | tar -x -C $(DEB_DIR)/dbtrace-$(VERSION)
	$(Q)cd $(DEB_DIR)/dbtrace-$(VERSION) && GIT_REV=$(GIT_REV) dpkg-buildpackage -us -uc -b
	@ls $(DEB_DIR)/*.deb

clean:
	rm -rf $(BUILD)

# --- BPF side ------------------------------------------------------------
# vmlinux.h is generated from the running kernel's BTF, never committed.
$(BUILD)/vmlinux.h: | $(BUILD)
	$(call msg,BTF,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(BUILD)/vmlinux.h | $(BUILD)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# sched's tp_btf program claims held run-queue waits with a
# compare-and-swap, an instruction of the BPF v3 set (kernel 5.12+; the
# path says it needs them, src/collect/sched.c). Its raw_tp program, for
# older kernels, has none: a verifier before 5.12 refuses one even in dead
# code. Every other object keeps to what 5.10 runs.
$(BUILD)/bpf/sched.bpf.o: BPF_CFLAGS += -mcpu=v3

$(BUILD)/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@

# --- user side -----------------------------------------------------------
# Collectors include their skeleton; make every main object wait for all
# skeletons (generated headers are not known to -MMD before the first build).
$(MAIN_OBJS): $(SKELS)

$(BUILD)/%.o: %.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# the syscall name table, from the kernel headers of the C library
# (build/model/: included as "model/syscall_names.h", a model header)
$(BUILD)/model/syscall_names.h: scripts/gen-syscall-names.sh
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)scripts/gen-syscall-names.sh $(CC) > $@
$(BUILD)/src/model/syscall_name.o: $(BUILD)/model/syscall_names.h

# the report's style and scripts, kept as files of their own and compiled
# in (build/render/report_assets.h), so the page stays self-contained
REPORT_ASSETS := src/render/report.css src/render/report_guard.js src/render/report.js
$(BUILD)/render/report_assets.h: scripts/embed.sh $(REPORT_ASSETS)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)scripts/embed.sh asset $(REPORT_ASSETS) > $@
$(BUILD)/src/render/report_html.o $(BUILD)/fuzz/obj/src/render/report_html.o: $(BUILD)/render/report_assets.h

# made anew each time: `ar r` into the old archive would keep the object of
# a source file that was since removed or renamed
$(BUILD)/libdbtrace.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/dbtrace: $(MAIN_OBJS) $(BUILD)/libdbtrace.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# One cmocka binary per pure source file (tests/unit/test_<file>.c).
$(BUILD)/tests/unit/%: tests/unit/%.c $(BUILD)/libdbtrace.a
	$(call msg,TEST,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DFIXTURES='"$(CURDIR)/tests/fixtures"' \
		$< $(BUILD)/libdbtrace.a -o $@ -lcmocka $(LIB_LDLIBS)

# Load generators for the integration tests and the benchmark.
$(BUILD)/tests/tools/%: tests/tools/%.c
	$(call msg,TOOL,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $< -o $@ -lpthread -lm

# The loss tests' lossy link where the kernel has no sch_netem: tc
# classifiers (tests/tools/bpf/*.bpf.c) for the BPF target, against the
# system's UAPI headers (asm/types.h lives in the multiarch directory).
TOOL_BPF_SRCS := $(wildcard tests/tools/bpf/*.bpf.c)
TOOL_BPF_OBJS := $(TOOL_BPF_SRCS:tests/tools/bpf/%.bpf.c=$(BUILD)/tests/tools/%.bpf.o)
tools: $(TOOL_BPF_OBJS)

$(BUILD)/tests/tools/%.bpf.o: tests/tools/bpf/%.bpf.c
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O2 -target bpf -Wall -Werror -I/usr/include/$(shell $(CC) -dumpmachine) -c $< -o $@

# The benchmark's floor (bpf/floor.bpf.c, empty programs on dbtrace's
# tracepoints) needs libbpf and its skeleton.
$(BUILD)/tests/tools/bpf_floor: tests/tools/bpf_floor.c $(BUILD)/floor.skel.h
	$(call msg,TOOL,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $< -o $@ -lbpf -lelf -lz

# The outputs of seeded pseudo-random ticks, byte for byte (capture,
# exposition, text tables, report, diff): run before and after a
# restructuring and compare (tests/tools/replay.c). Links the pure library.
$(BUILD)/tests/tools/replay: tests/tools/replay.c $(BUILD)/libdbtrace.a
	$(call msg,TOOL,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DFIXTURES='"$(CURDIR)/tests/fixtures"' $< $(BUILD)/libdbtrace.a -o $@ $(LIB_LDLIBS)

# The generated blocks of the docs (the field tables of
# docs/capture-schema.md from the tables of figures, src/figures/, and the
# table of docs/metrics.md from render/prom_families.c): `make docs`
# after changing one; test_figures_doc fails until then.
DOCS_GENERATED := docs/capture-schema.md docs/diff.md docs/metrics.md
$(BUILD)/gen_docs: scripts/gen_docs.c $(BUILD)/libdbtrace.a
	$(call msg,GEN,$@)
	$(Q)$(CC) $(CFLAGS) $< $(BUILD)/libdbtrace.a -o $@ $(LIB_LDLIBS)

docs: $(BUILD)/gen_docs
	$(Q)$(BUILD)/gen_docs $(DOCS_GENERATED)

# What the running kernel lets load and attach (fentry, tp_btf, kprobe,
# ...): the integration tests derive the attach path they expect from it.
$(BUILD)/tests/tools/bpf_can: tests/tools/bpf_can.c
	$(call msg,TOOL,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $< -o $@ -lbpf -lelf -lz

$(BUILD) $(BUILD)/bpf:
	$(Q)mkdir -p $@

# (not those of the package's build copy, nor the clean root package.bats
# installs it into: its /etc/rc2.d is no dependency file)
-include $(shell find $(BUILD) \( -path $(BUILD)/deb -o -path $(BUILD)/pkgtest \) -prune -o -type f -name '*.d' -print 2>/dev/null)

# The bats suite inside qemu on Debian's kernels (6.1: with fentry and
# kprobes; rt: PREEMPT_RT, softirqs in threads; 5.10: Debian 11's; 6.12).
# Only the kernel-dependent tests (tagged vm, rt, kernel): see
# tests/run.sh. `make vmtest` runs the 6.1 ring, `make vmtest-K` the
# ring of kernel K (vmtest-rt, vmtest-5.10, vmtest-6.12).
.PHONY: vmtest
vmtest: vmtest-6.1
vmtest-%: all tools
	$(Q)VM_KERNELS=$* tests/run.sh vm

# libFuzzer over the command line, the --class parser, every /proc and
# /sys parser, the rtnetlink qdisc replies, the vDSO's ELF image and the
# capture reader behind report and diff (tests/fuzz/fuzz_*.c), seeds in
# tests/fuzz/corpus/<target>/. `make fuzz` runs each FUZZ_SECONDS;
# `make fuzz-smoke` (part of `make test`) FUZZ_SMOKE_SECONDS. Crashes land
# in build/fuzz/; each one fixed becomes a regression case in the unit
# tests. The pure sources are instrumented once into a library every
# target links.
FUZZ_SECONDS ?= 30
FUZZ_SMOKE_SECONDS ?= 3
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -g -O1 $(FUZZ_SAN) -std=gnu11 -Iinclude -Isrc -I$(BUILD) \
               -DDBTRACE_VERSION='"$(VERSION)"' -DDBTRACE_GIT_REV='"$(GIT_REV)"'
.PHONY: fuzz fuzz-smoke

# fuzz_run SECONDS: every target in turn; the first crash stops the run
define fuzz_run
	$(Q)for f in $(FUZZ_BINS); do \
		t=$${f##*/fuzz_}; mkdir -p $(BUILD)/fuzz/corpus-$$t; \
		echo "== $$t ($(1) s)"; \
		$$f -max_total_time=$(1) -max_len=65536 -artifact_prefix=$(BUILD)/fuzz/$$t- \
			$(BUILD)/fuzz/corpus-$$t tests/fuzz/corpus/$$t 2>&1 | grep -E '^Done|ERROR|SUMMARY|^artifact' ; \
		test $${PIPESTATUS[0]} -eq 0 || exit 1; \
	done
endef

fuzz: $(FUZZ_BINS)
	$(call fuzz_run,$(FUZZ_SECONDS))

fuzz-smoke: $(FUZZ_BINS)
	$(call fuzz_run,$(FUZZ_SMOKE_SECONDS))

$(BUILD)/fuzz/obj/%.o: %.c
	$(call msg,FUZZCC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/libdbtrace-fuzz.a: $(FUZZ_LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/fuzz/libdbtrace-fuzz.a | $(BUILD)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(BUILD)/fuzz/libdbtrace-fuzz.a -o $@ $(LIB_LDLIBS)
