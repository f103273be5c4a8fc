#include "cmd/cmd.h"

#include <bpf/libbpf.h>
#include <stdio.h>

int cmd_version(const struct dbt_config *cfg)
{
	printf("dbtrace %s (%s), libbpf %s\n", DBTRACE_VERSION, DBTRACE_GIT_REV,
	       libbpf_version_string());
	return DBT_EXIT_OK;
}
