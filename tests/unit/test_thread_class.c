// SPDX-License-Identifier: GPL-2.0
/* cmocka tests for src/model/thread_class.c: thread-class naming. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "model/thread_class.h"

/* ------------------------------------------------------------- helpers */

/* Classify comms[0..n) as one group, no overrides unless c is given. */
static void classify(const struct tclass_classifier *c, const char *const *comms,
		     size_t n, struct tclass_result *r)
{
	struct tclass_thread *t = calloc(n ? n : 1, sizeof(*t));
	size_t i;

	assert_non_null(t);
	for (i = 0; i < n; i++) {
		t[i].tid = (uint32_t)(1000 + i);
		t[i].comm = comms[i];
	}
	assert_int_equal(tclass_assign(c, t, n, r), 0);
	assert_int_equal(r->n_threads, n);
	free(t);
}

static const char *name_of(const struct tclass_result *r, size_t i)
{
	assert_true(i < r->n_threads);
	assert_true(r->class_of[i] < r->n_classes);
	return r->classes[r->class_of[i]].name;
}

/* Class named name, or NULL. */
static const struct tclass_class *find_class(const struct tclass_result *r,
					     const char *name)
{
	size_t i;

	for (i = 0; i < r->n_classes; i++)
		if (strcmp(r->classes[i].name, name) == 0)
			return &r->classes[i];
	return NULL;
}

static void assert_class(const struct tclass_result *r, const char *name,
			 uint32_t n_threads)
{
	const struct tclass_class *cl = find_class(r, name);

	if (cl == NULL)
		fail_msg("no class '%s'", name);
	assert_int_equal(cl->n_threads, n_threads);
}

/* The first max characters of name, NUL-terminated (dst holds max + 1). */
static void cut_name(char *dst, const char *name, size_t max)
{
	size_t len = strnlen(name, max);

	memcpy(dst, name, len);
	dst[len] = '\0';
}

/* Comm as the kernel stores it: first 15 characters. */
static void kernel_comm(char dst[TCLASS_COMM_LEN], const char *name)
{
	cut_name(dst, name, TCLASS_COMM_LEN - 1);
}

/* ---------------------------------------------------- real-name table */

/*
 * Real thread names, each with a sibling from the same process, the class
 * expected when both are present, and (always) the comm itself when the
 * thread is alone.
 *
 * Sources:
 *  [my]  MySQL 8.0 OS thread names, as shown by `ps -L -o tid,comm` /
 *        `top -H` and in performance_schema.threads (THREAD_OS_ID): the
 *        PSI_THREAD_KEY os names of storage/innobase/handler/ha_innodb.cc
 *        (all_innodb_threads[]: ib_io_rd, ib_io_wr, ib_pg_flush,
 *        ib_pg_flush_co, ib_src_main, ib_srv_wkr, ib_log_writer, ...),
 *        sql/mysqld.cc (one_connection -> "connection") and the X plugin
 *        (xpl_worker); non-singleton threads get "<name>-<seq>" from
 *        storage/perfschema/pfs_instr.cc create_thread(), formatted into
 *        15 bytes (14 characters).
 *  [mdb] MariaDB/MySQL 5.7 performance_schema.threads NAME column,
 *        thread/sql/one_connection (mariadb.com "Performance Schema
 *        threads Table").
 *  [pg]  PostgreSQL 15 `ps -ef` process titles (comm of every backend is
 *        "postgres"; the title is what a caller may pass instead).
 *  [ob]  OceanBase: docs "tenant worker threads are named TNT_L<n>_<tenant
 *        id>" (en.oceanbase.com, thread FAQ) and ObThWorker::
 *        set_th_worker_thread_name ("TNT_L%d_" + tenant id); network
 *        threads RpcIO/MysqlIO/BatchIO from ObNetEasy::on_ioth_start;
 *        "OMT_FREE" + index for idle workers; tenant background threads
 *        "T<tenant>_<name>" from lib/thread/ob_thread_name.h (V$OB_THREAD
 *        sample row "T1004_TTLTablet"; 4.x thread list "L0_G0").
 *  [dble] actiontech/dble DbleServer.java executor names (BusinessExecutor,
 *        backendBusinessExecutor, writeToBackendExecutor,
 *        complexQueryExecutor, Timer, "$_NIO_REACTOR_FRONT-<n>-RW") and
 *        NameableThreadFactory (prefix + counter + suffix); the JVM keeps
 *        the first 15 characters as the comm. "$_NIOREACTOR-<n>-RW" is the
 *        Mycat 1.6 / early dble reactor name; processorExecutor is the
 *        dble 2.x pool named in server.xml.
 *  [jvm] HotSpot (JDK 11-21) `top -H` / jstack names: "GC Thread#%d",
 *        "G1 Conc#%d", "G1 Refine#%d", "C2 CompilerThread%d", "VM Thread";
 *        java.util.concurrent.Executors.defaultThreadFactory
 *        "pool-%d-thread-%d"; java.lang.Thread "Thread-%d";
 *        "ForkJoinPool.commonPool-worker-%d"; Tomcat "http-nio-8080-exec-%d".
 *  [go]  Go binaries: the runtime never names its threads, every M keeps
 *        the process comm (mysqld_exporter, node_exporter beside the DB).
 *  [k]   Kernel threads (passed as one group): kernel/workqueue.c
 *        "kworker/%d:%d%s" (H = highpri) and "kworker/u%d:%d",
 *        kernel/softirq.c "ksoftirqd/%u", kernel/stop_machine.c
 *        "migration/%u".
 */
struct name_case {
	const char *comm;
	const char *sibling;
	const char *with_siblings;
	const char *source;
};

static const struct name_case name_cases[] = {
	/* MySQL */
	{ "mysqld", "mysqld", "mysqld", "my" },
	{ "connection", "connection", "connection", "my" },
	{ "ib_io_rd-3", "ib_io_rd-1", "ib_io_rd-*", "my" },
	{ "ib_io_wr-4", "ib_io_wr-2", "ib_io_wr-*", "my" },
	{ "ib_pg_flush_co", "ib_pg_flush-1", "ib_pg_flush_co", "my" },
	{ "ib_pg_flush-2", "ib_pg_flush-1", "ib_pg_flush-*", "my" },
	{ "ib_src_main", "ib_srv_purge", "ib_src_main", "my" },
	{ "ib_srv_wkr-3", "ib_srv_wkr-1", "ib_srv_wkr-*", "my" },
	{ "ib_log_writer", "ib_log_flush", "ib_log_writer", "my" },
	{ "xpl_worker-1", "xpl_worker-0", "xpl_worker-*", "my" },
	{ "one_connection", "one_connection", "one_connection", "mdb" },
	/* PostgreSQL */
	{ "postgres", "postgres", "postgres", "pg" },
	{ "postgres: walwriter", "postgres: checkpointer",
	  "postgres: walwriter", "pg" },
	{ "postgres: background writer", "postgres: walwriter",
	  "postgres: background writer", "pg" },
	{ "postgres: parallel worker for PID 4242",
	  "postgres: parallel worker for PID 5151",
	  "postgres: parallel worker for PID *", "pg" },
	/* OceanBase */
	{ "TNT_L0_1002", "TNT_L0_1002", "TNT_L0_1002", "ob" },
	{ "RpcIO", "RpcIO", "RpcIO", "ob" },
	{ "MysqlIO", "MysqlIO", "MysqlIO", "ob" },
	{ "BatchIO", "RpcIO", "BatchIO", "ob" },
	{ "OMT_FREE3", "OMT_FREE1", "OMT_FREE*", "ob" },
	{ "T1004_TTLTablet", "T1002_TTLTablet", "T1004_TTLTablet", "ob" },
	{ "T1234_TimerWhee", "T1002_TimerWhee", "T1234_TimerWhee", "ob" },
	{ "T1002_L0_G0", "T1002_L0_G0", "T1002_L0_G0", "ob" },
	/* dble */
	{ "BusinessExecuto", "BusinessExecuto", "BusinessExecuto", "dble" },
	{ "backendBusiness", "backendBusiness", "backendBusiness", "dble" },
	{ "writeToBackendE", "writeToBackendE", "writeToBackendE", "dble" },
	{ "complexQueryExe", "complexQueryExe", "complexQueryExe", "dble" },
	{ "processorExecut", "processorExecut", "processorExecut", "dble" },
	{ "$_NIO_REACTOR_F", "$_NIO_REACTOR_F", "$_NIO_REACTOR_F", "dble" },
	{ "$_NIOREACTOR-0-", "$_NIOREACTOR-1-", "$_NIOREACTOR-*-", "dble" },
	{ "Timer1", "Timer0", "Timer*", "dble" },
	/* JVM */
	{ "pool-1-thread-7", "pool-1-thread-3", "pool-1-thread-*", "jvm" },
	{ "Thread-12", "Thread-3", "Thread-*", "jvm" },
	{ "GC Thread#3", "GC Thread#0", "GC Thread#*", "jvm" },
	{ "G1 Conc#0", "G1 Conc#1", "G1 Conc#*", "jvm" },
	{ "G1 Refine#2", "G1 Refine#0", "G1 Refine#*", "jvm" },
	{ "C2 CompilerThre", "C1 CompilerThre", "C2 CompilerThre", "jvm" },
	{ "ForkJoinPool.co", "ForkJoinPool.co", "ForkJoinPool.co", "jvm" },
	{ "VM Thread", "VM Thread", "VM Thread", "jvm" },
	{ "http-nio-8080-e", "http-nio-8080-e", "http-nio-8080-e", "jvm" },
	/* Go */
	{ "mysqld_exporter", "mysqld_exporter", "mysqld_exporter", "go" },
	{ "node_exporter", "node_exporter", "node_exporter", "go" },
	/* Kernel threads */
	{ "kworker/0:1H", "kworker/0:0H", "kworker/0:*H", "k" },
	{ "kworker/u16:3", "kworker/u16:0", "kworker/u16:*", "k" },
	{ "ksoftirqd/1", "ksoftirqd/0", "ksoftirqd/*", "k" },
	{ "migration/0", "migration/3", "migration/*", "k" },
};

static void test_real_names_with_siblings(void **state)
{
	size_t i;

	(void)state;
	assert_true(sizeof(name_cases) / sizeof(name_cases[0]) >= 30);
	for (i = 0; i < sizeof(name_cases) / sizeof(name_cases[0]); i++) {
		const struct name_case *nc = &name_cases[i];
		const char *comms[] = { nc->comm, nc->sibling };
		struct tclass_result r;

		classify(NULL, comms, 2, &r);
		if (strcmp(name_of(&r, 0), nc->with_siblings) != 0)
			fail_msg("[%s] '%s' beside '%s': got '%s', want '%s'",
				 nc->source, nc->comm, nc->sibling, name_of(&r, 0),
				 nc->with_siblings);
		tclass_result_free(&r);
	}
}

static void test_real_names_alone(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(name_cases) / sizeof(name_cases[0]); i++) {
		const struct name_case *nc = &name_cases[i];
		const char *comms[] = { nc->comm };
		char buf[TCLASS_NAME_MAX];
		struct tclass_result r;

		classify(NULL, comms, 1, &r);
		assert_int_equal(r.n_classes, 1);
		if (strcmp(name_of(&r, 0), nc->comm) != 0)
			fail_msg("[%s] '%s' alone: got '%s'", nc->source, nc->comm,
				 name_of(&r, 0));
		tclass_result_free(&r);

		assert_int_equal(tclass_name_alone(NULL, nc->comm, buf, sizeof(buf)), 0);
		assert_string_equal(buf, nc->comm);
	}
}

/* The pool form of each comm, ignoring siblings, is consistent with the
 * table: a name that generalises beside siblings has that stem. */
static void test_stem_matches_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(name_cases) / sizeof(name_cases[0]); i++) {
		const struct name_case *nc = &name_cases[i];
		char buf[TCLASS_NAME_MAX];
		int rc = tclass_stem(nc->comm, buf, sizeof(buf));

		assert_true(rc == 0 || rc == 1);
		if (strcmp(nc->with_siblings, nc->comm) != 0) {
			assert_int_equal(rc, 1);
			assert_string_equal(buf, nc->with_siblings);
		}
	}
}

/* ------------------------------------------------ whole processes */

/* A MySQL 8.0 process as `ps -L -o comm` shows it (counts trimmed; names
 * from all_innodb_threads[] [my]). A pool seen with one thread keeps its
 * number. */
static void test_mysqld_process(void **state)
{
	const char *comms[] = {
		"mysqld", "mysqld", "ib_io_ibuf", "ib_io_rd-1", "ib_io_rd-2",
		"ib_io_rd-3", "ib_io_rd-4", "ib_io_wr-1", "ib_io_wr-2",
		"ib_io_wr-3", "ib_io_wr-4", "ib_pg_flush_co", "ib_log_checkpt",
		"ib_log_fl_notif", "ib_log_flush", "ib_log_wr_notif",
		"ib_log_writer", "ib_log_files_g", "ib_srv_lock_to",
		"ib_srv_err_mon", "ib_srv_mon", "ib_buf_resize", "ib_src_main",
		"ib_dict_stats", "ib_fts_opt", "xpl_worker-1", "xpl_worker-2",
		"ib_buf_dump", "ib_clone_gtid", "ib_srv_purge", "ib_srv_wkr-1",
		"ib_srv_wkr-2", "ib_srv_wkr-3", "ib_pg_flush-1", "ib_tx_recov-1",
		"connection", "connection", "connection", "connection",
	};
	struct tclass_result r;

	(void)state;
	classify(NULL, comms, sizeof(comms) / sizeof(comms[0]), &r);
	assert_class(&r, "ib_io_rd-*", 4);
	assert_class(&r, "ib_io_wr-*", 4);
	assert_class(&r, "ib_srv_wkr-*", 3);
	assert_class(&r, "xpl_worker-*", 2);
	assert_class(&r, "ib_pg_flush-1", 1);
	assert_class(&r, "ib_tx_recov-1", 1);
	assert_class(&r, "connection", 4);
	assert_class(&r, "mysqld", 2);
	assert_class(&r, "ib_pg_flush_co", 1);
	assert_null(find_class(&r, "ib_io_rd-1"));
	tclass_result_free(&r);
}

/* OceanBase with sys (1), meta (1001) and user (1002) tenants: the tenant
 * id is a key shared by every worker of the tenant, not an index. */
static void test_ob_tenant_ids_stay(void **state)
{
	const char *comms[64];
	size_t n = 0, i;
	struct tclass_result r;

	(void)state;
	for (i = 0; i < 3; i++)
		comms[n++] = "TNT_L0_1";
	for (i = 0; i < 6; i++)
		comms[n++] = "TNT_L0_1001";
	for (i = 0; i < 40; i++)
		comms[n++] = "TNT_L0_1002";
	for (i = 0; i < 4; i++)
		comms[n++] = "RpcIO";
	comms[n++] = "OMT_FREE0";
	comms[n++] = "OMT_FREE1";
	comms[n++] = "OMT_FREE2";
	comms[n++] = "T1002_TimerWhee";
	comms[n++] = "T1001_TimerWhee";
	comms[n++] = "T1_TimerWheel";
	classify(NULL, comms, n, &r);
	assert_class(&r, "TNT_L0_1", 3);
	assert_class(&r, "TNT_L0_1001", 6);
	assert_class(&r, "TNT_L0_1002", 40);
	assert_class(&r, "RpcIO", 4);
	assert_class(&r, "OMT_FREE*", 3);
	assert_class(&r, "T1002_TimerWhee", 1);
	assert_class(&r, "T1001_TimerWhee", 1);
	assert_class(&r, "T1_TimerWheel", 1);
	assert_int_equal(r.n_classes, 8);
	tclass_result_free(&r);
}

/* Only the last number varies: the pool id stays. */
static void test_java_pool_id_stays(void **state)
{
	const char *comms[] = {
		"pool-1-thread-1", "pool-1-thread-2", "pool-1-thread-3",
		"pool-2-thread-1", "pool-2-thread-2", "main",
	};
	struct tclass_result r;

	(void)state;
	classify(NULL, comms, 6, &r);
	assert_class(&r, "pool-1-thread-*", 3);
	assert_class(&r, "pool-2-thread-*", 2);
	assert_class(&r, "main", 1);
	assert_int_equal(r.n_classes, 3);
	tclass_result_free(&r);
}

/* 200 Java pool threads: the kernel keeps "pool-1-thread-1" for threads
 * 1, 10-19 and 100-199 alike; they are still one pool. */
static void test_truncated_java_pool(void **state)
{
	static char buf[200][TCLASS_COMM_LEN];
	const char *comms[200];
	struct tclass_result r;
	size_t i;

	(void)state;
	for (i = 0; i < 200; i++) {
		char full[64];

		snprintf(full, sizeof(full), "pool-1-thread-%zu", i + 1);
		kernel_comm(buf[i], full);
		comms[i] = buf[i];
	}
	classify(NULL, comms, 200, &r);
	assert_int_equal(r.n_classes, 1);
	assert_class(&r, "pool-1-thread-*", 200);
	tclass_result_free(&r);
}

/* "$_NIOREACTOR-<n>-RW" cut to 15: "$_NIOREACTOR-9-" and "$_NIOREACTOR-10"
 * are one pool; below ten reactors the '-' survives. */
static void test_truncated_reactors(void **state)
{
	static char buf[16][TCLASS_COMM_LEN];
	const char *comms[16];
	struct tclass_result r;
	size_t i;

	(void)state;
	for (i = 0; i < 16; i++) {
		char full[64];

		snprintf(full, sizeof(full), "$_NIOREACTOR-%zu-RW", i);
		kernel_comm(buf[i], full);
		comms[i] = buf[i];
	}
	classify(NULL, comms, 16, &r);
	assert_int_equal(r.n_classes, 1);
	assert_class(&r, "$_NIOREACTOR-*", 16);
	tclass_result_free(&r);

	classify(NULL, comms, 8, &r);
	assert_int_equal(r.n_classes, 1);
	assert_class(&r, "$_NIOREACTOR-*-", 8);
	tclass_result_free(&r);
}

/* "ForkJoinPool-<pool>-worker-<n>" cut to 15 shows only the pool id, shared
 * by all its workers: two pools stay two classes. */
static void test_truncated_forkjoin_pools(void **state)
{
	static char buf[12][TCLASS_COMM_LEN];
	const char *comms[12];
	struct tclass_result r;
	size_t i;

	(void)state;
	for (i = 0; i < 12; i++) {
		char full[64];

		snprintf(full, sizeof(full), "ForkJoinPool-%d-worker-%zu",
			 i < 8 ? 1 : 2, i);
		kernel_comm(buf[i], full);
		comms[i] = buf[i];
	}
	classify(NULL, comms, 12, &r);
	assert_class(&r, "ForkJoinPool-1-", 8);
	assert_class(&r, "ForkJoinPool-2-", 4);
	assert_int_equal(r.n_classes, 2);
	tclass_result_free(&r);
}

/* MySQL formats OS names into 15 bytes: ib_fts_token-1 and -10..-19 all
 * show as "ib_fts_token-1" (14 characters), 11 repeats that are no key
 * (innodb_ft_sort_pll_degree goes up to 32). */
static void test_mysql_14_char_names(void **state)
{
	static char buf[20][16];
	const char *comms[20];
	struct tclass_result r;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++) {
		char full[64];

		/* pfs_instr.cc: snprintf(m_os_name, 15, "%s-%d", ...) */
		snprintf(full, sizeof(full), "ib_fts_token-%zu", i + 1);
		cut_name(buf[i], full, 14);
		comms[i] = buf[i];
	}
	assert_string_equal(buf[11], "ib_fts_token-1");
	classify(NULL, comms, 20, &r);
	assert_int_equal(r.n_classes, 1);
	assert_class(&r, "ib_fts_token-*", 20);
	tclass_result_free(&r);
}

/* Two pools numbered by separate counters but named alike are one class. */
static void test_two_counters_same_name(void **state)
{
	const char *comms[] = { "worker-0", "worker-1", "worker-2", "worker-3",
				"worker-0", "worker-1", "worker-2", "worker-3" };
	struct tclass_result r;

	(void)state;
	classify(NULL, comms, 8, &r);
	assert_int_equal(r.n_classes, 1);
	assert_class(&r, "worker-*", 8);
	tclass_result_free(&r);
}

/* 64 numbered workers, different separators, one process. */
static void test_separators(void **state)
{
	static char buf[64 * 4][32];
	const char *comms[64 * 4];
	const char *fmt[] = { "worker-%d", "worker_%d", "worker%d", "w:%d.x" };
	struct tclass_result r;
	size_t i, k;

	(void)state;
	for (k = 0; k < 4; k++)
		for (i = 0; i < 64; i++) {
			snprintf(buf[k * 64 + i], sizeof(buf[0]), fmt[k], (int)i + 1);
			comms[k * 64 + i] = buf[k * 64 + i];
		}
	classify(NULL, comms, 64 * 4, &r);
	assert_int_equal(r.n_classes, 4);
	assert_class(&r, "worker-*", 64);
	assert_class(&r, "worker_*", 64);
	assert_class(&r, "worker*", 64);
	assert_class(&r, "w:*.x", 64);
	tclass_result_free(&r);
}

/* A number followed by a long tail is identity, not an index. */
static void test_long_tail_is_identity(void **state)
{
	const char *comms[] = { "C1 CompilerThre", "C2 CompilerThre",
				"C2 CompilerThre", "G1 Main Marker",
				"G1 Service" };
	struct tclass_result r;

	(void)state;
	classify(NULL, comms, 5, &r);
	assert_class(&r, "C1 CompilerThre", 1);
	assert_class(&r, "C2 CompilerThre", 2);
	assert_class(&r, "G1 Main Marker", 1);
	assert_class(&r, "G1 Service", 1);
	assert_int_equal(r.n_classes, 4);
	tclass_result_free(&r);
}

static void test_odd_inputs(void **state)
{
	char longname[200];
	const char *comms[4];
	struct tclass_result r;

	(void)state;
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	comms[0] = "";
	comms[1] = longname;
	comms[2] = "12";
	comms[3] = "7";
	classify(NULL, comms, 4, &r);
	assert_string_equal(name_of(&r, 0), "");
	assert_int_equal(strlen(name_of(&r, 1)), TCLASS_NAME_MAX - 1);
	assert_string_equal(name_of(&r, 2), "*");
	assert_string_equal(name_of(&r, 3), "*");
	tclass_result_free(&r);

	classify(NULL, NULL, 0, &r);
	assert_int_equal(r.n_classes, 0);
	assert_null(r.classes);
	tclass_result_free(&r);
}

/* ------------------------------------------------ determinism, scale */

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void test_order_independent(void **state)
{
	const char *comms[] = {
		"TNT_L0_1002", "RpcIO", "ib_io_rd-1", "TNT_L0_1002", "ib_io_rd-2",
		"pool-1-thread-1", "RpcIO", "pool-1-thread-2", "mysqld",
		"kworker/0:1H", "kworker/0:0H", "Thread-1", "TNT_L0_1001",
		"TNT_L0_1001", "TNT_L0_1001",
	};
	const size_t n = sizeof(comms) / sizeof(comms[0]);
	const char *shuf[sizeof(comms) / sizeof(comms[0])];
	struct tclass_result a, b;
	uint32_t seed = 42;
	size_t i, round;

	(void)state;
	classify(NULL, comms, n, &a);
	for (round = 0; round < 20; round++) {
		memcpy(shuf, comms, sizeof(comms));
		for (i = n - 1; i > 0; i--) {
			size_t j = lcg(&seed) % (i + 1);
			const char *t = shuf[i];

			shuf[i] = shuf[j];
			shuf[j] = t;
		}
		classify(NULL, shuf, n, &b);
		assert_int_equal(a.n_classes, b.n_classes);
		for (i = 0; i < a.n_classes; i++) {
			assert_string_equal(a.classes[i].name, b.classes[i].name);
			assert_int_equal(a.classes[i].n_threads, b.classes[i].n_threads);
		}
		for (i = 1; i < b.n_classes; i++)
			assert_true(strcmp(b.classes[i - 1].name, b.classes[i].name) < 0);
		tclass_result_free(&b);
	}
	tclass_result_free(&a);
}

/* 64k threads in one process, sorted in well under a second. */
static void test_64k_threads(void **state)
{
	const size_t n = 65536;
	char (*buf)[TCLASS_COMM_LEN] = calloc(n, sizeof(*buf));
	struct tclass_thread *t = calloc(n, sizeof(*t));
	struct tclass_result r;
	clock_t t0;
	double secs;
	size_t i;

	(void)state;
	assert_non_null(buf);
	assert_non_null(t);
	for (i = 0; i < n; i++) {
		char full[64];

		switch (i % 4) {
		case 0:
			snprintf(full, sizeof(full), "TNT_L0_%d", 1001 + (int)(i % 3));
			break;
		case 1:
			snprintf(full, sizeof(full), "pool-1-thread-%zu", i);
			break;
		case 2:
			snprintf(full, sizeof(full), "w-%zu", i);
			break;
		default:
			snprintf(full, sizeof(full), "RpcIO");
			break;
		}
		kernel_comm(buf[i], full);
		t[i].tid = (uint32_t)i + 1;
		t[i].comm = buf[i];
	}
	t0 = clock();
	assert_int_equal(tclass_assign(NULL, t, n, &r), 0);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_true(secs < 2.0);
	assert_int_equal(r.n_classes, 6);
	assert_class(&r, "pool-1-thread-*", n / 4);
	assert_class(&r, "w-*", n / 4);
	assert_class(&r, "RpcIO", n / 4);
	assert_class(&r, "TNT_L0_1001", 5462);
	tclass_result_free(&r);
	free(t);
	free(buf);
}

/* ------------------------------------------------------- overrides */

static struct tclass_classifier *make_classifier(const char *const *opts,
						 size_t n)
{
	struct tclass_override ov[8];
	struct tclass_classifier *c = NULL;
	char err[256];
	size_t i;

	assert_true(n <= 8);
	for (i = 0; i < n; i++)
		assert_int_equal(tclass_parse_override(opts[i], &ov[i], err,
						       sizeof(err)), 0);
	assert_int_equal(tclass_classifier_new(ov, n, &c), 0);
	assert_non_null(c);
	assert_int_equal(tclass_classifier_count(c), n);
	return c;
}

static void test_override_first_match_wins(void **state)
{
	const char *opts[] = { "innodb-io=ib_io_*", "innodb=ib_*",
			       "tenant-workers=TNT_L?_*", "kworkers=kworker/*" };
	const char *comms[] = { "ib_io_rd-1", "ib_io_wr-2", "ib_src_main",
				"TNT_L0_1001", "TNT_L0_1002", "kworker/0:1H",
				"connection", "connection" };
	struct tclass_classifier *c = make_classifier(opts, 4);
	const struct tclass_class *cl;
	struct tclass_result r;

	(void)state;
	classify(c, comms, 8, &r);
	assert_string_equal(name_of(&r, 0), "innodb-io");
	assert_string_equal(name_of(&r, 1), "innodb-io");
	assert_string_equal(name_of(&r, 2), "innodb");
	assert_string_equal(name_of(&r, 3), "tenant-workers");
	assert_string_equal(name_of(&r, 4), "tenant-workers");
	assert_string_equal(name_of(&r, 5), "kworkers");
	assert_string_equal(name_of(&r, 6), "connection");
	cl = find_class(&r, "innodb-io");
	assert_non_null(cl);
	assert_true(cl->from_override);
	assert_int_equal(cl->n_threads, 2);
	cl = find_class(&r, "connection");
	assert_non_null(cl);
	assert_false(cl->from_override);
	assert_int_equal(r.n_classes, 5);
	tclass_result_free(&r);
	tclass_classifier_free(c);
}

/* Overridden threads take no part in the automatic rule. */
static void test_override_leaves_rest_automatic(void **state)
{
	const char *opts[] = { "first=worker-1" };
	const char *comms[] = { "worker-1", "worker-2", "worker-3" };
	const char *two[] = { "worker-1", "worker-2" };
	struct tclass_classifier *c = make_classifier(opts, 1);
	char buf[TCLASS_NAME_MAX];
	struct tclass_result r;

	(void)state;
	classify(c, comms, 3, &r);
	assert_string_equal(name_of(&r, 0), "first");
	assert_string_equal(name_of(&r, 1), "worker-*");
	assert_string_equal(name_of(&r, 2), "worker-*");
	tclass_result_free(&r);

	classify(c, two, 2, &r);
	assert_string_equal(name_of(&r, 0), "first");
	assert_string_equal(name_of(&r, 1), "worker-2");
	tclass_result_free(&r);

	assert_int_equal(tclass_name_alone(c, "worker-1", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "first");
	assert_int_equal(tclass_name_alone(c, "worker-9", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "worker-9");
	tclass_classifier_free(c);
}

/* An override name equal to an automatic class name is the same class. */
static void test_override_merges_by_name(void **state)
{
	const char *opts[] = { "RpcIO=BatchIO" };
	const char *comms[] = { "RpcIO", "RpcIO", "BatchIO" };
	struct tclass_classifier *c = make_classifier(opts, 1);
	struct tclass_result r;

	(void)state;
	classify(c, comms, 3, &r);
	assert_int_equal(r.n_classes, 1);
	assert_class(&r, "RpcIO", 3);
	assert_true(r.classes[0].from_override);
	tclass_result_free(&r);
	tclass_classifier_free(c);
}

static void test_classifier_errors(void **state)
{
	struct tclass_override *many;
	struct tclass_override bad;
	struct tclass_classifier *c = (struct tclass_classifier *)&bad;
	size_t i;

	(void)state;
	assert_int_equal(tclass_classifier_new(NULL, 0, NULL), -EINVAL);
	assert_int_equal(tclass_classifier_new(NULL, 1, &c), -EINVAL);
	assert_null(c);
	assert_int_equal(tclass_classifier_new(NULL, 0, &c), 0);
	assert_int_equal(tclass_classifier_count(c), 0);
	tclass_classifier_free(c);
	assert_int_equal(tclass_classifier_count(NULL), 0);
	tclass_classifier_free(NULL);

	memset(&bad, 0, sizeof(bad));
	strcpy(bad.glob, "x*");
	assert_int_equal(tclass_classifier_new(&bad, 1, &c), -EINVAL);
	strcpy(bad.name, "x");
	bad.glob[0] = '\0';
	assert_int_equal(tclass_classifier_new(&bad, 1, &c), -EINVAL);
	memset(bad.name, 'n', sizeof(bad.name));	/* not NUL-terminated */
	strcpy(bad.glob, "x*");
	assert_int_equal(tclass_classifier_new(&bad, 1, &c), -EINVAL);
	strcpy(bad.name, "a\tb");
	assert_int_equal(tclass_classifier_new(&bad, 1, &c), -EINVAL);

	many = calloc(TCLASS_MAX_OVERRIDES + 1, sizeof(*many));
	assert_non_null(many);
	for (i = 0; i <= TCLASS_MAX_OVERRIDES; i++) {
		strcpy(many[i].name, "n");
		strcpy(many[i].glob, "g");
	}
	assert_int_equal(tclass_classifier_new(many, TCLASS_MAX_OVERRIDES + 1, &c),
			 -E2BIG);
	assert_int_equal(tclass_classifier_new(many, TCLASS_MAX_OVERRIDES, &c), 0);
	assert_int_equal(tclass_classifier_count(c), TCLASS_MAX_OVERRIDES);
	tclass_classifier_free(c);
	free(many);
}

static void test_assign_errors(void **state)
{
	struct tclass_thread t[2] = { { 1, "a" }, { 2, NULL } };
	struct tclass_result r;

	(void)state;
	assert_int_equal(tclass_assign(NULL, t, 1, NULL), -EINVAL);
	assert_int_equal(tclass_assign(NULL, NULL, 1, &r), -EINVAL);
	assert_int_equal(r.n_classes, 0);
	assert_int_equal(tclass_assign(NULL, t, 2, &r), -EINVAL);
	assert_null(r.classes);
	assert_null(r.class_of);
	assert_int_equal(tclass_assign(NULL, t, (size_t)TCLASS_MAX_THREADS + 1, &r),
			 -E2BIG);
	tclass_result_free(&r);
	tclass_result_free(NULL);
}

static void test_stem_and_alone_errors(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(tclass_stem(NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(tclass_stem("x", NULL, 1), -EINVAL);
	assert_int_equal(tclass_stem("ib_io_rd-3", buf, sizeof(buf)), -ENOSPC);
	assert_string_equal(buf, "");
	assert_int_equal(tclass_stem("ib_io_rd-3", buf, 0), -ENOSPC);
	assert_int_equal(tclass_stem("RpcIO", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "RpcIO");
	assert_int_equal(tclass_stem("w-1", buf, 4), 1);
	assert_string_equal(buf, "w-*");
	assert_int_equal(tclass_name_alone(NULL, NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(tclass_name_alone(NULL, "x", NULL, 1), -EINVAL);
	assert_int_equal(tclass_name_alone(NULL, "connection", buf, sizeof(buf)),
			 -ENOSPC);
}

/* ------------------------------------------------- option parser */

static void test_parse_ok(void **state)
{
	struct tclass_override o;
	char err[128] = "junk";
	char name[TCLASS_NAME_MAX + 1], text[512];

	(void)state;
	assert_int_equal(tclass_parse_override("innodb-io=ib_io_*", &o, err,
					       sizeof(err)), 0);
	assert_string_equal(o.name, "innodb-io");
	assert_string_equal(o.glob, "ib_io_*");
	assert_string_equal(err, "");

	/* The first '=' separates: the glob may hold '='. */
	assert_int_equal(tclass_parse_override("a=b=c", &o, err, sizeof(err)), 0);
	assert_string_equal(o.name, "a");
	assert_string_equal(o.glob, "b=c");

	/* Spaces are part of thread names. */
	assert_int_equal(tclass_parse_override("gc=GC Thread#*", &o, NULL, 0), 0);
	assert_string_equal(o.glob, "GC Thread#*");

	/* Longest name accepted. */
	memset(name, 'n', TCLASS_NAME_MAX - 1);
	name[TCLASS_NAME_MAX - 1] = '\0';
	snprintf(text, sizeof(text), "%s=x", name);
	assert_int_equal(tclass_parse_override(text, &o, err, sizeof(err)), 0);
	assert_int_equal(strlen(o.name), TCLASS_NAME_MAX - 1);
}

struct parse_err_case {
	const char *text;
	int rc;
	const char *msg_part;
};

static void test_parse_errors(void **state)
{
	static const struct parse_err_case cases[] = {
		{ "", -EINVAL, "missing '='" },
		{ "innodb", -EINVAL, "missing '='" },
		{ "=ib_*", -EINVAL, "empty class name" },
		{ "innodb=", -EINVAL, "empty glob" },
		{ "=", -EINVAL, "empty class name" },
		{ "a\nb=x", -EINVAL, "control character in class name" },
		{ "ab=x\x1b[2J", -EINVAL, "control character in glob" },
	};
	struct tclass_override o, keep;
	char err[256];
	size_t i;

	(void)state;
	memset(&keep, 0x5a, sizeof(keep));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		o = keep;
		assert_int_equal(tclass_parse_override(cases[i].text, &o, err,
						       sizeof(err)), cases[i].rc);
		if (strstr(err, cases[i].msg_part) == NULL)
			fail_msg("'%s': message '%s' lacks '%s'", cases[i].text,
				 err, cases[i].msg_part);
		assert_non_null(strstr(err, "--class"));
		assert_memory_equal(&o, &keep, sizeof(o));	/* untouched */
		/* Messages never carry raw control characters. */
		for (size_t k = 0; err[k]; k++)
			assert_true((unsigned char)err[k] >= 0x20 && err[k] != 0x7f);
	}

	assert_int_equal(tclass_parse_override(NULL, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "missing value"));
	assert_int_equal(tclass_parse_override("a=b", NULL, err, sizeof(err)),
			 -EINVAL);
	/* No message buffer, or a tiny one. */
	assert_int_equal(tclass_parse_override("nope", &o, NULL, 100), -EINVAL);
	assert_int_equal(tclass_parse_override("nope", &o, err, 0), -EINVAL);
	err[0] = 'x';
	err[1] = 'y';
	assert_int_equal(tclass_parse_override("nope", &o, err, 1), -EINVAL);
	assert_int_equal(err[0], '\0');
	assert_int_equal(tclass_parse_override("nope", &o, err, 5), -EINVAL);
	assert_int_equal(strlen(err), 4);
}

static void test_parse_too_long(void **state)
{
	struct tclass_override o;
	char text[TCLASS_GLOB_MAX + TCLASS_NAME_MAX + 8];
	char err[256];

	(void)state;
	/* Name of TCLASS_NAME_MAX characters. */
	memset(text, 'n', TCLASS_NAME_MAX);
	strcpy(text + TCLASS_NAME_MAX, "=x*");
	assert_int_equal(tclass_parse_override(text, &o, err, sizeof(err)),
			 -ENAMETOOLONG);
	assert_non_null(strstr(err, "class name too long"));
	assert_non_null(strstr(err, "at most 63"));
	/* The quoted text is cut, not the whole input. */
	assert_non_null(strstr(err, "..."));

	/* Glob of TCLASS_GLOB_MAX - 1 characters fits, one more does not. */
	strcpy(text, "g=");
	memset(text + 2, 'x', TCLASS_GLOB_MAX - 1);
	text[2 + TCLASS_GLOB_MAX - 1] = '\0';
	assert_int_equal(tclass_parse_override(text, &o, err, sizeof(err)), 0);
	assert_int_equal(strlen(o.glob), TCLASS_GLOB_MAX - 1);
	text[2 + TCLASS_GLOB_MAX - 1] = 'x';
	text[2 + TCLASS_GLOB_MAX] = '\0';
	assert_int_equal(tclass_parse_override(text, &o, err, sizeof(err)),
			 -ENAMETOOLONG);
	assert_non_null(strstr(err, "glob too long"));
}

/* Random bytes: never crash, and the result is consistent with the rc. */
static void test_parse_random(void **state)
{
	static const char alphabet[] = "ab=*?[]!\\-_ \t\n\x01\x7f\xff=";
	char text[400], err[160];
	struct tclass_override o;
	uint32_t seed = 7;
	int round;

	(void)state;
	for (round = 0; round < 20000; round++) {
		size_t len = lcg(&seed) % sizeof(text), i;
		int rc;

		for (i = 0; i < len; i++)
			text[i] = alphabet[lcg(&seed) % (sizeof(alphabet) - 1)];
		text[len] = '\0';
		rc = tclass_parse_override(text, &o, err, sizeof(err));
		if (rc == 0) {
			struct tclass_classifier *c = NULL;

			assert_string_equal(err, "");
			assert_true(o.name[0] != '\0' && o.glob[0] != '\0');
			assert_int_equal(tclass_classifier_new(&o, 1, &c), 0);
			tclass_classifier_free(c);
		} else {
			assert_true(rc == -EINVAL || rc == -ENAMETOOLONG);
			assert_true(err[0] != '\0');
			assert_true(strlen(err) < sizeof(err));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_names_with_siblings),
		cmocka_unit_test(test_real_names_alone),
		cmocka_unit_test(test_stem_matches_table),
		cmocka_unit_test(test_mysqld_process),
		cmocka_unit_test(test_ob_tenant_ids_stay),
		cmocka_unit_test(test_java_pool_id_stays),
		cmocka_unit_test(test_truncated_java_pool),
		cmocka_unit_test(test_truncated_reactors),
		cmocka_unit_test(test_truncated_forkjoin_pools),
		cmocka_unit_test(test_mysql_14_char_names),
		cmocka_unit_test(test_two_counters_same_name),
		cmocka_unit_test(test_separators),
		cmocka_unit_test(test_long_tail_is_identity),
		cmocka_unit_test(test_odd_inputs),
		cmocka_unit_test(test_order_independent),
		cmocka_unit_test(test_64k_threads),
		cmocka_unit_test(test_override_first_match_wins),
		cmocka_unit_test(test_override_leaves_rest_automatic),
		cmocka_unit_test(test_override_merges_by_name),
		cmocka_unit_test(test_classifier_errors),
		cmocka_unit_test(test_assign_errors),
		cmocka_unit_test(test_stem_and_alone_errors),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_too_long),
		cmocka_unit_test(test_parse_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
