/* search_state.c - a search kept in a file, so that a long one can stop
 * and go on later (`schedfuzz run --state FILE`).
 *
 * The file is the search's whole state in this machine's layout: a header
 * naming the format and the spec, the counters, the path of decisions,
 * the ICB work lists and the learned HaPSet pairs. It is written to a
 * temporary name and renamed, so a crash never leaves half of one. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

#define MAGIC "schedfuzz-search-state 1\n"

struct counters {
	uint32_t node_size, depth, fixed;
	int32_t round, bound_done, cut_round;
	uint8_t started, finished, exhausted, diverged;
	uint64_t schedules, redundant, queue_limit, npairs;
};

static bool put(FILE *f, const void *p, size_t n)
{
	return n == 0 || fwrite(p, 1, n, f) == n;
}

static bool get(FILE *f, void *p, size_t n)
{
	return n == 0 || fread(p, 1, n, f) == n;
}

static bool put_queue(FILE *f, const struct sx_queue *q)
{
	uint64_t h[3] = { q->ndec, q->nitems, q->head };
	return put(f, h, sizeof h) && put(f, q->dec, q->ndec * sizeof *q->dec) &&
	       put(f, q->start, (q->nitems ? q->nitems + 1 : 0) * sizeof *q->start);
}

static bool get_queue(FILE *f, struct sx_queue *q)
{
	uint64_t h[3];
	if (!get(f, h, sizeof h) || h[2] > h[1] || h[0] > (1ull << 40) || h[1] > (1ull << 40))
		return false;
	q->ndec = q->cap_dec = h[0];
	q->nitems = h[1];
	q->cap_items = h[1] + 1;
	q->head = h[2];
	q->dec = malloc((q->ndec + 1) * sizeof *q->dec);
	q->start = malloc((q->nitems + 1) * sizeof *q->start);
	return q->dec && q->start && get(f, q->dec, q->ndec * sizeof *q->dec) &&
	       get(f, q->start, (q->nitems ? q->nitems + 1 : 0) * sizeof *q->start);
}

/* The learned pairs, one after another: the set's slots, 0 last if held. */
static bool put_pairs(FILE *f, const struct sx_hashset *h)
{
	for (uint64_t i = 0; i < h->cap; i++)
		if (h->slot[i] && !put(f, &h->slot[i], sizeof h->slot[i]))
			return false;
	uint64_t zero = 0;
	return !h->has_zero || put(f, &zero, sizeof zero);
}

bool sx_save(const struct sx_search *s, const char *path, char *err, size_t cap)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		snprintf(err, cap, "cannot write %s: %s", tmp, strerror(errno));
		return false;
	}
	char spec[64];
	sx_spec_format(&s->spec, spec, sizeof spec);
	struct counters c = {
		.node_size = sizeof(struct sx_node),
		.depth = s->depth,
		.fixed = s->fixed,
		.round = s->round,
		.bound_done = s->bound_done,
		.cut_round = s->cut_round,
		.started = s->started,
		.finished = s->finished,
		.exhausted = s->exhausted,
		.diverged = s->diverged,
		.schedules = s->schedules,
		.redundant = s->redundant,
		.queue_limit = s->queue_limit,
		.npairs = s->pairs.count + s->pairs.has_zero,
	};
	bool ok = fprintf(f, "%s%s\n", MAGIC, spec) > 0 && put(f, &c, sizeof c) &&
		  put(f, s->node, s->depth * sizeof *s->node) && put_queue(f, &s->now) &&
		  put_queue(f, &s->next) && put_pairs(f, &s->pairs);
	if (fclose(f) != 0)
		ok = false;
	if (ok && rename(tmp, path) != 0)
		ok = false;
	if (!ok) {
		snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
		remove(tmp);
	}
	return ok;
}

struct sx_search *sx_load(const char *path, const struct sx_spec *spec, char *err, size_t cap)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, cap, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	char line[128], want[64];
	sx_spec_format(spec, want, sizeof want);
	struct sx_search *s = NULL;
	struct counters c;
	if (!fgets(line, sizeof line, f) || strcmp(line, MAGIC) != 0) {
		snprintf(err, cap, "%s is not a schedfuzz search state", path);
		goto fail;
	}
	if (!fgets(line, sizeof line, f) || (line[strcspn(line, "\n")] = 0, strcmp(line, want))) {
		snprintf(err, cap, "%s holds a search of strategy %s, not %s", path, line, want);
		goto fail;
	}
	if (!get(f, &c, sizeof c) || c.node_size != sizeof(struct sx_node)) {
		snprintf(err, cap, "%s is damaged or from another build", path);
		goto fail;
	}
	s = sx_create(spec);
	if (!s)
		goto damaged;
	s->depth = s->cap = c.depth;
	s->fixed = c.fixed;
	s->round = c.round;
	s->bound_done = c.bound_done;
	s->cut_round = c.cut_round;
	s->started = c.started;
	s->finished = c.finished;
	s->exhausted = c.exhausted;
	s->diverged = c.diverged;
	s->schedules = c.schedules;
	s->redundant = c.redundant;
	s->queue_limit = c.queue_limit;
	s->node = malloc((c.depth + 1) * sizeof *s->node);
	uint64_t *pairs = malloc((c.npairs + 1) * sizeof *pairs);
	bool ok = s->node && pairs && c.fixed <= c.depth &&
		  get(f, s->node, c.depth * sizeof *s->node) && get_queue(f, &s->now) &&
		  get_queue(f, &s->next) && get(f, pairs, c.npairs * sizeof *pairs);
	if (ok)
		sx_learn(s, pairs, (uint32_t)c.npairs);
	free(pairs);
	if (ok && fgetc(f) == EOF) {
		fclose(f);
		return s;
	}
damaged:
	snprintf(err, cap, "%s is damaged (cut short or too long)", path);
fail:
	sx_destroy(s);
	fclose(f);
	return NULL;
}
