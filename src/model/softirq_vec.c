#include "model/softirq_vec.h"

static const char *const vec_names[DBT_SOFTIRQ_VECS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};
static const char *const vec_keys[DBT_SOFTIRQ_VECS] = {
	"hi", "timer", "net_tx", "net_rx", "block", "irq_poll", "tasklet", "sched", "hrtimer", "rcu",
};

const char *softirq_vec_name(int vec)
{
	return vec >= 0 && vec < DBT_SOFTIRQ_VECS ? vec_names[vec] : "?";
}

const char *softirq_vec_key(int vec)
{
	return vec >= 0 && vec < DBT_SOFTIRQ_VECS ? vec_keys[vec] : "?";
}
