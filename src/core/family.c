#include "core/family.h"

const char *const dbt_family_names[FAM_COUNT] = { "softirq", "sched", "clock", "net", "loss" };
