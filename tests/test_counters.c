/*
 * test_counters.c - resolving --event names the way perf does, against fake
 * sysfs trees (a PMU directory with type, events/ and format/), and the raw
 * form.  No counter is opened: this machine may have none.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "counters.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	/* Each parent directory of the file, in turn. */
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			perror(path);
			exit(2);
		}
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* An arm64 core PMU, an x86 one, and an uncore PMU that shares a name with
 * each of them. */
static void make_tree(void)
{
	put("armv8_cortex_a53/type", "8\n");
	put("armv8_cortex_a53/format/event", "config:0-15\n");
	put("armv8_cortex_a53/events/ld_dep_stall", "event=0xe7\n");
	put("armv8_cortex_a53/events/cpu_cycles", "event=0x11\n");
	put("cpu/type", "4\n");
	put("cpu/format/event", "config:0-7\n");
	put("cpu/format/umask", "config:8-15\n");
	put("cpu/format/edge", "config:18\n");
	put("cpu/format/ldlat", "config1:0-15\n");
	put("cpu/format/split", "config:0-3,32-35\n");
	put("cpu/events/uops", "event=0x3c,umask=0x01\n");
	put("cpu/events/edges", "event=0x3c,edge\n");
	put("cpu/events/mem_loads", "event=0xcd,umask=0x1,ldlat=3\n");
	put("cpu/events/too_wide", "event=0x13c\n");
	put("cpu/events/split_ev", "split=0x5a\n");
	put("cpu/events/nofmt", "event=0x1,period=2\n");
	put("cpu/events/param", "event=0x1,umask=?\n");
	put("cpu/events/plain", "config=0x1234\n");
	put("uncore_imc/type", "17\n");
	put("uncore_imc/format/event", "config:0-7\n");
	put("uncore_imc/events/uops", "event=0x1\n");
	put("uncore_imc/events/cas_count", "event=0x4\n");
	put("uncore_ddr/type", "18\n");
	put("uncore_ddr/format/event", "config:0-7\n");
	put("uncore_ddr/events/cas_count", "event=0x5\n");
}

static int parse(const char *spec, struct counter_event *e, char *err, size_t n)
{
	return counter_event_parse(spec, root, e, err, n);
}

static void test_resolve(void)
{
	struct counter_event e;
	char err[512] = "";

	CHECK(parse("armv8_cortex_a53/ld_dep_stall", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.type == 8 && e.config == 0xe7 && e.config1 == 0, "type %u config %#llx",
	      e.type, (unsigned long long)e.config);
	CHECK(!strcmp(e.name, "armv8_cortex_a53/ld_dep_stall"), "name %s", e.name);
	/* Found without the PMU: only one lists it. */
	CHECK(parse("ld_dep_stall", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.type == 8 && e.config == 0xe7, "bare: type %u config %#llx", e.type,
	      (unsigned long long)e.config);
	CHECK(!strcmp(e.name, "ld_dep_stall"), "name %s", e.name);
	/* perf's trailing slash. */
	CHECK(parse("armv8_cortex_a53/cpu_cycles/", &e, err, sizeof err) == 0 &&
	      e.config == 0x11, "%s", err);

	CHECK(parse("cpu/uops", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.type == 4 && e.config == 0x13c, "x86: type %u config %#llx", e.type,
	      (unsigned long long)e.config);
	/* A term without a value sets its bit. */
	CHECK(parse("cpu/edges", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.config == (0x3cull | 1ull << 18), "edge: config %#llx",
	      (unsigned long long)e.config);
	CHECK(parse("cpu/mem_loads", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.config == 0x1cd && e.config1 == 3, "config1: %#llx %#llx",
	      (unsigned long long)e.config, (unsigned long long)e.config1);
	/* Two ranges: the value's low bits in the first. */
	CHECK(parse("cpu/split_ev", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.config == (0xaull | 0x5ull << 32), "split: config %#llx",
	      (unsigned long long)e.config);
	/* config= itself, with no format file, as perf takes it. */
	CHECK(parse("cpu/plain", &e, err, sizeof err) == 0 && e.config == 0x1234, "%s", err);
	check_group("resolve: arm64 and x86 events from format files");
}

static void test_ambiguous(void)
{
	struct counter_event e;
	char err[512] = "";
	/* cpu and uncore_imc list uops: the core PMU wins. */
	CHECK(parse("uops", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.type == 4 && e.config == 0x13c, "uops from %u", e.type);
	CHECK(parse("uncore_imc/uops", &e, err, sizeof err) == 0 && e.type == 17 &&
	      e.config == 1, "%s", err);
	/* Two uncore PMUs, no core one: refused, both named. */
	err[0] = '\0';
	CHECK(parse("cas_count", &e, err, sizeof err) < 0, "cas_count accepted");
	CHECK(strstr(err, "uncore_imc") && strstr(err, "uncore_ddr") && strstr(err, "cas_count"),
	      "message: %s", err);
	CHECK(parse("uncore_ddr/cas_count", &e, err, sizeof err) == 0 && e.type == 18 &&
	      e.config == 5, "%s", err);
	check_group("resolve: a name several PMUs list");
}

/* Refused, with a message that names the input and `what`. */
static void refused(const char *spec, const char *what)
{
	struct counter_event e;
	char err[512] = "";
	CHECK(parse(spec, &e, err, sizeof err) < 0, "'%s' accepted", spec);
	CHECK(strstr(err, spec) && strstr(err, what), "'%s': message '%s' lacks '%s'", spec,
	      err, what);
}

static void test_refused(void)
{
	refused("nosuch", "no PMU");
	refused("cpu/nosuch", "no file");
	refused("nopmu/uops", "no PMU");
	refused("cpu/too_wide", "does not fit");
	refused("cpu/nofmt", "no format file");
	refused("cpu/param", "not a number");
	refused("../cpu/uops", "expected");
	refused("cpu/../uops", "expected");
	refused("", "expected");
	refused("raw:0xZZ", "expected raw:0xHEX");
	refused("raw:", "expected raw:0xHEX");
	refused("raw:0x", "expected raw:0xHEX");
	refused("raw:-1", "expected raw:0xHEX");
	refused("raw:0x10000000000000000", "expected raw:0xHEX");
	refused("raw:12a", "expected raw:0xHEX");
	check_group("resolve: bad names refused, naming the input");
}

static void test_raw(void)
{
	struct counter_event e;
	char err[512] = "";
	CHECK(parse("raw:0x11", &e, err, sizeof err) == 0, "%s", err);
	CHECK(e.type == PERF_TYPE_RAW && e.config == 0x11, "raw:0x11 -> %u %#llx", e.type,
	      (unsigned long long)e.config);
	CHECK(parse("raw:231", &e, err, sizeof err) == 0 && e.config == 231, "%s", err);
	CHECK(parse("raw:0xffffffffffffffff", &e, err, sizeof err) == 0 &&
	      e.config == UINT64_MAX, "%s", err);
	check_group("raw events");
}

static void test_list(void)
{
	struct counter_events ev = { 0 };
	char err[512] = "";
	const char *spec[] = { "raw:1", "raw:2", "ld_dep_stall", "cpu/uops" };
	for (int i = 0; i < 4; i++)
		CHECK(counter_events_add(&ev, spec[i], root, err, sizeof err) == 0, "%s: %s",
		      spec[i], err);
	CHECK(ev.n == 4, "%u events", ev.n);
	CHECK(counter_events_add(&ev, "raw:5", root, err, sizeof err) < 0 &&
	      strstr(err, "raw:5") && strstr(err, "at most 4"), "fifth: %s", err);
	CHECK(ev.n == 4, "%u events after the fifth", ev.n);
	CHECK(counter_slots(&ev) == CTR_COUNT + 4 && counter_slots(NULL) == CTR_COUNT,
	      "slots %d", counter_slots(&ev));
	CHECK(!strcmp(counter_slot_name(&ev, CTR_COUNT + 2), "ld_dep_stall") &&
	      !strcmp(counter_slot_name(&ev, CTR_CYCLES), "cycles"), "slot names");
	struct counter_events two = { 0 };
	CHECK(counter_events_add(&two, "raw:1", root, err, sizeof err) == 0 &&
	      counter_events_add(&two, "raw:1", root, err, sizeof err) < 0 &&
	      strstr(err, "twice"), "repeat: %s", err);
	/* Slots without an event are not counted and say so. */
	struct counters c;
	counters_open(&c, 1, &two);
	CHECK(!strcmp(counters_reason(&c, CTR_COUNT), "disabled") &&
	      !strcmp(counters_reason(&c, CTR_COUNT + 1), "not requested"), "reasons %s, %s",
	      counters_reason(&c, CTR_COUNT), counters_reason(&c, CTR_COUNT + 1));
	counters_close(&c);
	check_group("event lists");
}

int main(void)
{
	snprintf(root, sizeof root, "/tmp/ucopy-pmu-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	make_tree();
	test_resolve();
	test_ambiguous();
	test_refused();
	test_raw();
	test_list();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return check_exit();
}
