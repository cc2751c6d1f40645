/* rt_anchor.c - decisions anchored to source lines: how a portable
 * reproducer (fuzz/portable.c) replays on a build other than the one that
 * found it.
 *
 * A decision's global number moves when a build has more or fewer
 * scheduling points (other optimisation, the ASan mode's callbacks, other
 * instrumentation). Where a thread stands in its own source does not. So
 * a portable decision names: the deciding thread (by creation order), the
 * source line of its next operation, which visit of that line by that
 * thread it is (consecutive events of the thread on one line are one
 * visit, so a line compiled into more or fewer accesses is still one
 * visit), the operation's kind and its number among the operations of
 * that kind in the visit. A pick is anchored to the operation the thread
 * is about to perform; a choice (which waiter a signal wakes, a spurious
 * wakeup), the pick of a thread that just ended and one before an
 * operation of no site (the process's exit points, which have no place
 * in the source and are left out of the counts), to its last one. Every
 * other decision is the default (run the current thread on; when it
 * cannot, the lowest runnable), as in an explicit schedule.
 *
 *   SCHEDFUZZ_ANCHORS=FILE  the decisions, with the source lines already
 *                           translated to this binary's code by the parent
 *                           (`schedfuzz replay`), which reads its line table:
 *
 *   schedfuzz-anchors 1
 *   range LINE LO HI                 code offsets [LO, HI) of anchored line LINE
 *   at pick|choice before|after TID LINE VISIT KIND NTH VALUE
 *        KIND an event name (spaces as '_'); VALUE a thread (pick) or an option
 *
 * The parent computes the same keys from a trace (its `decision` records)
 * with the same rules: fuzz/portable.c mirrors track() and key(). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_anchor.h"
#include "rt_internal.h"
#include "rt_observer.h"

#define MAX_LINES 256     /* distinct anchored lines */
#define MAX_ANCHORS 4096
#define MAX_TIDS 1024     /* threads (by creation number) that anchors follow */
#define NKINDS (EV_COUNT + 1) /* EV_COUNT: resuming a wait recorded before it */

struct range {
	uintptr_t lo, hi;
	int line;
};

struct anchor {
	bool choice, after, used;
	uint8_t kind;
	uint32_t tid, line, visit, nth, value;
};

/* Where a thread stands: the line of its last event (-1: a line no anchor
 * names), its visits of each anchored line, and how many events of each
 * kind the current visit had. */
struct track {
	int line;
	uint8_t last;
	uint32_t visits[MAX_LINES];
	uint16_t count[NKINDS];
};

bool rt_anchors_on;
static struct range *ranges;
static size_t nranges;
static struct anchor *anchors;
static size_t nanchors;
static struct track *tracks; /* MAX_TIDS */

static int by_lo(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int kind_of(const char *word)
{
	for (int k = 0; k < EV_COUNT; k++) {
		const char *n = rt_ev_names[k];
		size_t i = 0;
		for (; n[i] && word[i] && (word[i] == n[i] || (word[i] == '_' && n[i] == ' ')); i++)
			;
		if (!n[i] && !word[i])
			return k;
	}
	return !strcmp(word, "resume") ? EV_COUNT : -1;
}

static void bad(const char *path, unsigned lineno)
{
	fprintf(stderr, "schedfuzz: %s: line %u is not an anchor record\n", path, lineno);
	_exit(RT_EXIT_SETUP);
}

void rt_anchors_load(void)
{
	const char *path = rt_env_str("SCHEDFUZZ_ANCHORS");
	if (!path)
		return;
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot read %s\n", path);
		_exit(RT_EXIT_SETUP);
	}
	ranges = calloc(MAX_ANCHORS * 4, sizeof *ranges);
	anchors = calloc(MAX_ANCHORS, sizeof *anchors);
	tracks = calloc(MAX_TIDS, sizeof *tracks);
	if (!ranges || !anchors || !tracks) {
		fprintf(stderr, "schedfuzz: out of memory reading %s\n", path);
		_exit(RT_EXIT_SETUP);
	}
	char line[512], a[16], b[16], kind[32];
	unsigned lineno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		unsigned long lo, hi;
		unsigned id, tid, visit, nth, value;
		if (lineno == 1) {
			if (strcmp(line, "schedfuzz-anchors 1\n") != 0)
				bad(path, lineno);
		} else if (sscanf(line, "range %u %lx %lx", &id, &lo, &hi) == 3) {
			if (id >= MAX_LINES || nranges == MAX_ANCHORS * 4 || hi <= lo)
				bad(path, lineno);
			ranges[nranges++] = (struct range){ lo, hi, (int)id };
		} else if (sscanf(line, "at %15s %15s %u %u %u %31s %u %u", a, b, &tid, &id, &visit,
				  kind, &nth, &value) == 8) {
			int k = kind_of(kind);
			if (id >= MAX_LINES || nanchors == MAX_ANCHORS || k < 0 || tid >= MAX_TIDS)
				bad(path, lineno);
			anchors[nanchors++] = (struct anchor){ .choice = !strcmp(a, "choice"),
							       .after = !strcmp(b, "after"),
							       .kind = (uint8_t)k,
							       .tid = tid,
							       .line = id,
							       .visit = visit,
							       .nth = nth,
							       .value = value };
		} else {
			bad(path, lineno);
		}
	}
	fclose(f);
	qsort(ranges, nranges, sizeof *ranges, by_lo);
	rt_anchors_on = true;
}

static void anchors_begin(void)
{
	if (!rt_anchors_on)
		return;
	for (size_t i = 0; i < nanchors; i++)
		anchors[i].used = false;
	rt_memset(tracks, 0, MAX_TIDS * sizeof *tracks);
	for (int i = 0; i < MAX_TIDS; i++)
		tracks[i].line = -1;
}

/* The anchored line a site (a return address) lies in, or -1. */
static int line_of(const void *site)
{
	uintptr_t pc = rt_stable_site(site);
	if (!pc)
		return -1;
	pc--; /* the byte before a return address lies in the call */
	size_t lo = 0, hi = nranges;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ranges[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* A line table's rows are disjoint, and so are the ranges made of them. */
	return lo > 0 && pc < ranges[lo - 1].hi ? ranges[lo - 1].line : -1;
}

static void anchors_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr,
			  struct rt_obj *obj, uint32_t size, const void *site, uint8_t flags)
{
	(void)addr, (void)obj, (void)size, (void)flags;
	if (self->tid >= MAX_TIDS || !site)
		return; /* no site (the process's exit points): no step in the source */
	struct track *t = &tracks[self->tid];
	int line = line_of(site);
	if (line != t->line) {
		t->line = line;
		rt_memset(t->count, 0, sizeof t->count);
		if (line >= 0)
			t->visits[line]++;
	}
	if (t->count[ev] < UINT16_MAX)
		t->count[ev]++;
	t->last = (uint8_t)ev;
}

int rt_anchors_want(const struct rt_thread *self, bool choice)
{
	if (!self || self->tid >= MAX_TIDS)
		return -1;
	const struct track *t = &tracks[self->tid];
	/* after its last event: a choice, a thread that just ended, and an
	 * operation of no site (the process's last point, rt_exit.c) */
	bool after = choice || self->pend_ev == EV_THREAD_EXIT || !self->pend_site;
	int line, kind;
	uint32_t visit, nth;
	if (after) {
		line = t->line;
		kind = t->last;
		visit = line >= 0 ? t->visits[line] : 0;
		nth = t->count[kind];
	} else {
		line = line_of(self->pend_site);
		kind = self->pend_ev < NKINDS ? self->pend_ev : EV_COUNT;
		bool same = line == t->line;
		visit = line < 0 ? 0 : t->visits[line] + !same;
		nth = (same ? t->count[kind] : 0) + 1u;
	}
	if (line < 0)
		return -1;
	for (size_t i = 0; i < nanchors; i++) {
		struct anchor *a = &anchors[i];
		if (!a->used && a->tid == (uint32_t)self->tid && a->choice == choice &&
		    a->after == after && a->line == (uint32_t)line && a->visit == visit &&
		    a->kind == kind && a->nth == nth) {
			a->used = true;
			return (int)a->value;
		}
	}
	return -1;
}

static bool anchors_on(void)
{
	return rt_anchors_on;
}

const struct rt_observer rt_anchors_observer = {
	.name = "anchors",
	.on = anchors_on,
	.begin = anchors_begin,
	.event = anchors_event,
};
