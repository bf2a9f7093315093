/*
 * counters.c - perf_event_open(2) counters (counters.h).
 *
 * Counters are enabled only around the batches of their own variant, so the
 * totals read at the end are that variant's alone: no read per batch, and the
 * time_enabled/time_running pair that comes with each total scales it when
 * the kernel had to multiplex the hardware.
 */
#include "counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	const char *name, *key;
	uint32_t type;
	uint64_t config;
} events[CTR_COUNT] = {
	[CTR_CYCLES] = { "cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[CTR_INSTRUCTIONS] = { "instructions", "instructions", PERF_TYPE_HARDWARE,
			       PERF_COUNT_HW_INSTRUCTIONS },
	[CTR_BRANCHES] = { "branches", "branches", PERF_TYPE_HARDWARE,
			   PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	[CTR_BRANCH_MISSES] = { "branch-misses", "branch_misses", PERF_TYPE_HARDWARE,
				PERF_COUNT_HW_BRANCH_MISSES },
	[CTR_TASK_CLOCK] = { "task-clock", "task_clock", PERF_TYPE_SOFTWARE,
			     PERF_COUNT_SW_TASK_CLOCK },
};

/* Not in errno: counters_open(disable_all) marks counters with it. */
#define ERR_DISABLED (-1)

/* pid 0: the calling thread.  A child's counters (pid > 0) count it and
 * every process and thread it starts (inherit), from its exec on. */
static int open_event(enum counter i, int group_fd, pid_t pid)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = events[i].type;
	a.config = events[i].config;
	a.disabled = group_fd < 0;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (pid > 0) {
		a.inherit = 1;
		a.enable_on_exec = a.disabled;
	}
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, group_fd, 0);
}

static int open_all(struct counters *c, int disable_all, pid_t pid)
{
	memset(c, 0, sizeof *c);
	c->leader = -1;
	int n = 0;
	for (int i = 0; i < CTR_COUNT; i++) {
		c->fd[i] = -1;
		if (disable_all) {
			c->err[i] = ERR_DISABLED;
			continue;
		}
		/* The first hardware event that opens leads the group; if cycles
		 * is refused the others may still be counted. */
		int group = events[i].type == PERF_TYPE_HARDWARE ? c->leader : -1;
		int fd = open_event((enum counter)i, group, pid);
		if (fd < 0) {
			c->err[i] = errno;
			continue;
		}
		c->fd[i] = fd;
		if (events[i].type == PERF_TYPE_HARDWARE && c->leader < 0)
			c->leader = fd;
		n++;
	}
	return n;
}

int counters_open(struct counters *c, int disable_all)
{
	return open_all(c, disable_all, 0);
}

int counters_open_child(struct counters *c, pid_t pid)
{
	return open_all(c, 0, pid);
}

void counters_close(struct counters *c)
{
	for (int i = 0; i < CTR_COUNT; i++)
		if (c->fd[i] >= 0) {
			close(c->fd[i]);
			c->fd[i] = -1;
		}
	c->leader = -1;
}

void counters_start(struct counters *c)
{
	if (c->leader >= 0)
		ioctl(c->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	if (c->fd[CTR_TASK_CLOCK] >= 0)
		ioctl(c->fd[CTR_TASK_CLOCK], PERF_EVENT_IOC_ENABLE, 0);
}

void counters_stop(struct counters *c)
{
	if (c->fd[CTR_TASK_CLOCK] >= 0)
		ioctl(c->fd[CTR_TASK_CLOCK], PERF_EVENT_IOC_DISABLE, 0);
	if (c->leader >= 0)
		ioctl(c->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

int counters_available(const struct counters *c, enum counter i)
{
	return i < CTR_COUNT && c->fd[i] >= 0;
}

/* Not in errno either: an open counter's read failed or it never ran. */
#define WHY_OK 0
#define WHY_UNREADABLE 1
#define WHY_NOT_SCHEDULED 2

/* Reads counter i (value, time enabled, time running) into *x.
 * @return : WHY_OK, WHY_UNREADABLE or WHY_NOT_SCHEDULED. */
static int read_total(const struct counters *c, enum counter i, double *x)
{
	uint64_t v[3];
	*x = NAN;
	if (read(c->fd[i], v, sizeof v) != (ssize_t)sizeof v)
		return WHY_UNREADABLE;
	if (v[2] == 0) {
		if (v[1] != 0)
			return WHY_NOT_SCHEDULED;  /* enabled, never on the PMU */
		*x = 0;
		return WHY_OK;
	}
	*x = (double)v[0];
	if (v[2] < v[1])
		*x *= (double)v[1] / (double)v[2];
	return WHY_OK;
}

double counters_total(const struct counters *c, enum counter i)
{
	double x = NAN;
	if (counters_available(c, i))
		read_total(c, i, &x);
	return x;
}

const char *counters_reason(const struct counters *c, enum counter i)
{
	if (i >= CTR_COUNT)
		return "unknown counter";
	if (c->fd[i] >= 0) {
		double x;
		switch (read_total(c, i, &x)) {
		case WHY_UNREADABLE: return "cannot be read";
		case WHY_NOT_SCHEDULED: return "not scheduled";
		default: return "";
		}
	}
	switch (c->err[i]) {
	case ERR_DISABLED: return "disabled";
	case ENOENT: case EOPNOTSUPP: case EINVAL: return "not supported";
	case EACCES: case EPERM: return "not permitted (perf_event_paranoid)";
	case ENOSYS: return "no perf_event_open in this kernel";
	case EMFILE: return "too many open files";
	default: return strerror(c->err[i]);
	}
}

const char *counter_name(enum counter i)
{
	return i < CTR_COUNT ? events[i].name : "?";
}

const char *counter_key(enum counter i)
{
	return i < CTR_COUNT ? events[i].key : "?";
}
