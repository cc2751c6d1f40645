/* cov.c - the tracker: splits events into objects and granules, runs
 * HaPSet, MAP and reads-from on them, and emits each feature once per execution.
 *
 * Once: coverage is a set (docs/design/algorithms.md, HaPSet and MAP: a
 * run covers a pair or an instance, or not), so the fuzzer must not see
 * "the same pair, more often" as something new. Cost per event: at most
 * COV_GRANULES granules, each a table probe, COV_LAST predecessors, and the
 * pattern windows. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cov_hash.h"
#include "cov_internal.h"

#define COV_GRANULES 4 /* granules of one access that are tracked: 32 bytes */

static void *pages(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int seen_grow(struct cov_seen *set)
{
	uint32_t cap = set->cap ? set->cap * 2 : 1024;
	struct cov_seen_slot *t = pages((size_t)cap * sizeof *t);
	if (!t)
		return -1;
	for (uint32_t i = 0; i < set->cap; i++) {
		if (set->t[i].gen != set->gen)
			continue;
		uint32_t j = (uint32_t)set->t[i].hash & (cap - 1);
		while (t[j].gen == set->gen)
			j = (j + 1) & (cap - 1);
		t[j] = set->t[i];
	}
	if (set->t)
		munmap(set->t, (size_t)set->cap * sizeof *set->t);
	set->t = t;
	set->cap = cap;
	return 0;
}

/* Add an occurrence of hash; how many it has now, 1 if it was not in the
 * set (or the set is out of memory: then a feature may be emitted twice,
 * never lost). */
static uint32_t seen_count(struct cov_seen *set, uint64_t hash)
{
	if ((set->used + 1) * 2 > set->cap && seen_grow(set) != 0)
		return 1;
	uint32_t j = (uint32_t)hash & (set->cap - 1);
	while (set->t[j].gen == set->gen) {
		if (set->t[j].hash == hash)
			return set->t[j].count < UINT32_MAX ? ++set->t[j].count : UINT32_MAX;
		j = (j + 1) & (set->cap - 1);
	}
	set->t[j].hash = hash;
	set->t[j].gen = set->gen;
	set->t[j].count = 1;
	set->used++;
	return 1;
}

static void seen_reset(struct cov_seen *set)
{
	set->used = 0;
	if (++set->gen == 0) {
		if (set->t)
			memset(set->t, 0, (size_t)set->cap * sizeof *set->t);
		set->gen = 1;
	}
}

/* Add hash; true if it was not in the set. seen_count without the count:
 * MAP emits dozens of repeats per access, each a probe here. */
static bool seen_add(struct cov_seen *set, uint64_t hash)
{
	if ((set->used + 1) * 2 > set->cap && seen_grow(set) != 0)
		return true;
	uint32_t j = (uint32_t)hash & (set->cap - 1);
	while (set->t[j].gen == set->gen) {
		if (set->t[j].hash == hash)
			return false;
		j = (j + 1) & (set->cap - 1);
	}
	set->t[j].hash = hash;
	set->t[j].gen = set->gen;
	set->t[j].count = 1;
	set->used++;
	return true;
}

void cov_emit(struct cov_state *s, struct cov_feature *f)
{
	if (seen_add(&s->seen, f->hash))
		s->emit(s->arg, f);
}

bool cov_first(struct cov_state *s, uint64_t hash)
{
	return seen_add(&s->seen, hash);
}

void cov_emit_counted(struct cov_state *s, struct cov_feature *f)
{
	uint32_t n = seen_count(&s->seen, f->hash);
	if (n > 4 && n != 8 && n != 16 && n != 32 && n != 128)
		return; /* inside a bucket */
	f->count = (uint8_t)n;
	if (n > 1) /* another feature: the base one, this many times */
		f->hash = cov_hash64(&(uint64_t[2]){ f->hash, n }, 16, 0x436f756e74ull /* "Count" */);
	s->emit(s->arg, f);
}

uint8_t cov_occurrence(struct cov_state *s, const struct cov_event *ev)
{
	/* A key, not a feature: any injective mix will do, never 0 twice. */
	uint64_t key = ((uint64_t)ev->tid << 32 | ev->site) * 0x9e3779b97f4a7c15ull;
	uint32_t n = seen_count(&s->occ, key);
	return (uint8_t)(n < COV_OCC_MAX ? n : COV_OCC_MAX);
}

/* ---- the tracker ------------------------------------------------------------ */

struct cov_state *cov_create(void)
{
	struct cov_state *s = pages(sizeof *s);
	if (s) {
		seen_reset(&s->seen);
		seen_reset(&s->occ);
		seen_reset(&s->site_cells);
	}
	cov_map_init();
	return s;
}

void cov_destroy(struct cov_state *s)
{
	if (!s)
		return;
	cov_shadow_free(&s->shadow);
	if (s->seen.t)
		munmap(s->seen.t, (size_t)s->seen.cap * sizeof *s->seen.t);
	if (s->occ.t)
		munmap(s->occ.t, (size_t)s->occ.cap * sizeof *s->occ.t);
	if (s->site_cells.t)
		munmap(s->site_cells.t, (size_t)s->site_cells.cap * sizeof *s->site_cells.t);
	munmap(s, sizeof *s);
}

void cov_begin(struct cov_state *s, unsigned what, cov_emit_fn *emit, void *arg)
{
	s->what = emit ? what & COV_ALL : 0;
	s->emit = emit;
	s->arg = arg;
	cov_shadow_reset(&s->shadow);
	seen_reset(&s->seen);
	seen_reset(&s->occ);
	seen_reset(&s->site_cells);
	s->memory_cells = 0;
	s->window.next = s->window.count = s->window.total = 0;
}

/* The cell of granule g, touched at site: a new one only within the
 * budgets (COV_MAX_CELLS, COV_SITE_CELLS); NULL for an untracked granule,
 * whose events add nothing. */
static struct cov_cell *memory_cell(struct cov_state *s, uintptr_t g, uint32_t site)
{
	struct cov_cell *c = cov_shadow_find(&s->shadow, g);
	if (c)
		return c;
	if (s->memory_cells >= COV_MAX_CELLS ||
	    seen_count(&s->site_cells, site * 0x9e3779b97f4a7c15ull) > COV_SITE_CELLS)
		return NULL;
	c = cov_shadow_get(&s->shadow, g, site);
	s->memory_cells += c != NULL;
	return c;
}

void cov_event(struct cov_state *s, const struct cov_event *ev)
{
	if (!s->what || ev->op >= COV_OP_COUNT)
		return;
	if (!cov_op_is_memory(ev->op)) {
		struct cov_cell *c;
		if ((s->what & COV_HAPSET) && (c = cov_shadow_get(&s->shadow, ev->obj | COV_KEY_SYNC, ev->site)))
			cov_hapset_event(s, c, ev, 0xff);
		return;
	}
	uint8_t occ = (s->what & COV_READS_FROM) ? cov_occurrence(s, ev) : 0;
	uintptr_t lo = ev->obj, hi = lo + (ev->size ? ev->size : 1);
	uintptr_t g = cov_granule(lo);
	for (int n = 0; g < hi && n < COV_GRANULES; g += 8, n++) {
		uintptr_t a = lo > g ? lo : g, b = hi < g + 8 ? hi : g + 8;
		uint8_t mask = (uint8_t)(((1u << (b - a)) - 1) << (a - g));
		struct cov_cell *c = memory_cell(s, g, ev->site);
		if (!c)
			continue;
		if (s->what & COV_HAPSET)
			cov_hapset_event(s, c, ev, mask);
		if (s->what & COV_MAP)
			cov_map_access(s, c, ev, g, mask);
		if (s->what & COV_READS_FROM)
			cov_reads_from_access(s, c, ev, mask, occ);
	}
}

uint32_t cov_first_site(struct cov_state *s, uintptr_t addr)
{
	const struct cov_cell *c = cov_shadow_find(&s->shadow, cov_granule(addr));
	return c ? c->first_site : 0;
}
