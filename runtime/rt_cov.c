/* rt_cov.c - the runtime's side of interleaving coverage: events in, as
 * coverage/ sees them; features out, to the fuzzers' maps and, for
 * `schedfuzz cov`, to a dump file.
 *
 *   SCHEDFUZZ_COVERAGE=hapset|map|rf|both|all|none  which features: HaPSet,
 *                               MAP, reads-from, the first two, all three,
 *                               none. Unset: all three for guided run and
 *                               a dump, the first two for the fuzzers
 *   SCHEDFUZZ_HAPSET_CONTEXT=C  call sites in a HaPSet statement (0-4, default 2)
 *   SCHEDFUZZ_COV_DUMP=FILE     append each execution's features, and the
 *                               sites that read and write each variable
 *
 * Coverage costs time per event, so it runs only when someone reads it:
 * libFuzzer (the program handed main() to it), afl-fuzz (our map region is
 * reserved and afl's shared memory is attached), or a dump.
 *
 * While coverage code runs, rt_self is cleared: its memcpy, memset and
 * mmap calls must not come back as the program's own accesses. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cov.h"
#include "cov_export.h"
#include "rt_guide.h"
#include "rt_internal.h"
#include "rt_observer.h"
#include "rt_libc.h"

#define COV_EVENTS_DEFAULT (1u << 20)

static struct {
	struct cov_state *state;
	/* SCHEDFUZZ_COVERAGE unset. The fuzzers then get no reads-from: each
	 * new one makes libFuzzer keep an input, and it keeps ten times as
	 * many (1,855 against 229 in 12,000 executions of queue_harness), at
	 * 0.25-0.42 of plain libFuzzer's exec/s against 1.07 without
	 * (docs/cost.md). Guided run's explorer keeps no file per feature. */
	bool default_kinds;
	unsigned sinks; /* COV_TO_*: the maps features go to this execution */
	/* An execution's events that coverage looks at: the first max_events
	 * (SCHEDFUZZ_COV_EVENTS, 0: all). Each costs a lookup in a table of
	 * every object the execution touched; a real program that shares
	 * millions of them (zstd's pooled contexts: 7 to 12 million events a
	 * schedule) made a guided schedule cost six times an unguided one. */
	uint64_t events, max_events;
	bool dumping; /* this execution's features go to SCHEDFUZZ_COV_DUMP */

	/* Dump mode: this execution's features and variable sites. */
	struct dumped *features;
	uint32_t nfeatures, features_cap;
	struct var_site *sites;
	uint32_t nsites, sites_cap;
} cov;

struct dumped {
	struct cov_feature f;
	struct rt_var_id var[2];
};

struct var_site {
	struct rt_var_id var;
	uint32_t site;
	bool write;
};

void rt_cov_init(void)
{
	const char *what = getenv("SCHEDFUZZ_COVERAGE");
	cov.default_kinds = !what || !*what;
	if (!what || !*what || !strcmp(what, "all"))
		rt.cfg.coverage = COV_ALL;
	else if (!strcmp(what, "both"))
		rt.cfg.coverage = COV_BOTH;
	else if (!strcmp(what, "rf"))
		rt.cfg.coverage = COV_READS_FROM;
	else if (!strcmp(what, "hapset"))
		rt.cfg.coverage = COV_HAPSET;
	else if (!strcmp(what, "map"))
		rt.cfg.coverage = COV_MAP;
	else if (!strcmp(what, "none"))
		rt.cfg.coverage = 0;
	else {
		fprintf(stderr, "schedfuzz: SCHEDFUZZ_COVERAGE=%s: expected hapset, map, rf, both, all or none\n",
			what);
		_exit(RT_EXIT_SETUP);
	}
	const char *c = getenv("SCHEDFUZZ_HAPSET_CONTEXT");
	rt.cfg.hapset_context = 2;
	if (c && *c) {
		if (c[0] < '0' || c[0] > '0' + COV_CTX_MAX || c[1]) {
			fprintf(stderr, "schedfuzz: SCHEDFUZZ_HAPSET_CONTEXT=%s: expected 0 to %d\n", c,
				COV_CTX_MAX);
			_exit(RT_EXIT_SETUP);
		}
		rt.cfg.hapset_context = (unsigned)(c[0] - '0');
	}
	cov.max_events = rt_env_u64("SCHEDFUZZ_COV_EVENTS", COV_EVENTS_DEFAULT);
	const char *dump = getenv("SCHEDFUZZ_COV_DUMP");
	rt.cfg.cov_dump = dump && *dump ? dump : NULL;
}

/* ---- dump mode ------------------------------------------------------------------ */

static bool grow(void **p, uint32_t *cap, size_t elem)
{
	uint32_t n = *cap ? *cap * 2 : 256;
	void *q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static void keep_feature(const struct cov_feature *f)
{
	if (cov.nfeatures == cov.features_cap &&
	    !grow((void **)&cov.features, &cov.features_cap, sizeof *cov.features))
		return;
	struct dumped *d = &cov.features[cov.nfeatures++];
	d->f = *f;
	for (int i = 0; i < 2; i++)
		d->var[i] = i < (f->kind == COV_MAP ? f->nvars : 0)
				    ? rt_var_of(f->var[i], cov_first_site(cov.state, f->var[i]))
				    : (struct rt_var_id){ 0 };
}

/* Reads and writes per variable and site, each once: a linear scan of the
 * recent ones catches the common repeats, duplicates left are merged by
 * the report. */
static void keep_site(uintptr_t addr, uint32_t site, bool write)
{
	struct var_site vs = { rt_var_of(cov_granule(addr), cov_first_site(cov.state, addr)), site,
			       write };
	uint32_t from = cov.nsites > 64 ? cov.nsites - 64 : 0;
	for (uint32_t i = from; i < cov.nsites; i++) {
		const struct var_site *o = &cov.sites[i];
		if (o->site == site && o->write == write && o->var.kind == vs.var.kind &&
		    o->var.a == vs.var.a && o->var.b == vs.var.b)
			return;
	}
	if (cov.nsites == cov.sites_cap &&
	    !grow((void **)&cov.sites, &cov.sites_cap, sizeof *cov.sites))
		return;
	cov.sites[cov.nsites++] = vs;
}

static void print_var(FILE *f, const struct rt_var_id *v)
{
	if (v->kind == 'h')
		fprintf(f, " h:%" PRIx32 "+%" PRIu32, v->a, v->b);
	else
		fprintf(f, " %c:%" PRIx32, v->kind, v->a);
}

/* One block per execution, "exec" to "end": the report ignores a block
 * that a crash cut short. */
static void write_dump(void)
{
	int fd = open(rt.cfg.cov_dump, O_WRONLY | O_CREAT | O_APPEND, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "a") : NULL;
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot write coverage to %s\n", rt.cfg.cov_dump);
		if (fd >= 0)
			close(fd);
		return;
	}
	fprintf(f, "exec %s\n", rt.cfg.input_path ? rt.cfg.input_path : "-");
	for (uint32_t i = 0; i < cov.nfeatures; i++) {
		const struct dumped *d = &cov.features[i];
		const struct cov_feature *ft = &d->f;
		if (ft->kind == COV_HAPSET) {
			fprintf(f, "hapset %016" PRIx64, ft->hash);
			for (int s = 0; s < 2; s++) {
				fprintf(f, " %" PRIx32 " %u", ft->site[s], ft->nctx[s]);
				for (int k = 0; k < ft->nctx[s]; k++)
					fprintf(f, " %" PRIx32, ft->ctx[s][k]);
			}
		} else if (ft->kind == COV_RACE) {
			fprintf(f, "race %016" PRIx64, ft->hash);
		} else if (ft->kind == COV_READS_FROM) {
			fprintf(f, "rf %016" PRIx64 " %" PRIx32 " %" PRIx32 " %u %u %u %u", ft->hash,
				ft->site[0], ft->site[1], ft->remote, ft->count, ft->occ[0], ft->occ[1]);
		} else {
			fprintf(f, "map %016" PRIx64 " %u %u", ft->hash, ft->pattern, ft->nsteps);
			for (int s = 0; s < ft->nsteps; s++)
				fprintf(f, " %" PRIx32, ft->site[s]);
			fprintf(f, " %u", ft->nvars);
			for (int v = 0; v < ft->nvars; v++)
				print_var(f, &d->var[v]);
		}
		fputc('\n', f);
	}
	for (uint32_t i = 0; i < cov.nsites; i++) {
		fprintf(f, "site %c %" PRIx32, cov.sites[i].write ? 'W' : 'R', cov.sites[i].site);
		print_var(f, &cov.sites[i].var);
		fputc('\n', f);
	}
	fprintf(f, "end\n");
	fclose(f);
}

/* ---- the stream ------------------------------------------------------------------ */

static void sink(void *arg, const struct cov_feature *f)
{
	cov_export(cov.sinks, f->hash);
	if (rt.search && rt.search->want_hapset && f->kind == COV_HAPSET)
		rt_search_hapset(f->hash);
	if (rt.cfg.cov_dump)
		keep_feature(f);
	if (rt_guide_map) { /* the guided explorer's child: publish it */
		uint32_t bit = (uint32_t)(f->hash >> 24) & (RT_GUIDE_BITS - 1);
		rt_guide_map[bit / 64] |= 1ull << (bit % 64);
	}
}

/* Racing sites become features by their pair's key, which is the same in
 * every process: a schedule that exposes a new race is kept and mutated,
 * as one with a new HaPSet pair is. */
void rt_cov_race(uint64_t key)
{
	if (!rt.cov_on)
		return;
	struct cov_feature f = { .hash = key * 0x9E3779B97F4A7C15ull + 0x5ace, .kind = COV_RACE };
	struct rt_thread *self = rt_own_work_begin();
	sink(NULL, &f);
	rt_own_work_end(self);
}

static void coverage_begin(void)
{
	cov.dumping = false;
	cov.sinks = (rt.under_libfuzzer ? COV_TO_LIBFUZZER : 0) |
		    (cov_export_afl_present() ? COV_TO_AFL : 0);
	bool guided = rt.search && rt.search->want_hapset;
	rt.cov_on = rt.cfg.coverage && (cov.sinks || rt.cfg.cov_dump || guided || rt_guide_map);
	if (rt.cov_on && !cov.state && !(cov.state = cov_create()))
		rt.cov_on = false; /* out of memory: run without coverage */
	if (!rt.cov_on)
		return;
	unsigned kinds = rt.cfg.coverage;
	if (cov.default_kinds && !rt_guide_map && !rt.cfg.cov_dump)
		kinds &= ~COV_READS_FROM;
	cov_begin(cov.state, kinds, sink, NULL);
	cov.nfeatures = cov.nsites = 0;
	cov.events = 0;
	cov.dumping = rt.cfg.cov_dump != NULL;
}

/* What each event is to the conflict rules; COV_OP_COUNT: not an event
 * there (thread lifecycle, unlocks, barriers, yields, sleeps). */
int rt_cov_op(enum rt_ev ev, const struct rt_obj *obj)
{
	switch (ev) {
	case EV_READ:
	case EV_ATOMIC_LOAD:
		return COV_READ;
	case EV_WRITE:
	case EV_ATOMIC_STORE:
	case EV_ATOMIC_RMW:
	case EV_ATOMIC_CAS:
		return COV_WRITE;
	case EV_MUTEX_LOCK:
	case EV_MUTEX_TRYLOCK:
	case EV_RW_WRLOCK:
	case EV_COND_WAKE: /* retaking the mutex after a wait */
		return COV_ACQUIRE;
	case EV_RW_RDLOCK:
		return COV_ACQUIRE_SHARED;
	case EV_MUTEX_UNLOCK:
		return obj && obj->type == O_MUTEX && obj->mutex.kind == PTHREAD_MUTEX_RECURSIVE
			       ? COV_RELEASE
			       : COV_OP_COUNT;
	case EV_COND_WAIT:
	case EV_SEM_WAIT:
		return COV_WAIT;
	case EV_COND_SIGNAL:
	case EV_COND_BROADCAST:
	case EV_SEM_POST:
		return COV_NOTIFY;
	default:
		return COV_OP_COUNT;
	}
}

uint8_t rt_cov_context(const struct rt_thread *self, uint32_t ctx[COV_CTX_MAX])
{
	/* Contexts are HaPSet's. The outermost frame was entered from the
	 * runtime (thread trampoline, main's or the harness's wrapper): the
	 * same for every statement. */
	if (!(rt.cfg.coverage & COV_HAPSET))
		return 0;
	uint32_t want = rt.cfg.hapset_context < RT_CTX_DEPTH ? rt.cfg.hapset_context : RT_CTX_DEPTH;
	uint8_t n = (uint8_t)rt_ctx_count(self, 1, want);
	for (uint32_t i = 0; i < n; i++)
		ctx[i] = rt_stable_site(rt_ctx_site(self, i));
	return n;
}

static void coverage_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr,
			   struct rt_obj *obj, uint32_t size, const void *site, uint8_t flags)
{
	(void)flags;
	uint8_t op = (uint8_t)rt_cov_op(ev, obj);
	if (op == COV_OP_COUNT)
		return;
	if (RT_UNLIKELY(cov.max_events && ++cov.events > cov.max_events)) {
		/* Enough: the rest of the execution goes by unobserved, on
		 * the points' fast path. */
		rt.cov_on = false;
		rt_observers_changed();
		return;
	}
	struct cov_event e = {
		.obj = obj ? obj->addr : addr,
		.size = size,
		.site = rt_stable_site(site),
		.tid = (uint16_t)self->tid,
		.op = op,
	};
	e.nctx = rt_cov_context(self, e.ctx);

	rt_own_work_begin();
	cov_event(cov.state, &e);
	if (rt.cfg.cov_dump && cov_op_is_memory(op))
		keep_site(addr, e.site, op == COV_WRITE);
	rt_own_work_end(self);
}

static void coverage_end(enum rt_fail_kind fail)
{
	(void)fail;
	if (!cov.dumping)
		return;
	cov.dumping = false;
	struct rt_thread *self = rt_own_work_begin();
	write_dump();
	cov.nfeatures = cov.nsites = 0;
	rt_own_work_end(self);
}

static bool coverage_on(void)
{
	return rt.cov_on;
}

const struct rt_observer rt_cov_observer = {
	.name = "coverage",
	.on = coverage_on,
	.begin = coverage_begin,
	.event = coverage_event,
	.end = coverage_end,
};
