/* search.c - the systematic search's tree: which schedule runs next, and
 * what an execution adds to the tree (search.h).
 *
 * The tree is kept as one path, the stack of the last execution's
 * decisions. Each node remembers the options it had, the ones already
 * taken (done) and the ones still to take (todo). The next schedule is
 * the path up to the deepest node with an option left, that option taken
 * there, and the default after it; its execution extends the path again.
 *
 * What goes into todo is the strategy:
 *   dfs   every option;
 *   icb   (CHESS) the options that cost no preemption. A preempting option
 *         goes to the next bound's work list as the path up to it, so bound
 *         c runs exactly the schedules with c preemptions, each once;
 *   dpor  the option taken, plus what dpor.c finds races call for.
 * Choices that are not picks (which waiter wakes, a spurious wakeup) are
 * explored in full by all of them. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cov.h"
#include "search_internal.h"

static const char *const mode_names[] = {
	[SX_DFS] = "dfs", [SX_ICB] = "icb", [SX_DPOR] = "dpor", [SX_DPOR_HAPSET] = "dpor+hapset"
};

bool sx_spec_is_search(const char *text)
{
	for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++) {
		size_t n = strlen(mode_names[i]);
		if (!strncmp(text, mode_names[i], n) && (text[n] == 0 || text[n] == ':'))
			return true;
	}
	return false;
}

bool sx_spec_parse(const char *text, struct sx_spec *out, char *err, size_t cap)
{
	*out = (struct sx_spec){ .mode = SX_DFS, .bound = -1 };
	for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
		if (!strcmp(text, mode_names[i])) {
			out->mode = (enum sx_mode)i;
			return true;
		}
	if (!strncmp(text, "icb:c=", 6)) {
		char *end;
		long c = strtol(text + 6, &end, 10);
		if (text[6] >= '0' && text[6] <= '9' && !*end && c <= 1000) {
			out->mode = SX_ICB;
			out->bound = (int)c;
			return true;
		}
		snprintf(err, cap, "icb:c=N takes a preemption bound from 0 to 1000");
		return false;
	}
	snprintf(err, cap, "expected dfs, icb, icb:c=N, dpor or dpor+hapset");
	return false;
}

int sx_spec_format(const struct sx_spec *spec, char *buf, size_t cap)
{
	if (spec->mode == SX_ICB && spec->bound >= 0)
		return snprintf(buf, cap, "icb:c=%d", spec->bound);
	return snprintf(buf, cap, "%s", mode_names[spec->mode]);
}

/* ---- hash sets and work lists ---------------------------------------------- */

static uint64_t mix(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return v;
}

bool sx_hashset_has(const struct sx_hashset *h, uint64_t v)
{
	if (v == 0)
		return h->has_zero;
	if (!h->cap)
		return false;
	for (uint64_t i = mix(v) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		if (h->slot[i] == v)
			return true;
		if (h->slot[i] == 0)
			return false;
	}
}

bool sx_hashset_add(struct sx_hashset *h, uint64_t v)
{
	if (v == 0) {
		bool was = h->has_zero;
		h->has_zero = true;
		return !was;
	}
	if ((h->count + 1) * 2 > h->cap) {
		uint64_t ncap = h->cap ? h->cap * 2 : 1024;
		uint64_t *ns = calloc(ncap, sizeof *ns);
		if (!ns)
			return false;
		for (uint64_t i = 0; i < h->cap; i++) {
			uint64_t x = h->slot[i];
			if (!x)
				continue;
			uint64_t j = mix(x) & (ncap - 1);
			while (ns[j])
				j = (j + 1) & (ncap - 1);
			ns[j] = x;
		}
		free(h->slot);
		h->slot = ns;
		h->cap = ncap;
	}
	uint64_t i = mix(v) & (h->cap - 1);
	for (; h->slot[i]; i = (i + 1) & (h->cap - 1))
		if (h->slot[i] == v)
			return false;
	h->slot[i] = v;
	h->count++;
	return true;
}

static bool grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	uint64_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static bool queue_push(struct sx_queue *q, const struct sf_decision *d, uint32_t n)
{
	if (!grow((void **)&q->dec, &q->cap_dec, q->ndec + n, sizeof *q->dec) ||
	    !grow((void **)&q->start, &q->cap_items, q->nitems + 2, sizeof *q->start))
		return false;
	if (q->nitems == 0)
		q->start[0] = 0;
	memcpy(q->dec + q->ndec, d, n * sizeof *d);
	q->ndec += n;
	q->start[++q->nitems] = q->ndec;
	return true;
}

void sx_queue_free(struct sx_queue *q)
{
	free(q->dec);
	free(q->start);
	memset(q, 0, sizeof *q);
}

/* ---- the search -------------------------------------------------------------- */

struct sx_search *sx_create(const struct sx_spec *spec)
{
	struct sx_search *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->spec = *spec;
	s->bound_done = -1;
	s->cut_round = INT_MAX;
	s->queue_limit = 1u << 20;
	return s;
}

void sx_destroy(struct sx_search *s)
{
	if (!s)
		return;
	free(s->node);
	sx_queue_free(&s->now);
	sx_queue_free(&s->next);
	free(s->pairs.slot);
	free(s->out);
	free(s);
}

void sx_set_queue_limit(struct sx_search *s, uint64_t limit)
{
	s->queue_limit = limit;
}

/* The decisions of the path's first n nodes that differ from the default,
 * into s->out. */
static bool path_decisions(struct sx_search *s, uint32_t n)
{
	s->nout = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (s->node[i].sel == s->node[i].dflt)
			continue;
		uint64_t cap = s->cap_out;
		if (!grow((void **)&s->out, &cap, s->nout + 1, sizeof *s->out))
			return false;
		s->cap_out = (uint32_t)cap;
		s->out[s->nout++] = (struct sf_decision){ i, s->node[i].sel };
	}
	return true;
}

/* The options still to take at node n. */
static struct sx_set left_at(const struct sx_node *n)
{
	return sx_set_minus(sx_set_and(n->todo, n->options), sx_set_or(n->done, n->sleep));
}

/* ICB: the next schedule from the current bound's work list. */
static bool take_queued(struct sx_search *s)
{
	struct sx_queue *q = &s->now;
	uint64_t a = q->start[q->head], b = q->start[q->head + 1];
	q->head++;
	uint64_t cap = s->cap_out;
	if (!grow((void **)&s->out, &cap, b - a, sizeof *s->out))
		return false;
	s->cap_out = (uint32_t)cap;
	memcpy(s->out, q->dec + a, (b - a) * sizeof *s->out);
	s->nout = (uint32_t)(b - a);
	/* The prefix ends with its preemption; nothing before it branches. */
	s->fixed = s->out[s->nout - 1].index + 1;
	s->depth = 0;
	return true;
}

/* Drop the exhausted end of the path and close the bounds that are done,
 * until there is something to run; false when nothing is left. Taking
 * nothing, it may run at any time (sx_more). */
static bool advance(struct sx_search *s)
{
	while (!s->finished) {
		while (s->depth > s->fixed) {
			struct sx_set left = left_at(&s->node[s->depth - 1]);
			if (!sx_set_empty(&left))
				return true;
			s->depth--;
		}
		if (s->spec.mode != SX_ICB) {
			s->finished = true;
			break;
		}
		if (s->now.head < s->now.nitems)
			return true;
		/* Bound `round` is explored: every schedule with that many
		 * preemptions has run, unless its work list was cut short. */
		if (s->round < s->cut_round)
			s->bound_done = s->round;
		if (s->next.nitems == 0) {
			s->exhausted = s->round < s->cut_round;
			s->finished = true;
		} else if (s->spec.bound >= 0 && s->round >= s->spec.bound) {
			s->finished = true;
		} else {
			sx_queue_free(&s->now);
			s->now = s->next;
			memset(&s->next, 0, sizeof s->next);
			s->round++;
		}
	}
	return false;
}

bool sx_more(struct sx_search *s)
{
	return !s->started || advance(s);
}

bool sx_next(struct sx_search *s, const struct sf_decision **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (!s->started) {
		s->started = true;
		s->nout = 0;
		s->fixed = 0;
		return true;
	}
	if (!advance(s))
		return false;
	bool ok;
	if (s->depth > s->fixed) {
		struct sx_node *top = &s->node[s->depth - 1];
		top->sel = (uint16_t)sx_set_first(left_at(top));
		sx_set_add(&top->done, top->sel);
		ok = path_decisions(s, s->depth);
	} else {
		ok = take_queued(s);
	}
	if (!ok)
		return false;
	*out = s->out;
	*n = s->nout;
	return true;
}

/* The options of log decision d, as a set. */
static struct sx_set options_of(const struct sx_log *log, const struct sx_decision *d)
{
	struct sx_set set = { { 0, 0 } };
	if (!d->pick) {
		for (unsigned v = 0; v < d->nopt && v < 128; v++)
			sx_set_add(&set, v);
		return set;
	}
	const struct sx_cand *c = sx_log_cand(log) + d->first_cand;
	for (unsigned i = 0; i < d->nopt; i++)
		sx_set_add(&set, c[i].tid);
	return set;
}

static bool preempts(const struct sx_node *n, unsigned option)
{
	return n->pick && n->current >= 0 && option != (unsigned)n->current;
}

/* The next bound's work list lost a schedule: that bound, and every one
 * after it, can no longer be complete. */
static void cut(struct sx_search *s)
{
	if (s->round + 1 < s->cut_round)
		s->cut_round = s->round + 1;
}

/* ICB: queue the path to node i with each of its preempting options taken. */
static void queue_preemptions(struct sx_search *s, uint32_t i)
{
	struct sx_node *n = &s->node[i];
	if (s->spec.bound >= 0 && n->preemptions + 1 > s->spec.bound)
		return;
	struct sx_set alt = n->options;
	while (!sx_set_empty(&alt)) {
		unsigned t = sx_set_first(alt);
		alt.w[t >> 6] &= ~(1ull << (t & 63));
		if (!preempts(n, t))
			continue;
		if (s->next.nitems >= s->queue_limit) {
			cut(s);
			return;
		}
		uint16_t was = n->sel;
		n->sel = (uint16_t)t;
		bool ok = path_decisions(s, i + 1) && queue_push(&s->next, s->out, s->nout);
		n->sel = was;
		if (!ok)
			cut(s);
	}
}

/* What a new node is to explore, by strategy. */
static void seed_todo(struct sx_search *s, uint32_t i)
{
	struct sx_node *n = &s->node[i];
	n->done = (struct sx_set){ { 0, 0 } };
	sx_set_add(&n->done, n->sel);
	n->todo = n->done;
	if (!n->pick) {
		n->todo = n->options;
		return;
	}
	switch (s->spec.mode) {
	case SX_DFS:
		n->todo = n->options;
		break;
	case SX_ICB:
		if (i < s->fixed)
			break;
		if (n->current < 0)
			n->todo = n->options;
		queue_preemptions(s, i);
		break;
	case SX_DPOR:
	case SX_DPOR_HAPSET:
		break;
	}
}

static bool same_node(const struct sx_node *n, const struct sx_log *log, const struct sx_decision *d)
{
	struct sx_set o = options_of(log, d);
	return n->pick == d->pick && n->sel == d->value && o.w[0] == n->options.w[0] &&
	       o.w[1] == n->options.w[1];
}

/* The default a list leaves decision d to. The search's lists are fair
 * (SF_FLAG_FAIR, explicit.c): their default keeps the current thread
 * running, as the logged plain default does, but where the current thread
 * cannot go on it follows who gave way last, which the log does not know.
 * Those decisions are named whatever was taken, so that a list repeats
 * its prefix, an execution's that followed no list included. */
static uint16_t default_of(const struct sx_decision *d)
{
	if (d->pick && (d->current < 0 || d->dflt != (uint16_t)d->current))
		return SX_NO_DEFAULT;
	return d->dflt;
}

enum sx_fed sx_feed(struct sx_search *s, const struct sx_log *log, bool good)
{
	s->schedules++;
	if (log->overflow)
		return SX_FED_OVERFLOW;
	const struct sx_decision *dec = sx_log_dec(log);
	enum sx_fed r = SX_FED_OK;
	/* The prefix must have come out as it did before. */
	uint32_t keep = s->depth < log->ndec ? s->depth : log->ndec;
	for (uint32_t i = 0; i < keep; i++)
		if (!same_node(&s->node[i], log, &dec[i])) {
			keep = i;
			break;
		}
	if (keep < s->depth) {
		s->diverged = true;
		r = SX_FED_DIVERGED;
		if (s->fixed > keep)
			s->fixed = keep;
	}
	uint64_t cap = s->cap;
	if (!grow((void **)&s->node, &cap, log->ndec ? log->ndec : 1, sizeof *s->node))
		return SX_FED_OVERFLOW;
	s->cap = (uint32_t)cap;
	for (uint32_t i = keep; i < log->ndec; i++) {
		struct sx_node *n = &s->node[i];
		const struct sx_decision *d = &dec[i];
		const struct sx_node *prev = i ? &s->node[i - 1] : NULL;
		*n = (struct sx_node){
			.options = options_of(log, d),
			.sel = d->value,
			.dflt = default_of(d),
			.current = d->pick ? d->current : -1,
			.pick = d->pick,
			.preemptions = prev ? (uint16_t)(prev->preemptions + preempts(prev, prev->sel)) : 0,
		};
		s->depth = i + 1;
		seed_todo(s, i);
	}
	s->depth = log->ndec;
	/* A good execution teaches first, then its races are weighed: a
	 * reversal it already showed the order of is no new scenario. */
	if (s->spec.mode == SX_DPOR_HAPSET && good) {
		const uint64_t *h = sx_log_hap(log);
		for (uint32_t i = 0; i < log->nhap; i++)
			sx_hashset_add(&s->pairs, h[i]);
	}
	if (s->spec.mode == SX_DPOR || s->spec.mode == SX_DPOR_HAPSET)
		sx_dpor_analyse(s, log);
	return r;
}

enum sx_fed sx_feed_first(struct sx_search *s, const struct sx_log *log, bool good)
{
	s->started = true;
	s->nout = 0;
	s->fixed = 0;
	return sx_feed(s, log, good);
}

void sx_learn(struct sx_search *s, const uint64_t *pairs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		sx_hashset_add(&s->pairs, pairs[i]);
}

void sx_status(const struct sx_search *s, struct sx_status *out)
{
	*out = (struct sx_status){
		.schedules = s->schedules,
		.redundant = s->redundant,
		.bound_done = s->bound_done,
		.exhausted = s->exhausted,
		.diverged = s->diverged,
		.truncated = s->cut_round != INT_MAX,
		.pairs = s->pairs.count + s->pairs.has_zero,
	};
	bool explored = s->finished && !s->diverged;
	bool bounded = s->spec.bound >= 0 && s->bound_done >= s->spec.bound;
	out->complete = explored && (s->spec.mode != SX_ICB || s->exhausted || bounded);
}

uint64_t sx_pair_hash(const struct sx_stmt *remote, const struct sx_stmt *local)
{
	return cov_hapset_pair_hash(remote->site, remote->ctx, remote->nctx, local->site, local->ctx,
				    local->nctx);
}
