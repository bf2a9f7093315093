/*
 * report_fmt.c - the report's shared wording (report_fmt.h).
 */
#include "output.h"
#include "report_fmt.h"

#include <math.h>
#include <stdio.h>

void report_fmt_x(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 10)
		snprintf(buf, len, "%.0f\xc3\x97", v);
	else
		snprintf(buf, len, "%.2f\xc3\x97", v);
}

void report_fmt_ns(double v, char *buf, size_t len)
{
	char b[32];
	fmt_num(b, sizeof b, v);
	snprintf(buf, len, "%s", b);
}

void report_fmt_ci(const struct stats_interval *s, char *buf, size_t len)
{
	if (!isfinite(s->lo) || !isfinite(s->hi))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f\xe2\x80\x93%.3f", s->lo, s->hi);
}

/* "12.3% faster" / "4.0% slower" for a time ratio. */
void report_fmt_change(double ratio, char *buf, size_t len)
{
	if (!isfinite(ratio))
		snprintf(buf, len, "-");
	else if (ratio < 1)
		snprintf(buf, len, "%.1f%% faster", 100 * (1 / ratio - 1));
	else
		snprintf(buf, len, "%.1f%% slower", 100 * (ratio - 1));
}

/* The interval against 1: a claim only when it excludes no difference. */
enum report_verdict report_verdict_of(const struct stats_interval *s)
{
	if (!isfinite(s->lo) || !isfinite(s->hi))
		return RV_NONE;
	if (s->hi < 1)
		return RV_FASTER;
	if (s->lo > 1)
		return RV_SLOWER;
	return RV_SAME;
}

const char *report_verdict_text(enum report_verdict v)
{
	switch (v) {
	case RV_FASTER: return "ucopy faster";
	case RV_SLOWER: return "ucopy slower";
	case RV_SAME: return "no significant difference";
	default: return "not measured";
	}
}

const char *report_verdict_class(enum report_verdict v)
{
	return v == RV_FASTER ? "good" : v == RV_SLOWER ? "bad" : NULL;
}

void report_fmt_distances(const struct report_probes *p, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t j = 0; j < p->nd && at < len; j++) {
		const char *sep = j == 0 ? "" : j + 1 == p->nd ? " or " : ", ";
		int n = snprintf(buf + at, len - at, "%s%u", sep, p->d[j]);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

void report_describe_cell(const struct report_cliff *c, size_t cell, char *buf,
			  size_t len)
{
	size_t ncol = report_cliff_ncol(c), a = cell / ncol, col = cell % ncol;
	if (col < c->nda)
		snprintf(buf, len, "with the source at +%u and the destination at +%u "
			 "within a cache line (half a page apart)", c->sa[a], c->da[col]);
	else
		snprintf(buf, len, "when dst \xe2\x88\x92 src is %u (mod 4096), source at +%u",
			 c->d[col - c->nda], c->sa[a]);
}
