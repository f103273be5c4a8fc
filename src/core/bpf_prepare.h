/* Checks every command that loads probes makes first: privileges and
 * BTF; and libbpf's messages routed through our log (muted while the
 * attach plan probes, shown with -v). */
#ifndef DBTRACE_CORE_BPF_PREPARE_H
#define DBTRACE_CORE_BPF_PREPARE_H

/* Returns 0, or -EPERM / -ENOENT after one line naming what is missing;
 * command names the subcommand in that line. btf_path: --btf FILE, the
 * BTF to relocate against where the kernel exposes none (NULL: the
 * kernel's own, which must then be there). */
int bpf_prepare(const char *command, const char *btf_path);

#endif
