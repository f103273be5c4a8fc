/* Syscall names by number, for the architecture built for (generated
 * from <asm/unistd.h> by scripts/gen-syscall-names.sh). */
#ifndef DBTRACE_MODEL_SYSCALL_NAME_H
#define DBTRACE_MODEL_SYSCALL_NAME_H

/* The name, or NULL when nr is not a syscall of this architecture. */
const char *syscall_name(int nr);

#endif
