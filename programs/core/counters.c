/*
 * counters.c - perf_event_open(2) counters (counters.h).
 *
 * Counters are enabled only around the batches of their own variant, so the
 * totals read at the end are that variant's alone: no read per batch, and the
 * time_enabled/time_running pair that comes with each total scales it when
 * the kernel had to multiplex the hardware.
 */
#include "counters.h"
#include "errmsg.h"
#include "json.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
static int open_attr(struct perf_event_attr *a, int group_fd, pid_t pid)
{
	a->size = sizeof *a;
	a->disabled = group_fd < 0;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (pid > 0) {
		a->inherit = 1;
		a->enable_on_exec = a->disabled;
	}
	return (int)syscall(SYS_perf_event_open, a, pid, -1, group_fd, 0);
}

/* Not in errno either: an extra slot no event was given for. */
#define ERR_UNUSED (-2)

static int open_all(struct counters *c, int disable_all, pid_t pid,
		    const struct counter_events *ev)
{
	memset(c, 0, sizeof *c);
	c->leader = -1;
	int n = 0, slots = counter_slots(ev);
	for (int i = 0; i < CTR_SLOTS; i++) {
		c->fd[i] = -1;
		if (i >= slots) {
			c->err[i] = ERR_UNUSED;
			continue;
		}
		if (disable_all) {
			c->err[i] = ERR_DISABLED;
			continue;
		}
		struct perf_event_attr a;
		memset(&a, 0, sizeof a);
		int group = -1;
		if (i < CTR_COUNT) {
			a.type = events[i].type;
			a.config = events[i].config;
			/* The first hardware event that opens leads the group; if
			 * cycles is refused the others may still be counted. */
			if (events[i].type == PERF_TYPE_HARDWARE)
				group = c->leader;
		} else {
			/* Extra events stand alone: a group never runs at all when it
			 * needs more counters than the PMU has, where single events
			 * are multiplexed and scaled. */
			const struct counter_event *e = &ev->e[i - CTR_COUNT];
			a.type = e->type;
			a.config = e->config;
			a.config1 = e->config1;
			a.config2 = e->config2;
		}
		int fd = open_attr(&a, group, pid);
		if (fd < 0) {
			c->err[i] = errno;
			continue;
		}
		c->fd[i] = fd;
		if (i < CTR_COUNT && events[i].type == PERF_TYPE_HARDWARE && c->leader < 0)
			c->leader = fd;
		n++;
	}
	return n;
}

int counters_open(struct counters *c, int disable_all, const struct counter_events *ev)
{
	return open_all(c, disable_all, 0, ev);
}

int counters_open_child(struct counters *c, pid_t pid, const struct counter_events *ev)
{
	return open_all(c, 0, pid, ev);
}

void counters_close(struct counters *c)
{
	for (int i = 0; i < CTR_SLOTS; i++)
		if (c->fd[i] >= 0) {
			close(c->fd[i]);
			c->fd[i] = -1;
		}
	c->leader = -1;
}

/* The counters outside the hardware group: task-clock and the extras. */
static int alone(const struct counters *c, int i)
{
	return c->fd[i] >= 0 && (i == CTR_TASK_CLOCK || i >= CTR_COUNT);
}

void counters_start(struct counters *c)
{
	if (c->leader >= 0)
		ioctl(c->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (int i = 0; i < CTR_SLOTS; i++)
		if (alone(c, i))
			ioctl(c->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void counters_stop(struct counters *c)
{
	for (int i = CTR_SLOTS - 1; i >= 0; i--)
		if (alone(c, i))
			ioctl(c->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	if (c->leader >= 0)
		ioctl(c->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

int counters_available(const struct counters *c, int i)
{
	return i >= 0 && i < CTR_SLOTS && c->fd[i] >= 0;
}

/* Not in errno either: an open counter's read failed or it never ran. */
#define WHY_OK 0
#define WHY_UNREADABLE 1
#define WHY_NOT_SCHEDULED 2

/* Reads counter i (value, time enabled, time running) into *x.
 * @return : WHY_OK, WHY_UNREADABLE or WHY_NOT_SCHEDULED. */
static int read_total(const struct counters *c, int i, double *x)
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

double counters_total(const struct counters *c, int i)
{
	double x = NAN;
	if (counters_available(c, i))
		read_total(c, i, &x);
	return x;
}

const char *counters_reason(const struct counters *c, int i)
{
	if (i < 0 || i >= CTR_SLOTS)
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
	case ERR_UNUSED: return "not requested";
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

const char *counter_slot_name(const struct counter_events *ev, int i)
{
	if (i >= 0 && i < CTR_COUNT)
		return events[i].name;
	if (ev && i >= CTR_COUNT && (unsigned)(i - CTR_COUNT) < ev->n)
		return ev->e[i - CTR_COUNT].name;
	return "?";
}

int counter_slots(const struct counter_events *ev)
{
	return CTR_COUNT + (ev ? (int)ev->n : 0);
}

/*=====   Events by name, as sysfs lists them   =====*/

#define EXPECTED "expected raw:0xHEX, raw:DECIMAL, PMU/NAME or NAME as `perf list` shows it"

/* sysfs files of a PMU are one short line. */
static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t k = fread(buf, 1, n - 1, f);
	fclose(f);
	buf[k] = '\0';
	while (k && isspace((unsigned char)buf[k - 1]))
		buf[--k] = '\0';
	return 0;
}

/* "0x..." in hex, else decimal; the whole string, within 64 bits. */
static int parse_u64(const char *s, uint64_t *v)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (hex)
		s += 2;
	if (!*s)
		return -1;
	for (const char *p = s; *p; p++)
		if (hex ? !isxdigit((unsigned char)*p) : !isdigit((unsigned char)*p))
			return -1;
	errno = 0;
	char *end;
	unsigned long long x = strtoull(s, &end, hex ? 16 : 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

/* A PMU or event name becomes part of a path: nothing that leaves its
 * directory. */
static int name_ok(const char *s, size_t n)
{
	if (!n || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return 0;
	return 1;
}

static uint64_t *config_field(struct counter_event *e, const char *name, size_t n)
{
	if (n == 6 && !strncmp(name, "config", 6))
		return &e->config;
	if (n == 7 && !strncmp(name, "config1", 7))
		return &e->config1;
	if (n == 7 && !strncmp(name, "config2", 7))
		return &e->config2;
	return NULL;
}

/* Places `value` of term `term` where PMU directory `dir`'s format file for
 * it says ("config:0-7", "config1:0-63", "config:21", "config:0-7,32-35":
 * the value's low bits fill the first range, the next ones the second). */
static int place_term(const char *spec, const char *dir, const char *term, uint64_t value,
		      struct counter_event *e, char *err, size_t errlen)
{
	char path[4096], fmt[256];
	snprintf(path, sizeof path, "%s/format/%s", dir, term);
	if (read_line(path, fmt, sizeof fmt) < 0) {
		/* perf takes the fields themselves as terms too. */
		uint64_t *f = config_field(e, term, strlen(term));
		if (f) {
			*f = value;
			return 0;
		}
		return errmsg(err, errlen, "bad event '%s': its term '%s' has no format file "
			      "%s (expected terms the PMU's format/ directory lists)",
			      spec, term, path);
	}
	const char *colon = strchr(fmt, ':');
	uint64_t *f = colon ? config_field(e, fmt, (size_t)(colon - fmt)) : NULL;
	if (!f)
		return errmsg(err, errlen, "bad event '%s': format '%s' of its term '%s' is "
			      "not config, config1 or config2 bits", spec, fmt, term);
	uint64_t rest = value;
	unsigned width = 0;
	const char *p = colon + 1;
	for (;;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p)
				goto bad;
		}
		if (lo > hi || hi > 63)
			goto bad;
		unsigned w = (unsigned)(hi - lo + 1);
		uint64_t bits = w == 64 ? rest : rest & (((uint64_t)1 << w) - 1);
		*f |= bits << lo;
		rest = w == 64 ? 0 : rest >> w;
		width += w;
		if (!*end)
			break;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
	if (rest)
		return errmsg(err, errlen, "bad event '%s': value 0x%llx of its term '%s' does "
			      "not fit the term's %u bits (format '%s')", spec,
			      (unsigned long long)value, term, width, fmt);
	return 0;
bad:
	return errmsg(err, errlen, "bad event '%s': cannot read format '%s' of its term "
		      "'%s' (expected config:LO-HI or config:BIT)", spec, fmt, term);
}

/* The event NAME of PMU directory dir: its terms ("event=0x3c,umask=0x01";
 * a term without a value is 1) placed by the format files, the type. */
static int resolve_in(const char *spec, const char *dir, const char *name,
		      struct counter_event *e, char *err, size_t errlen)
{
	char path[4096], line[512];
	snprintf(path, sizeof path, "%s/type", dir);
	uint64_t type;
	if (read_line(path, line, sizeof line) < 0 || parse_u64(line, &type) < 0 ||
	    type > UINT32_MAX)
		return errmsg(err, errlen, "bad event '%s': no PMU type number in %s", spec, path);
	e->type = (uint32_t)type;
	snprintf(path, sizeof path, "%s/events/%s", dir, name);
	if (read_line(path, line, sizeof line) < 0)
		return errmsg(err, errlen, "unknown event '%s': no file %s (" EXPECTED ")", spec,
			      path);
	if (!line[0])
		return errmsg(err, errlen, "bad event '%s': %s is empty", spec, path);
	for (char *save = NULL, *t = strtok_r(line, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*t))
			t++;
		char *eq = strchr(t, '=');
		uint64_t v = 1;
		if (eq) {
			*eq = '\0';
			if (parse_u64(eq + 1, &v) < 0)
				return errmsg(err, errlen, "bad event '%s': term '%s=%s' in %s is "
					      "not a number (a '?' is a parameter --event cannot "
					      "give)", spec, t, eq + 1, path);
		}
		if (!name_ok(t, strlen(t)))
			return errmsg(err, errlen, "bad event '%s': bad term '%s' in %s", spec, t,
				      path);
		if (place_term(spec, dir, t, v, e, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The core PMU: "cpu" on x86 ("cpu_core", "cpu_atom" on hybrids), "armv8_*"
 * on arm64. */
static int core_pmu(const char *name)
{
	return !strcmp(name, "cpu") || !strncmp(name, "cpu_", 4) || !strncmp(name, "armv8", 5);
}

int counter_event_parse(const char *spec, const char *root, struct counter_event *out,
			char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (!root)
		root = COUNTER_SYSFS;
	size_t len = strlen(spec);
	if (len >= sizeof out->name)
		return errmsg(err, errlen, "bad event '%.40s...': longer than %zu characters",
			      spec, sizeof out->name - 1);
	memcpy(out->name, spec, len + 1);
	if (!strncmp(spec, "raw:", 4)) {
		if (parse_u64(spec + 4, &out->config) < 0)
			return errmsg(err, errlen, "bad raw event '%s' (expected raw:0xHEX or "
				      "raw:DECIMAL, up to 64 bits)", spec);
		out->type = PERF_TYPE_RAW;
		return 0;
	}
	/* perf's "PMU/NAME/" is "PMU/NAME"; "PMU/" names no event. */
	int trailing = len && spec[len - 1] == '/';
	if (trailing)
		len--;
	const char *slash = memchr(spec, '/', len);
	if (trailing && !slash && len)
		return errmsg(err, errlen, "bad event '%s': a PMU without an event name ("
			      EXPECTED ")", spec);
	const char *name = slash ? slash + 1 : spec;
	size_t nlen = len - (size_t)(name - spec);
	if ((slash && !name_ok(spec, (size_t)(slash - spec))) || !name_ok(name, nlen))
		return errmsg(err, errlen, "bad event '%s' (" EXPECTED ")", spec);
	char ename[64], dir[4096];
	snprintf(ename, sizeof ename, "%.*s", (int)nlen, name);
	if (slash) {
		snprintf(dir, sizeof dir, "%s/%.*s", root, (int)(slash - spec), spec);
		if (access(dir, F_OK) < 0)
			return errmsg(err, errlen, "unknown event '%s': no PMU %s (" EXPECTED ")",
				      spec, dir);
		return resolve_in(spec, dir, ename, out, err, errlen);
	}
	DIR *d = opendir(root);
	if (!d)
		return errmsg(err, errlen, "unknown event '%s': cannot list the PMUs in %s: %s "
			      "(expected raw:0xHEX instead)", spec, root, strerror(errno));
	char all[512] = "", core[256] = "";
	int nall = 0, ncore = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s/events/%s", root, de->d_name, ename);
		if (access(path, R_OK) < 0)
			continue;
		size_t k = strlen(all);
		snprintf(all + k, sizeof all - k, "%s%s", nall++ ? ", " : "", de->d_name);
		if (core_pmu(de->d_name) && ncore++ == 0)
			snprintf(core, sizeof core, "%s", de->d_name);
	}
	closedir(d);
	if (!nall)
		return errmsg(err, errlen, "unknown event '%s': no PMU in %s lists it (" EXPECTED
			      ")", spec, root);
	if (nall > 1 && ncore != 1)
		return errmsg(err, errlen, "ambiguous event '%s': PMUs %s all list it (expected "
			      "PMU/%s)", spec, all, ename);
	snprintf(dir, sizeof dir, "%s/%s", root, nall > 1 ? core : all);
	return resolve_in(spec, dir, ename, out, err, errlen);
}

int counter_events_add(struct counter_events *ev, const char *spec, const char *root,
		       char *err, size_t errlen)
{
	if (ev->n >= CTR_EXTRA_MAX)
		return errmsg(err, errlen, "too many events at '%s' (expected at most %d)", spec,
			      CTR_EXTRA_MAX);
	for (unsigned i = 0; i < ev->n; i++)
		if (!strcmp(ev->e[i].name, spec))
			return errmsg(err, errlen, "event '%s' given twice (expected each once)",
				      spec);
	if (counter_event_parse(spec, root, &ev->e[ev->n], err, errlen) < 0)
		return -1;
	ev->n++;
	return 0;
}

void counter_events_json(struct json *j, const struct counter_events *ev,
			 const char *const *why)
{
	json_begin_array(j);
	for (unsigned k = 0; k < ev->n; k++) {
		const struct counter_event *e = &ev->e[k];
		const char *w = why ? why[CTR_COUNT + k] : NULL;
		char hex[3][24];
		snprintf(hex[0], sizeof hex[0], "0x%llx", (unsigned long long)e->config);
		snprintf(hex[1], sizeof hex[1], "0x%llx", (unsigned long long)e->config1);
		snprintf(hex[2], sizeof hex[2], "0x%llx", (unsigned long long)e->config2);
		json_begin_object(j);
		json_key(j, "event"); json_string(j, e->name);
		json_key(j, "type"); json_uint(j, e->type);
		json_key(j, "config"); json_string(j, hex[0]);
		json_key(j, "config1"); json_string(j, hex[1]);
		json_key(j, "config2"); json_string(j, hex[2]);
		json_key(j, "status"); json_string(j, !w ? "unknown" : w[0] ? w : "ok");
		json_end_object(j);
	}
	json_end_array(j);
}
