/* trace_lanes.c - the interleaving as thread lanes on a terminal: one
 * column a thread, one row an event, so that who ran when reads down the
 * page and a preemption is a jump to another column. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "trace.h"

/* Lanes are never narrower than this, nor wider than the longest text needs. */
#define LANE_MIN 16
/* Room kept for the step column and the site at the end of a row. */
#define ROW_ROOM (12 + 32)

/* Cell text cut to width - 1 columns, padded to width. */
static void cell(FILE *f, const char *text, int width)
{
	int n = (int)strlen(text);
	if (n > width - 1)
		n = width - 1;
	fprintf(f, " %-*.*s|", width, n, text);
}

static void row(FILE *f, const struct trace *t, int tid, const char *mark, const char *step,
		const char *text, const char *site, int width)
{
	fprintf(f, "%2s %7s |", mark, step);
	for (int i = 0; i < t->nthreads; i++)
		cell(f, i == tid ? text : "", width);
	fprintf(f, " %s\n", site);
}

/* The terminal's width in columns for f, or 0 when f is no terminal (a file
 * or a pipe: nothing to fit, so nothing is cut). COLUMNS, as shells set it,
 * wins over the terminal's own size. */
static int terminal_columns(FILE *f)
{
	if (!isatty(fileno(f)))
		return 0;
	const char *env = getenv("COLUMNS");
	if (env && atoi(env) > 0)
		return atoi(env);
	struct winsize ws;
	return ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

/* The width of a lane: what the longest cell needs (a cell's text is never
 * cut unless the terminal is too narrow for every lane at that width). */
static int lane_width(FILE *f, const struct trace *t, struct names *nm, size_t first, int asked)
{
	if (asked > 0)
		return asked < 4 ? 4 : asked;
	int need = LANE_MIN;
	char d[480];
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_rec *r = &t->rec[i];
		if (r->type == TR_STATE || k++ < first)
			continue;
		trace_describe(r, nm, d, sizeof d);
		int len = (int)strlen(d) + 3; /* a mark ("* ", "~ ") and the pad */
		if (len > need)
			need = len;
	}
	for (int tid = 0; t->failed && tid < t->nthreads; tid++) {
		const struct trace_rec *st = trace_end_state(t, tid);
		if (st) {
			trace_describe(st, nm, d, sizeof d);
			if ((int)strlen(d) + 1 > need)
				need = (int)strlen(d) + 1;
		}
	}
	int cols = terminal_columns(f);
	if (cols > 0 && t->nthreads > 0) {
		int fit = (cols - ROW_ROOM) / t->nthreads - 2;
		if (fit < need)
			need = fit < LANE_MIN ? LANE_MIN : fit;
	}
	return need;
}

void trace_print_lanes(FILE *f, const struct trace *t, struct names *nm, size_t last, int width)
{
	size_t nev = 0;
	for (size_t i = 0; i < t->n; i++)
		nev += t->rec[i].type != TR_STATE;
	size_t first = last && nev > last ? nev - last : 0;
	width = lane_width(f, t, nm, first, width);

	fprintf(f, "==schedfuzz== interleaving in thread lanes: ");
	/* A long execution's trace keeps only its last events: say how many
	 * there were in all, not how many the trace kept. */
	size_t all = nev + (size_t)t->dropped;
	if (first || t->dropped)
		fprintf(f, "the last %zu of %zu events", nev - first, all);
	else
		fprintf(f, "all %zu events", nev);
	fprintf(f, " (> preemption, ~ the thread must wait, * it waited first, ! timed out,\n"
		   "   ? returned without a signal: a spurious wakeup, which POSIX allows)\n");
	fprintf(f, "%2s %7s |", "", "step");
	for (int i = 0; i < t->nthreads; i++) {
		char h[16];
		snprintf(h, sizeof h, "T%d", i);
		cell(f, h, width);
	}
	fprintf(f, " site\n");

	char text[512], site[512], step[32];
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_rec *r = &t->rec[i];
		if (r->type == TR_STATE || k++ < first)
			continue;
		char d[480];
		trace_describe(r, nm, d, sizeof d);
		names_site(nm, r->site, site, sizeof site);
		if (r->type == TR_BLOCK) {
			snprintf(text, sizeof text, "~ %s", d);
			row(f, t, r->tid, "", "", text, site, width);
			continue;
		}
		snprintf(text, sizeof text, "%s%s%s%s", r->waited ? "* " : "", r->timed_out ? "! " : "",
			 r->spurious ? "? " : "", d);
		snprintf(step, sizeof step, "%llu", (unsigned long long)r->step);
		row(f, t, r->tid, r->preempt ? ">" : "", step, text, site, width);
	}
	if (t->failed) {
		/* The end state: each thread's column says where it stopped. */
		fprintf(f, "%2s %7s |", "", "end");
		for (int tid = 0; tid < t->nthreads; tid++) {
			const struct trace_rec *st = trace_end_state(t, tid);
			char d[480] = "finished";
			if (st)
				trace_describe(st, nm, d, sizeof d);
			cell(f, d, width);
		}
		fprintf(f, "\n==schedfuzz== %s: %s", t->fail_kind, t->fail_msg);
		if (t->fail_site)
			fprintf(f, " at %s", names_where(nm, t->fail_site));
		fprintf(f, "\n");
	}
	fprintf(f, "==schedfuzz== %llu steps, %llu preemption%s, %llu decisions; schedule: %s\n",
		(unsigned long long)t->steps, (unsigned long long)t->preemptions,
		t->preemptions == 1 ? "" : "s", (unsigned long long)t->decisions, t->plan);
}
