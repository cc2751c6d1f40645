/* rt_race_report.c - what a data race looks like to the user: the report
 * in ThreadSanitizer's layout (which tools already read), with what it
 * cannot give: the scheduling step of each access and the key of the pair
 * of sites, which the explorer saves an input under (docs/races.md).
 *
 * A pair of sites is reported once per execution: a loop racing over a
 * buffer is one race, not one per byte. The call sites of every recorded
 * access are kept in a depot of stacks (a few words per distinct stack),
 * so that the earlier access of a race has its stack too. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_race.h"

/* ---- the depot: call sites by id ------------------------------------------- */

#define DEPOT (1u << 14) /* stacks kept; past that, accesses keep their site alone */
struct stack {
	uint64_t hash;
	uint32_t n;
	const void *pc[RT_CTX_DEPTH];
};
static struct stack *depot;
static uint32_t depot_used;

uint32_t rt_race_stack_of(const struct rt_thread *self)
{
	const void *pc[RT_CTX_DEPTH];
	int n = rt_report_call_sites(self, pc);
	if (n == 0)
		return 0;
	uint64_t h = 0xcbf29ce484222325ull;
	for (int i = 0; i < n; i++)
		h = (h ^ (uintptr_t)pc[i]) * 0x100000001b3ull;
	h |= 1;
	if (!depot) {
		depot = mmap(NULL, DEPOT * sizeof *depot, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (depot == MAP_FAILED) {
			depot = NULL;
			return 0;
		}
	}
	for (uint32_t i = (uint32_t)(h >> 20) & (DEPOT - 1), probes = 0; probes < 64;
	     i = (i + 1) & (DEPOT - 1), probes++) {
		struct stack *s = &depot[i];
		if (s->hash == h && s->n == (uint32_t)n && !memcmp(s->pc, pc, (size_t)n * sizeof *pc))
			return i + 1;
		if (s->hash)
			continue;
		if (depot_used >= DEPOT / 2)
			return 0;
		depot_used++;
		s->hash = h;
		s->n = (uint32_t)n;
		rt_memcpy(s->pc, pc, (size_t)n * sizeof *pc);
		return i + 1;
	}
	return 0;
}

/* ---- which pairs were reported ------------------------------------------------ */

#define PAIRS 64
static uint64_t pairs[PAIRS];
static uint32_t npairs;
/* Each thread slot's creation: where, and by which thread. */
static const void *created_at[RT_MAX_THREADS];
static int created_by[RT_MAX_THREADS];

void rt_race_report_begin(void)
{
	npairs = 0;
	/* The stacks of one execution: an id names nothing across them. */
	if (depot_used) {
		rt_memset(depot, 0, DEPOT * sizeof *depot);
		depot_used = 0;
	}
}

void rt_race_note_created(const struct rt_thread *self, const struct rt_thread *t)
{
	created_at[t->slot] = t->site;
	created_by[t->slot] = self->tid;
}

/* A site as an offset into its module, so that the key is the same in
 * every process, whatever the load address. */
static uint64_t site_key(const void *site)
{
	uintptr_t s = (uintptr_t)site;
	return s - rt.exe_lo < rt.exe_hi - rt.exe_lo ? s - rt.exe_bias : s;
}

static uint64_t pair_key(const void *a, const void *b)
{
	uint64_t x = site_key(a), y = site_key(b);
	if (x > y) {
		uint64_t t = x;
		x = y;
		y = t;
	}
	uint64_t h = x * 0x9E3779B97F4A7C15ull ^ (y + 0x632BE59BD9B4E019ull);
	h ^= h >> 29;
	return h * 0xBF58476D1CE4E5B9ull | 1;
}

/* ---- the report ------------------------------------------------------------------ */

enum { MAX_SYMS = 2 * (1 + RT_CTX_DEPTH) + 4 };
struct syms {
	uintptr_t addr[MAX_SYMS];
	bool data[MAX_SYMS];
	struct rt_sym sym[MAX_SYMS];
	int n;
};

static int add(struct syms *s, uintptr_t a, bool data)
{
	if (s->n == MAX_SYMS)
		return -1;
	s->addr[s->n] = a;
	s->data[s->n] = data;
	return s->n++;
}

static const struct stack *stack_of(uint32_t id)
{
	return id && depot ? &depot[id - 1] : NULL;
}

static void add_access(struct syms *s, const struct rt_race_access *a)
{
	add(s, (uintptr_t)a->site, false);
	const struct stack *st = stack_of(a->stack);
	for (uint32_t i = 0; st && i < st->n; i++)
		add(s, (uintptr_t)st->pc[i], false);
}

static const char *thread_name(uint32_t tid, char *buf, size_t cap)
{
	if (tid == 0)
		return "main thread";
	snprintf(buf, cap, "thread T%u", tid);
	return buf;
}

static void frame(FILE *f, int k, const struct syms *s, int i)
{
	const struct rt_sym *y = &s->sym[i];
	uintptr_t a = s->addr[i];
	fprintf(f, "    #%d %s %s", k, y->func[0] ? y->func : "<null>", y->text[0] ? y->text : "?");
	if (a - rt.exe_lo < rt.exe_hi - rt.exe_lo)
		fprintf(f, " (+0x%lx)", (unsigned long)(a - rt.exe_bias));
	fprintf(f, "\n");
}

/* The access's frames, from symbol i on: its site, then its call sites. */
static int print_access(FILE *f, bool previous, const struct rt_race_access *a, uintptr_t addr,
			const struct syms *s, int i)
{
	char name[32];
	bool w = a->flags & RT_RACE_WRITE;
	fprintf(f, "  %s of size %u at %p by %s (schedfuzz step %u):\n",
		previous ? (w ? "Previous write" : "Previous read") : (w ? "Write" : "Read"), a->size,
		(void *)addr, thread_name(a->tid, name, sizeof name), a->step);
	frame(f, 0, s, i++);
	const struct stack *st = stack_of(a->stack);
	for (uint32_t k = 0; st && k < st->n; k++)
		frame(f, (int)k + 1, s, i++);
	fprintf(f, "\n");
	return i;
}

static const struct rt_thread *stack_owner(uintptr_t addr)
{
	for (int i = 0; i < rt.nthreads; i++) {
		const struct rt_thread *t = &rt.threads[i];
		if (t->state != T_UNUSED && addr - t->stack_lo < t->stack_size)
			return t;
	}
	return NULL;
}

static void print_location(FILE *f, uintptr_t addr, const struct syms *s, int data, int alloc,
			   uintptr_t block_lo, uintptr_t block_hi)
{
	char name[32];
	const struct rt_thread *t;
	if (alloc >= 0) {
		fprintf(f, "  Location is heap block of size %lu at %p allocated at:\n",
			(unsigned long)(block_hi - block_lo), (void *)block_lo);
		frame(f, 0, s, alloc);
	} else if (data >= 0 && s->sym[data].text[0]) {
		fprintf(f, "  Location is global '%s' at %p (+0x%lx)\n", s->sym[data].text,
			(void *)(addr - s->sym[data].offset),
			(unsigned long)(addr - s->sym[data].offset - rt.exe_bias));
	} else if ((t = stack_owner(addr)) != NULL) {
		fprintf(f, "  Location is stack of %s.\n", thread_name((uint32_t)t->tid, name,
								       sizeof name));
	} else {
		fprintf(f, "  Location is memory at %p.\n", (void *)addr);
	}
	fprintf(f, "\n");
}

static void print_creation(FILE *f, uint32_t tid, int slot, const struct syms *s, int i)
{
	char by[32];
	if (tid == 0)
		return;
	fprintf(f, "  Thread T%u created by %s at:\n", tid,
		thread_name((uint32_t)created_by[slot], by, sizeof by));
	if (i >= 0)
		frame(f, 0, s, i);
	fprintf(f, "\n");
}

/* False when a suppression says to keep quiet about it. */
static bool report(struct rt_thread *self, uintptr_t addr, const struct rt_race_access *prev,
		   const struct rt_race_access *now, uint64_t key)
{
	struct syms s;
	rt_memset(&s, 0, sizeof s);
	add_access(&s, now);
	int prev_at = s.n;
	add_access(&s, prev);
	int first[2] = { 0, prev_at }, count[2] = { prev_at, s.n - prev_at };
	uintptr_t lo = 0, hi = 0;
	uint32_t alloc_site = 0;
	int alloc = -1, data = -1;
	if (rt_heap_block_of(addr, &lo, &hi, &alloc_site) && alloc_site)
		alloc = add(&s, rt.exe_bias + alloc_site, false);
	else if (addr - rt.exe_lo < rt.exe_hi - rt.exe_lo)
		data = add(&s, addr, true);
	int made_now = now->tid ? add(&s, (uintptr_t)created_at[self->slot], false) : -1;
	bool same = prev->slot == now->slot && prev->tid == now->tid;
	int made_prev = prev->tid && !same && rt.threads[prev->slot].tid == (int)prev->tid
				? add(&s, (uintptr_t)created_at[prev->slot], false)
				: -1;
	rt_symbolize(s.addr, s.data, s.sym, s.n);
	const char *rule = rt_race_suppressed(s.addr, s.sym, first, count);
	if (rule) {
		if (rt_env_u64("SCHEDFUZZ_VERBOSE", 0))
			fprintf(stderr, "schedfuzz: data race %016llx at %s suppressed by %s\n",
				(unsigned long long)key, s.sym[0].text, rule);
		return false;
	}

	const struct rt_thread *owner = alloc < 0 && data < 0 ? stack_owner(addr) : NULL;
	struct rt_race_seen seen = {
		.key = key,
		.addr = addr,
		.acc = { now, prev },
		.pc = { &s.addr[0], &s.addr[prev_at] },
		.sym = { &s.sym[0], &s.sym[prev_at] },
		.n = { count[0], count[1] },
		.where = alloc >= 0 ? "heap" : data >= 0 && s.sym[data].text[0] ? "global" : owner ? "stack" : "memory",
		.name = data >= 0 ? s.sym[data].text : "",
		.stack_tid = owner ? (uint32_t)owner->tid : 0,
		.block_lo = lo,
		.block_hi = hi,
		.alloc = alloc >= 0 ? &s.sym[alloc] : NULL,
	};
	rt_race_json(&seen);

	FILE *f = stderr;
	fprintf(f, "==================\nWARNING: ThreadSanitizer: data race (pid=%d)\n", (int)getpid());
	print_access(f, false, now, addr, &s, 0);
	print_access(f, true, prev, addr, &s, prev_at);
	print_location(f, addr, &s, data, alloc, lo, hi);
	print_creation(f, now->tid, self->slot, &s, made_now);
	if (!same && prev->tid && rt.threads[prev->slot].tid == (int)prev->tid)
		print_creation(f, prev->tid, prev->slot, &s, made_prev);
	const struct rt_sym *top = &s.sym[0];
	fprintf(f, "SUMMARY: ThreadSanitizer: data race %s in %s\n",
		top->text[0] ? top->text : "?", top->func[0] ? top->func : "?");
	fprintf(f, "==schedfuzz== race key %016llx: steps %u and %u\n==================\n",
		(unsigned long long)key, prev->step, now->step);
	return true;
}

void rt_race_found(struct rt_thread *self, uintptr_t addr, const struct rt_race_access *prev,
		   const struct rt_race_access *now)
{
	uint64_t key = pair_key(prev->site, now->site);
	for (uint32_t i = 0; i < npairs; i++)
		if (pairs[i] == key)
			return;
	if (npairs < PAIRS)
		pairs[npairs++] = key;
	if (rt_race_benign(addr))
		return;
	/* A quiet child of `run` in report mode: the explorer replays the
	 * schedule with its output shown if the pair is new to it, so the
	 * report (a symbolizer started for each schedule that races) is left
	 * to that replay, unless a suppression must read the frames. */
	bool leave_to_replay = rt.cfg.brief && rt_race.mode == RT_RACES_REPORT && !rt_race_suppressions_any();
	if (!leave_to_replay) {
		struct rt_thread *own = rt_own_work_begin();
		bool reported = report(self, addr, prev, now, key);
		rt_own_work_end(own);
		if (!reported)
			return;
	}
	rt_cov_race(key);
	if (rt.result) {
		if (!rt.result->races)
			rt.result->race_key = key;
		rt.result->races++;
	}
	if (rt_race.mode == RT_RACES_FAIL)
		rt_fail(F_RACE, now->site, "pair key %016llx, steps %u and %u",
			(unsigned long long)key, prev->step, now->step);
}
