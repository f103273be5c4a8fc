// SPDX-License-Identifier: GPL-2.0
/* A lossy link for the loss family's tests, where the host has no
 * sch_netem: a tc classifier (clsact, direct action) that drops every
 * DROP_EVERY-th IPv4 TCP segment carrying data and passes everything
 * else, so a request/response load loses a known share of its requests
 * (pure ACKs and handshakes pass: the share stays exact). tc counts each
 * drop in the clsact qdisc's own "dropped" (`tc -s qdisc`).
 *
 *   tc qdisc add dev DEV clsact
 *   tc filter add dev DEV egress bpf da obj drop_nth.bpf.o sec tc
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define DROP_EVERY 20

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

SEC("tc")
int drop_nth(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct tcphdr *tcp;
	__u32 zero = 0, iplen, hlen;
	__u64 *n;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->protocol != IPPROTO_TCP)
		return TC_ACT_OK;
	hlen = ip->ihl * 4;
	tcp = (void *)ip + hlen;
	if (hlen < sizeof(*ip) || (void *)(tcp + 1) > end)
		return TC_ACT_OK;
	iplen = bpf_ntohs(ip->tot_len);
	if (iplen <= hlen + tcp->doff * 4)
		return TC_ACT_OK;            /* no payload */
	n = bpf_map_lookup_elem(&seen, &zero);
	if (!n)
		return TC_ACT_OK;
	return __sync_fetch_and_add(n, 1) % DROP_EVERY == DROP_EVERY - 1 ? TC_ACT_SHOT : TC_ACT_OK;
}
