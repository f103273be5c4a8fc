/* The load's group: `dbtrace record -- COMMAND` runs a benchmark on the
 * host it measures, and the command's processes are one group of their
 * own whatever --group-by forms (a sysbench started by a shell script is
 * neither the shell's program nor dbtrace's), keyed by the command's
 * pid, so the capture can mark it and the findings can leave it out.
 * Pure. */
#ifndef DBTRACE_MODEL_LOAD_GROUP_H
#define DBTRACE_MODEL_LOAD_GROUP_H

#include <stddef.h>
#include <stdint.h>
#include "model/proc_group.h"

/* After proc_group_form(): load_pid and every process whose chain of
 * parents within p reaches it, or whose load is set already (a process
 * seen as the command's before its parent exited and it was reparented),
 * get load set and key load_pid; n_members is recounted. load_pid 0: no
 * load, nothing changes. Returns 0 or -ENOMEM. */
int proc_group_join_load(struct proc_group_proc *p, size_t n, uint32_t load_pid);

#endif
