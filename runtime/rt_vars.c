/* rt_vars.c - variables, as PCTVB counts them (docs/design/algorithms.md, PCTVB).
 *
 * While a plan counts variables, every memory event is mapped to its
 * variable: a tracked heap block's allocation site, else a global of the
 * main executable (its address; a field or element is a variable of its
 * own, as "a global (address)" reads). Memory that is neither (another
 * library's data, the heap of allocations made before the execution) is
 * not a variable and never counts. Ids are offsets in the executable, the
 * same in every process (genome.h, SF_VAR_*).
 *
 * Per variable we keep the accesses so far, the first thread to touch it,
 * and its rank among the variables that a second thread touched. A stream
 * of the plan names a variable by id, or by that rank (bound when the
 * variable becomes shared). Cost: one binary search over the live tracked
 * blocks and one open-addressing probe per access; the table is reset in
 * O(1) by a generation number and holds what this execution touched.
 *
 * Which accesses are seen. A change point is "the j-th access to x", every
 * access to x counted, private ones too (docs/design/algorithms.md, PCTVB): with only shared
 * accesses counted, a corner variable's bug that needs a switch between
 * two accesses of one thread is lost (docs/cost.md). So the variables the
 * plan names are kept shared in the ownership shadow (rt_vars_watch),
 * up to a bound on their accesses past their last change point (retire):
 * each access to them is a point and counts, while the rest of the
 * program's private memory stays off the slow path as under the other
 * strategies. Other memory is seen where its accesses are points anyway
 * (the ownership model: memory two threads touched, rt_own.h), and that
 * is where a stream that names a rank finds its variable: the m-th to be
 * seen touched by a second thread. From then on it is watched too; its
 * accesses before were counted where they were points. */
#include <stdlib.h>

#include "generate.h"
#include "rt_internal.h"
#include "rt_own.h"

extern void *__libc_calloc(size_t, size_t);
extern void __libc_free(void *);

struct var {
	uint32_t id;
	uint32_t gen;     /* live in this execution iff gen == vars.gen */
	uint32_t count;   /* accesses so far */
	uint16_t first;   /* first thread to access it */
	int16_t rank;     /* order of becoming shared, -1 until then */
	bool retired;     /* watched no longer (retire) */
};

static struct {
	uint32_t gen;
	struct var *t;
	uint32_t cap, used; /* slots; live entries this execution */
	int nshared;
	/* Per stream: the id of its variable, once known (a stream naming a
	 * rank learns it when that variable becomes shared). */
	bool known[SF_MAX_VARS];
	uint32_t bound[SF_MAX_VARS];
} vars;

static bool counting_vars(void)
{
	return rt.counting.what == SF_COUNT_VARS;
}

static uint32_t hash(uint32_t id)
{
	return (id * 0x9e3779b1u) ^ (id >> 15);
}

/* Where variable id's entry is, or the free slot where it would go (the
 * table is at most three quarters full). */
static uint32_t probe(uint32_t id)
{
	uint32_t j = hash(id) & (vars.cap - 1);
	while (vars.t[j].gen == vars.gen && vars.t[j].id != id)
		j = (j + 1) & (vars.cap - 1);
	return j;
}

/* Variable id's entry if this execution touched it, else NULL. */
static struct var *find(uint32_t id)
{
	if (vars.cap == 0)
		return NULL;
	struct var *v = &vars.t[probe(id)];
	return v->gen == vars.gen ? v : NULL;
}

/* A variable some stream counts. */
static bool counted(uint32_t id)
{
	for (int s = 0; s < rt.counting.nstreams; s++)
		if (vars.known[s] && vars.bound[s] == id)
			return true;
	return false;
}

/* Watched no longer in this execution (retire). */
static bool retired(uint32_t id)
{
	const struct var *v = find(id);
	return v && v->retired;
}

/* A change point on variable id is still to come. */
static bool pending(uint32_t id)
{
	for (int s = 0; s < rt.counting.nstreams; s++)
		if (vars.known[s] && vars.bound[s] == id && rt.counting.next[s] != 0)
			return true;
	return false;
}

/* Every access to variable id a point from now on. */
static void watch(uint32_t id)
{
	if (id & SF_VAR_HEAP)
		rt_heap_share_site(id & ~SF_VAR_HEAP);
	else /* a global is its address: the accesses that start there */
		rt_own_share_slow(rt.exe_bias + id, 1);
}

/* A variable accessed more than SF_VAR_MAX_ACCESSES times, with no change
 * point left on it, is watched no longer: its memory is forgotten
 * (rt_own_forget), as if freed, so that its next user owns it afresh and
 * a second thread's access is a point again. Plans name such a variable
 * only when no other was seen (generate.h), but one they named before
 * its count was known stayed watched to the end: xz's match finder made
 * 324 million points in one schedule (docs/cost.md). Below the bound a
 * variable stays watched, past its last change point too: the switch a
 * change point asks for comes at the thread's next point, often the
 * variable's next access (a lost update's write). */
static void retire(struct var *v)
{
	v->retired = true;
	if (v->id & SF_VAR_HEAP)
		rt_heap_forget_site(v->id & ~SF_VAR_HEAP);
	else
		rt_own_forget(rt.exe_bias + v->id, 1);
}

void rt_vars_watch(void)
{
	if (!counting_vars())
		return;
	for (int s = 0; s < rt.counting.nstreams; s++)
		if (vars.known[s] && !retired(vars.bound[s]))
			watch(vars.bound[s]);
}

void rt_vars_allocated(uintptr_t lo, uintptr_t hi, uint32_t site)
{
	if (counting_vars() && counted(SF_VAR_HEAP | site) && !retired(SF_VAR_HEAP | site))
		rt_own_share_slow(lo, hi - lo);
}

void rt_vars_begin(void)
{
	rt_heap_track(counting_vars() || rt.cfg.cov_dump || rt.cfg.trace_path);
	if (!counting_vars())
		return;
	if (++vars.gen == 0) { /* wrapped: really clear once in 2^32 */
		rt_memset(vars.t, 0, vars.cap * sizeof *vars.t);
		vars.gen = 1;
	}
	vars.used = 0;
	vars.nshared = 0;
	for (int s = 0; s < SF_MAX_VARS; s++) {
		vars.known[s] = rt.counting.var[s] >= SF_VAR_AUTO_LIMIT;
		vars.bound[s] = rt.counting.var[s];
	}
}

static bool grow(void)
{
	uint32_t cap = vars.cap ? vars.cap * 2 : 4096;
	struct var *t = __libc_calloc(cap, sizeof *t); /* not a block of the program */
	if (!t)
		return false;
	for (uint32_t i = 0; i < vars.cap; i++) {
		struct var *v = &vars.t[i];
		if (v->gen != vars.gen)
			continue;
		uint32_t j = hash(v->id) & (cap - 1);
		while (t[j].gen == vars.gen)
			j = (j + 1) & (cap - 1);
		t[j] = *v;
	}
	__libc_free(vars.t);
	vars.t = t;
	vars.cap = cap;
	return true;
}

/* The slot of variable id, created on first access; -1 if out of memory. */
static int slot_of(uint32_t id, int tid)
{
	if ((vars.used + 1) * 4 > vars.cap * 3 && !grow())
		return -1;
	uint32_t j = probe(id);
	if (vars.t[j].gen != vars.gen) {
		vars.t[j] = (struct var){ .id = id, .gen = vars.gen, .first = (uint16_t)tid,
					  .rank = -1 };
		vars.used++;
	}
	return (int)j;
}

static bool var_of(uintptr_t addr, uint32_t *id)
{
	uint32_t site;
	uintptr_t start;
	if (rt_heap_block(addr, &site, &start)) {
		*id = SF_VAR_HEAP | site;
		return true;
	}
	if (addr >= rt.exe_lo && addr < rt.exe_hi) {
		*id = (uint32_t)(addr - rt.exe_bias);
		return *id >= SF_VAR_AUTO_LIMIT; /* never mistaken for a rank */
	}
	return false;
}

void rt_vars_access(struct rt_thread *self, uintptr_t addr)
{
	uint32_t id;
	if (!var_of(addr, &id))
		return;
	int j = slot_of(id, self->tid);
	if (j < 0)
		return;
	struct var *v = &vars.t[j];
	v->count++;
	if (v->rank < 0 && v->first != self->tid) {
		v->rank = (int16_t)vars.nshared++;
		for (int s = 0; s < rt.counting.nstreams; s++)
			if (!vars.known[s] && vars.bound[s] == (uint32_t)v->rank) {
				vars.known[s] = true;
				vars.bound[s] = id;
				v->retired = false; /* a change point on it again */
				watch(id);
			}
	}
	/* A fire may switch threads, and theirs may grow the table: v is not
	 * read after one. */
	uint32_t count = v->count;
	for (int s = 0; s < rt.counting.nstreams; s++) {
		/* >=: a stream bound late skips the marks its variable passed. */
		if (vars.known[s] && vars.bound[s] == id && rt.counting.next[s] &&
		    count >= rt.counting.next[s])
			rt_fire(s, count, self);
	}
	if (RT_UNLIKELY(count > SF_VAR_MAX_ACCESSES) && counted(id) && !pending(id)) {
		struct var *w = find(id);
		if (w && !w->retired)
			retire(w);
	}
}

void rt_vars_profile(struct sf_estimates *out)
{
	out->nvars = 0;
	if (!counting_vars())
		return;
	/* Shared variables first, then the others, as long as room lasts. */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < vars.cap && out->nvars < SF_EST_VARS; i++) {
			const struct var *v = &vars.t[i];
			if (v->gen != vars.gen || (v->rank >= 0) != (pass == 0))
				continue;
			out->vars[out->nvars++] = (struct sf_var_estimate){ v->id, v->count, v->rank >= 0 };
		}
	}
}
