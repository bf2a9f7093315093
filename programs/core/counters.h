/*
 * counters.h - hardware and software counters around the timed batches of
 * one variant, through perf_event_open(2).
 *
 * One group per variant (cycles, instructions, branches, branch-misses, read
 * together so their ratios are consistent) plus task-clock.  Each event that
 * the kernel refuses (virtual machines commonly answer "not supported" for
 * every hardware event; perf_event_paranoid may forbid them) is reported as
 * unavailable with the reason, and the rest carry on.  Only user-space work is
 * counted (exclude_kernel), which is what a copy in user space costs and what
 * perf_event_paranoid 2 still allows.
 *
 * Up to CTR_EXTRA_MAX more events (`--event`: a raw event number or a name
 * the kernel's PMUs list in sysfs, as `perf stat -e` takes them) are counted
 * beside those, in slots CTR_COUNT.. of the same arrays.
 */
#ifndef UCOPY_COUNTERS_H
#define UCOPY_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum counter {
	CTR_CYCLES,
	CTR_INSTRUCTIONS,
	CTR_BRANCHES,
	CTR_BRANCH_MISSES,
	CTR_TASK_CLOCK,   /* nanoseconds of CPU time */
	CTR_COUNT
};

/* The most --event options a run takes: each may need a hardware counter of
 * its own, and a core has 4 to 8 of them beside the fixed ones. */
#define CTR_EXTRA_MAX 4
/* Slots in the arrays below: the built-in counters, then the extra events. */
#define CTR_SLOTS (CTR_COUNT + CTR_EXTRA_MAX)

/* One extra event, resolved to what perf_event_open(2) takes. */
struct counter_event {
	char name[64];            /* as given: "raw:0x11", "ld_dep_stall" */
	uint32_t type;
	uint64_t config, config1, config2;
};

struct counter_events {
	unsigned n;
	struct counter_event e[CTR_EXTRA_MAX];
};

/* Where the kernel lists its PMUs, each with type, events/ and format/. */
#define COUNTER_SYSFS "/sys/bus/event_source/devices"

/* Resolves an event as `perf stat -e` names it: "raw:0xHEX" or "raw:DEC"
 * (PERF_TYPE_RAW), "PMU/NAME" (an event file under ROOT/PMU/events/, its
 * terms placed by ROOT/PMU/format/, the type from ROOT/PMU/type) or "NAME"
 * (looked up under every PMU; when several list it, the one core PMU among
 * them, "cpu" or "armv8_*").  root NULL: COUNTER_SYSFS.
 * @return : 0, or -1 with why (naming spec and what was expected) in err. */
int counter_event_parse(const char *spec, const char *root, struct counter_event *out,
			char *err, size_t errlen);
/* counter_event_parse() into the next slot of ev.
 * @return : 0, or -1 with why in err (also when ev is full). */
int counter_events_add(struct counter_events *ev, const char *spec, const char *root,
		       char *err, size_t errlen);
/* @return : the name of slot i: counter_name() below CTR_COUNT, the extra
 *           event's name as given above (ev may be NULL: no extras). */
const char *counter_slot_name(const struct counter_events *ev, int i);
/* @return : the slots in use: CTR_COUNT plus ev's events. */
int counter_slots(const struct counter_events *ev);

struct json;
/* Writes ev as a JSON array: per event its name as given, the type and the
 * config fields it resolved to (hex strings: 64-bit values JSON numbers do
 * not hold exactly), and its status: why[CTR_COUNT + k] when given and not
 * "", else "ok" ("unknown" when why is NULL or has no entry). */
void counter_events_json(struct json *j, const struct counter_events *ev,
			 const char *const *why);

struct counters {
	int fd[CTR_SLOTS];        /* -1 when unavailable */
	int leader;               /* fd of the hardware group leader, or -1 */
	int err[CTR_SLOTS];       /* errno of the refusal */
};

/* Opens the counters for the calling thread, disabled, with the extra
 * events of ev (NULL: none).  disable_all skips perf_event_open entirely
 * (everything reads unavailable, "disabled").
 * @return : the number of counters available (0 is not an error). */
int counters_open(struct counters *c, int disable_all, const struct counter_events *ev);
/* Opens the counters for process `pid`, a child stopped before its exec:
 * they count from the exec on, the child and every process and thread it
 * starts, with no counters_start()/counters_stop(); read them once it has
 * been waited for.
 * @return : the number of counters available (0 is not an error). */
int counters_open_child(struct counters *c, pid_t pid, const struct counter_events *ev);
void counters_close(struct counters *c);
/* Counting runs between start and stop; totals accumulate. */
void counters_start(struct counters *c);
void counters_stop(struct counters *c);
/* Below, i is a slot: an enum counter, or CTR_COUNT + k for extra event k. */
/* @return : 1 when counter i is available. */
int counters_available(const struct counters *c, int i);
/* @return : the total of counter i since open, scaled up when the kernel
 *           multiplexed it; NaN when unavailable, unreadable, or enabled but
 *           never scheduled onto the hardware. */
double counters_total(const struct counters *c, int i);
/* @return : why counter i has no total ("not supported", "not permitted
 *           (perf_event_paranoid)", "not scheduled", "not requested" for
 *           an extra slot no event was given for, ...), or "" when
 *           counters_total() gives one. */
const char *counters_reason(const struct counters *c, int i);
/* @return : "cycles", "instructions", "branches", "branch-misses",
 *           "task-clock". */
const char *counter_name(enum counter i);
/* @return : the name as a JSON or CSV key: "cycles", "instructions",
 *           "branches", "branch_misses", "task_clock". */
const char *counter_key(enum counter i);

#endif
