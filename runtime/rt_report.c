/* rt_report.c - failure reports (docs/design/architecture.md, decision 10), and the entry points
 * through which failures arrive: assertions, exit() (fatal signals come
 * through rt_signals.c).
 *
 * A report is printed by the thread that failed while every other
 * controlled thread is parked, so the state it shows is consistent. Its
 * layout is a contract: the first line "==schedfuzz== ERROR: <kind>: ..."
 * is stable for deduplication, and the interleaving section names threads
 * by creation number, objects by per-execution number and variables by
 * symbol, never by address, so the same input prints the same lines in
 * any process. After the report the process aborts, so that every fuzzer
 * records a crash (libFuzzer's and AFL++'s handlers are chained).
 *
 * Nothing on the way to the report uses the heap: a failure may come from
 * glibc's allocator, which found its heap corrupt and aborted, maybe with
 * an arena lock held. The symbol table is mmap'd, and so is everything the
 * symbolizer needs (rt_symbolize.c); files asked for (the trace, the
 * recorded schedule) are written after the report. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cov_hash.h"
#include "rt_anchor.h"
#include "rt_describe.h"
#include "rt_internal.h"
#include "rt_observer.h"
#include "rt_race.h"
#include "rt_warn.h"

const char *const rt_fail_names[F_COUNT] = {
	[F_NONE] = "none",
	[F_ASSERT] = "assertion failure",
	[F_SIGNAL] = "fatal signal",
	[F_DEADLOCK] = "deadlock",
	[F_HANG] = "hang",
	[F_EXIT] = "nonzero exit",
	[F_MISUSE] = "sync misuse",
	[F_SANITIZER] = "sanitizer report",
	[F_STACK_OVERFLOW] = "stack overflow",
	[F_LEAK] = "memory leak",
	[F_RACE] = "data race",
};
_Static_assert(sizeof rt_fail_names / sizeof rt_fail_names[0] == F_COUNT, "name every failure");

#define TRACE_SHOWN 48

/* ---- symbols for everything a report may mention ------------------------------ */

struct symtab {
	uintptr_t *addr;
	bool *data;
	struct rt_sym *sym;
	int n, cap;
};

static size_t symtab_bytes(const struct symtab *st)
{
	return (size_t)st->cap * (sizeof *st->addr + sizeof *st->sym + sizeof *st->data);
}

static int sym_add(struct symtab *st, uintptr_t addr, bool data)
{
	for (int i = 0; i < st->n; i++)
		if (st->addr[i] == addr && st->data[i] == data)
			return i;
	if (st->n == st->cap)
		return -1;
	st->addr[st->n] = addr;
	st->data[st->n] = data;
	return st->n++;
}

static const char *site_text(struct symtab *st, const void *site)
{
	int i = sym_add(st, (uintptr_t)site, false);
	if (!site || i < 0)
		return "?";
	if (st->sym[i].text[0])
		return st->sym[i].text;
	return st->sym[i].func[0] ? st->sym[i].func : "?";
}

static void var_text(struct symtab *st, uintptr_t addr, char *buf, size_t cap)
{
	int i = sym_add(st, addr, true);
	if (i < 0 || !st->sym[i].text[0]) {
		snprintf(buf, cap, "unnamed memory");
	} else if (st->sym[i].offset) {
		snprintf(buf, cap, "%s+%lu", st->sym[i].text, (unsigned long)st->sym[i].offset);
	} else {
		snprintf(buf, cap, "%s", st->sym[i].text);
	}
}

static void obj_text(struct symtab *st, const struct rt_obj *o, char *buf, size_t cap)
{
	char name[200];
	var_text(st, o->addr, name, sizeof name);
	if (o->type >= O_COUNT) {
		snprintf(buf, cap, "destroyed object");
		return;
	}
	if (strcmp(name, "unnamed memory") == 0)
		snprintf(buf, cap, "%s %c%u", rt_otype_names[o->type], rt_otype_letters[o->type], o->id);
	else
		snprintf(buf, cap, "%s %c%u (%s)", rt_otype_names[o->type], rt_otype_letters[o->type],
			 o->id, name);
}

/* The stack of a thread stuck outside the runtime, shown with the report
 * (rt_report_stack). */
static struct {
	const void *pc[RT_STACK_MAX];
	int n, tid;
} stuck;

void rt_report_stack(int tid, void *const *pcs, int n)
{
	stuck.tid = tid;
	stuck.n = n < RT_STACK_MAX ? n : RT_STACK_MAX;
	for (int i = 0; i < stuck.n; i++)
		stuck.pc[i] = pcs[i];
}

/* The innermost call sites of t (what its function entries kept), the
 * call the thread is in first; not the outermost, the call of main or of
 * the thread's function, nor any in the runtime's own code. */
int rt_report_call_sites(const struct rt_thread *t, const void **out)
{
	int n = 0;
	for (uint32_t k = 0, have = rt_ctx_count(t, 1, RT_CTX_DEPTH); k < have; k++) {
		const void *site = rt_ctx_site(t, k);
		if (!rt_in_runtime_code(site))
			out[n++] = site;
	}
	return n;
}

/* Everything the report prints goes through the table twice: once to
 * collect the addresses, then, symbolized, to print. */
static void collect(struct symtab *st, const void *fail_site)
{
	sym_add(st, (uintptr_t)fail_site, false);
	for (int i = 0; i < stuck.n; i++)
		sym_add(st, (uintptr_t)stuck.pc[i], false);
	for (int i = 0; i < rt.nthreads; i++) {
		const void *sites[RT_CTX_DEPTH];
		int n = rt_report_call_sites(&rt.threads[i], sites);
		for (int k = 0; k < n; k++)
			sym_add(st, (uintptr_t)sites[k], false);
	}
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		sym_add(st, (uintptr_t)(t->wait ? t->wait_site : t->site), false);
		if (t->cancelled)
			sym_add(st, (uintptr_t)t->cancel_site, false);
		if (t->wobj)
			sym_add(st, t->wobj->addr, true);
		if (t->wait == W_EXTERNAL && t->ext->addr)
			sym_add(st, t->ext->addr, true);
		for (int h = 0; h < t->nheld; h++)
			sym_add(st, t->held[h].obj->addr, true);
	}
	uint64_t first = rt.step > TRACE_SHOWN ? rt.step - TRACE_SHOWN + 1 : 1;
	for (uint64_t s = first; s <= rt.step; s++) {
		struct rt_event *e = &rt.trace[s & (RT_TRACE_SIZE - 1)];
		sym_add(st, (uintptr_t)e->site, false);
		if (e->addr)
			sym_add(st, e->addr, true);
	}
	for (uint64_t s = rt.step > RT_TRACE_SIZE ? rt.step - RT_TRACE_SIZE + 1 : 1; s <= rt.step; s++)
		sym_add(st, (uintptr_t)rt.trace[s & (RT_TRACE_SIZE - 1)].site, false);
	const void *wsite;
	const char *wtext;
	int wtid;
	for (int i = 0; rt_warn_get(i, &wsite, &wtid, &wtext); i++)
		sym_add(st, (uintptr_t)wsite, false);
	/* The frees the interleaving shows, and those its accesses fell into. */
	for (uint64_t s = first; s <= rt.step; s++) {
		struct rt_freed f[8];
		int n = rt_heap_log_frees_after(s, f, 8);
		for (int i = 0; i < n; i++)
			sym_add(st, (uintptr_t)f[i].site, false);
		const struct rt_event *e = &rt.trace[s & (RT_TRACE_SIZE - 1)];
		if (e->addr && rt_heap_log_freed(e->addr, s, f))
			sym_add(st, (uintptr_t)f[0].site, false);
	}
}

/* The thread the failure is about: the caller, or, when the watchdog
 * reports, the one that was running. */
static struct rt_thread *reporting_thread(void)
{
	return rt_self ? rt_self : rt.running;
}

/* ---- sections ------------------------------------------------------------------------- */

static struct rt_thread *blocker_of(const struct rt_thread *t)
{
	if (t->state != T_LIVE)
		return NULL;
	switch (t->wait) {
	case W_MUTEX:
		return t->wobj->mutex.owner;
	case W_RDLOCK:
		return t->wobj->rw.writer;
	case W_WRLOCK:
		if (t->wobj->rw.writer)
			return t->wobj->rw.writer;
		for (int i = 0; i < rt.nthreads; i++)
			if (&rt.threads[i] != t && rt_held_find(&rt.threads[i], t->wobj))
				return &rt.threads[i];
		return NULL;
	case W_JOIN:
		return t->join_target;
	case W_ONCE:
		return t->wobj->once.runner;
	case W_OTHERS:
		for (int i = 0; i < rt.nthreads; i++)
			if (&rt.threads[i] != t && rt.threads[i].state == T_LIVE)
				return &rt.threads[i];
		return NULL;
	default:
		return NULL;
	}
}

static void wait_text(struct symtab *st, const struct rt_thread *t, char *buf, size_t cap)
{
	char o[256] = "";
	if (t->wobj)
		obj_text(st, t->wobj, o, sizeof o);
	switch (t->wait) {
	case W_JOIN:
		snprintf(buf, cap, "join T%d", t->join_target->tid);
		break;
	case W_OTHERS:
		snprintf(buf, cap, "all threads to exit (the fuzz target returned)");
		break;
	case W_COND:
		snprintf(buf, cap, "a signal on %s", o);
		break;
	case W_SEM:
		snprintf(buf, cap, "a post on %s", o);
		break;
	case W_BARRIER:
		snprintf(buf, cap, "the other threads at %s", o);
		break;
	case W_ONCE:
		snprintf(buf, cap, "the initialiser of %s", o);
		break;
	case W_EXTERNAL: {
		t->ext->ops->describe(t->ext, buf, cap);
		size_t len = strlen(buf);
		if (t->ext->addr && len < cap) {
			var_text(st, t->ext->addr, o, sizeof o);
			if (strcmp(o, "unnamed memory") != 0)
				snprintf(buf + len, cap - len, " (%s)", o);
		}
		break;
	}
	default:
		snprintf(buf, cap, "%s %s", rt_wait_names[t->wait], o);
		break;
	}
}

/* ASan numbers threads its own way (one count for the whole process, so
 * T353 under libFuzzer): say which of its numbers each of ours is. */
static void print_sanitizer_tids(void)
{
	bool any = false;
	for (int i = 0; i < rt.nthreads; i++) {
		const struct rt_thread *t = &rt.threads[i];
		if (t->state == T_UNUSED || t->asan_tid < 0)
			continue;
		fprintf(stderr, "%sT%d=T%d", any ? ", " : "==schedfuzz== ASan's names for our threads: ",
			t->tid, t->asan_tid);
		any = true;
	}
	if (any)
		fprintf(stderr, "\n");
}

/* With calls: each live thread's call sites too (a hang, where a
 * thread is matters more than what it did last). picked: a thread picked
 * to complete the operation it waited for, which it has not yet done (a
 * debugger's stop): running, no longer blocked. */
static void print_threads(FILE *out, struct symtab *st, bool calls, const struct rt_thread *picked)
{
	fprintf(out, "==schedfuzz== threads:\n");
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		char w[400], o[256];
		if (t->state == T_UNUSED)
			continue; /* its slot's thread was joined or detached and is gone */
		if (t->state == T_FINISHED) {
			fprintf(out, "  T%-3d finished", t->tid);
			if (t->cancelled)
				fprintf(out, ": cancelled at %s", site_text(st, t->cancel_site));
		} else if (t->wait && t != picked) {
			wait_text(st, t, w, sizeof w);
			fprintf(out, "  T%-3d blocked: waits for %s at %s", t->tid, w,
				site_text(st, t->wait_site));
		} else {
			fprintf(out, "  T%-3d %s at %s", t->tid, t == reporting_thread() ? "running" : "runnable",
				site_text(st, t->site));
		}
		for (int h = 0; h < t->nheld; h++) {
			obj_text(st, t->held[h].obj, o, sizeof o);
			fprintf(out, "%s%s%s", h ? ", " : "; holds ", o,
				t->held[h].obj->type == O_RWLOCK ? (t->held[h].write ? " for writing" : " for reading") : "");
		}
		fprintf(out, "\n");
		const void *sites[RT_CTX_DEPTH];
		int n = calls && t->state == T_LIVE ? rt_report_call_sites(t, sites) : 0;
		for (int k = 0; k < n; k++)
			fprintf(out, "%s%s", k ? " < " : "         called from ", site_text(st, sites[k]));
		if (n)
			fprintf(out, "\n");
	}
}

static void print_cycle(struct symtab *st)
{
	for (int start = 0; start < rt.nthreads; start++) {
		int seen[RT_MAX_THREADS];
		rt_memset(seen, -1, sizeof seen);
		struct rt_thread *t = &rt.threads[start];
		for (int k = 0; t && seen[t->slot] < 0; k++) {
			seen[t->slot] = k;
			t = blocker_of(t);
		}
		if (!t)
			continue;
		/* t is on a cycle: print it once around, starting at t. */
		fprintf(stderr, "==schedfuzz== cycle: T%d", t->tid);
		struct rt_thread *c = t;
		do {
			char w[400];
			wait_text(st, c, w, sizeof w);
			struct rt_thread *b = blocker_of(c);
			fprintf(stderr, " waits for %s %s T%d", w, c->wait == W_JOIN ? "=" : "held by",
				b->tid);
			c = b;
		} while (c != t);
		fprintf(stderr, "\n");
		return;
	}
	fprintf(stderr, "==schedfuzz== no cycle: the blocked threads wait for events that no "
			"running thread can produce\n");
	/* A lock whose owner has ended will never be released. */
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i], *b = blocker_of(t);
		if (!b || b->state != T_FINISHED || t->wait == W_JOIN)
			continue;
		char w[400];
		wait_text(st, t, w, sizeof w);
		fprintf(stderr, "==schedfuzz== T%d waits for %s held by T%d, which ", t->tid, w, b->tid);
		if (b->cancelled)
			fprintf(stderr, "was cancelled at %s holding it\n", site_text(st, b->cancel_site));
		else
			fprintf(stderr, "ended holding it\n");
	}
}

static void event_text(struct symtab *st, const struct rt_event *e, uint64_t step, char *buf,
		       size_t cap)
{
	char v[256];
	const char *name = rt_ev_names[e->kind];
	switch (e->kind) {
	case EV_READ:
	case EV_WRITE:
	case EV_ATOMIC_LOAD:
	case EV_ATOMIC_STORE:
	case EV_ATOMIC_RMW:
	case EV_ATOMIC_CAS: {
		struct rt_freed f;
		if (rt_heap_log_freed(e->addr, step, &f)) {
			snprintf(buf, cap, "%s %u bytes of a block freed after step %llu by T%d at %s",
				 name, e->size, (unsigned long long)f.step, f.tid,
				 site_text(st, f.site));
			return;
		}
		var_text(st, e->addr, v, sizeof v);
		snprintf(buf, cap, "%s %u bytes of %s", name, e->size, v);
		return;
	}
	default:
		break;
	}
	struct rt_obj *o = e->obj_id ? rt_obj_find((void *)e->addr) : NULL;
	if (o && o->id == e->obj_id) {
		obj_text(st, o, v, sizeof v);
		snprintf(buf, cap, "%s %s", name, v);
	} else {
		snprintf(buf, cap, "%s", name);
	}
}

/* The frees right after event step: no events of the schedule, but what a
 * use-after-free report needs most. */
static void print_frees_after(FILE *out, struct symtab *st, uint64_t step)
{
	struct rt_freed f[8];
	int n = rt_heap_log_frees_after(step, f, 8);
	for (int i = 0; i < n; i++) {
		char what[96];
		snprintf(what, sizeof what, "free of a %lu-byte block", (unsigned long)f[i].size);
		fprintf(out, "    %6s  T%-3d %-44s %s\n", "", f[i].tid, what, site_text(st, f[i].site));
	}
}

/* Step s's line of the interleaving, and what came with it. */
static void print_step(FILE *out, struct symtab *st, uint64_t s)
{
	struct rt_event *e = &rt.trace[s & (RT_TRACE_SIZE - 1)];
	char ev[400];
	event_text(st, e, s, ev, sizeof ev);
	char mark = (e->flags & RT_EVF_PREEMPT) ? '>' : (e->flags & RT_EVF_SWITCH) ? '-' : ' ';
	fprintf(out, "  %c %6llu  T%-3u %-44s %s\n", mark, (unsigned long long)s, e->tid, ev,
		site_text(st, e->site));
	if (e->flags & RT_EVF_SPURIOUS)
		fprintf(out, "%20s cond wait returned without a signal: a spurious wakeup, "
			     "which POSIX allows\n", "^");
	print_frees_after(out, st, s);
}

static void print_trace(struct symtab *st)
{
	uint64_t first = rt.step > TRACE_SHOWN ? rt.step - TRACE_SHOWN + 1 : 1;
	fprintf(stderr, "==schedfuzz== interleaving: last %llu of %llu events "
			"(> marks a preemption, - a switch after blocking or exit)\n",
		(unsigned long long)(rt.step - first + 1), (unsigned long long)rt.step);
	for (uint64_t s = first; s <= rt.step; s++)
		print_step(stderr, st, s);
	if (rt.spurious)
		fprintf(stderr, "==schedfuzz== this execution had %u spurious wakeup%s (a condition "
				"wait that returned without a signal, which POSIX allows); "
				"SCHEDFUZZ_SPURIOUS=0 or --no-spurious turns them off\n",
			rt.spurious, rt.spurious == 1 ? "" : "s");
}

static void print_stuck_stack(struct symtab *st)
{
	if (!stuck.n)
		return;
	fprintf(stderr, "==schedfuzz== stack of T%d, outside the runtime's control:\n", stuck.tid);
	for (int i = 0; i < stuck.n; i++) {
		int k = sym_add(st, (uintptr_t)stuck.pc[i], false);
		const char *func = k >= 0 ? st->sym[k].func : "";
		fprintf(stderr, "  #%d %s%s%s\n", i, site_text(st, stuck.pc[i]), func[0] ? " in " : "",
			func);
	}
}

static void print_hot_sites(struct symtab *st)
{
	struct { uint16_t tid; const void *site; unsigned n; } hot[RT_TRACE_SIZE];
	int nhot = 0;
	uint64_t first = rt.step > RT_TRACE_SIZE ? rt.step - RT_TRACE_SIZE + 1 : 1;
	for (uint64_t s = first; s <= rt.step; s++) {
		struct rt_event *e = &rt.trace[s & (RT_TRACE_SIZE - 1)];
		int i = 0;
		while (i < nhot && !(hot[i].tid == e->tid && hot[i].site == e->site))
			i++;
		if (i == nhot)
			hot[nhot++] = (typeof(hot[0])){ e->tid, e->site, 0 };
		hot[i].n++;
	}
	fprintf(stderr, "==schedfuzz== looping sites in the last %llu events:\n",
		(unsigned long long)(rt.step - first + 1));
	for (int k = 0; k < 4 && k < nhot; k++) {
		int best = k;
		for (int i = k + 1; i < nhot; i++)
			if (hot[i].n > hot[best].n)
				best = i;
		typeof(hot[0]) tmp = hot[k];
		hot[k] = hot[best];
		hot[best] = tmp;
		fprintf(stderr, "  T%-3u %4u events at %s\n", hot[k].tid, hot[k].n,
			site_text(st, hot[k].site));
	}
}

/* One word of a command line, as a shell reads it back: in single
 * quotes unless it needs none. */
static void print_word(const char *w)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_-+=/.,:@%") == strlen(w)) {
		fputs(w, stderr);
		return;
	}
	fputc('\'', stderr);
	for (; *w; w++) {
		if (*w == '\'')
			fputs("'\\''", stderr); /* end the quotes, a quoted quote, quotes again */
		else
			fputc(*w, stderr);
	}
	fputc('\'', stderr);
}

/* The program and its arguments, for the replay line. Under libFuzzer
 * only the program: its arguments are libFuzzer's, and replay names the
 * input itself. */
static void print_program(void)
{
	if (!rt_main_argv || !rt_main_argv[0]) {
		fputs("PROG", stderr);
		return;
	}
	print_word(rt_main_argv[0]);
	for (char **a = rt_main_argv + 1; !rt.under_libfuzzer && *a; a++) {
		fputc(' ', stderr);
		print_word(*a);
	}
}

/* Undefined behaviour the execution went on after (rt_warn.c): it may be
 * what the failure grew from. */
static void print_warnings(struct symtab *st)
{
	const void *site;
	const char *text;
	int tid;
	for (int i = 0; rt_warn_get(i, &site, &tid, &text); i++)
		fprintf(stderr, "==schedfuzz== warning, earlier in this execution: %s at %s (thread T%d)\n",
			text, site_text(st, site), tid);
}

static void print_footer(void)
{
	char plan[512];
	sf_plan_format(&rt.plan, plan, sizeof plan);
	if (rt_anchors_on)
		snprintf(plan, sizeof plan, "portable (decisions anchored to source lines)");
	fprintf(stderr,
		"==schedfuzz== schedule: %s (%llu steps, %llu decisions, %d threads; "
		"schedfuzz " SCHEDFUZZ_VERSION ")\n",
		plan, (unsigned long long)rt.step, (unsigned long long)rt.ndecisions, rt.ncreated);
	/* A pinned strategy overrides the genome's: replay needs it too. */
	const char *pin = rt.cfg.pinned ? rt_env_initial("SCHEDFUZZ_STRATEGY") : NULL;
	if (rt.result && rt.result->async)
		fprintf(stderr, "==schedfuzz== note: T%u reached no scheduling point for %llu ms "
				"while others could run, and was preempted asynchronously (%u times in "
				"all): the clock, not the schedule, chose those moments, so this "
				"execution may not replay exactly\n",
			rt.result->async_tid, (unsigned long long)rt.cfg.stall_ms, rt.result->async);
	char saved[4096];
	/* A portable reproducer is run as a translated input: its own name is shown. */
	const char *shown = rt_env_initial("SCHEDFUZZ_INPUT_NAME");
	const char *input = shown && *shown	    ? shown
			    : rt.cfg.input_path	    ? rt.cfg.input_path
			    : rt_artifact_path(saved, sizeof saved) ? saved
								    : "<saved input>";
	fprintf(stderr, "==schedfuzz== replay: %s%s%sschedfuzz replay %s",
		pin ? "SCHEDFUZZ_STRATEGY=" : "", pin ? pin : "", pin ? " " : "",
		rt_race.mode == RT_RACES_FAIL ? "--races=fail " : "");
	print_word(input);
	fputs(" -- ", stderr);
	print_program();
	fputc('\n', stderr);
}

/* Everything a report may name, symbolized at once (mmap'd: no heap). */
static void symtab_fill(struct symtab *st, const void *fail_site)
{
	*st = (struct symtab){ 0 };
	st->cap = RT_TRACE_SIZE * 2 + rt.nthreads * (RT_MAX_HELD + 3 + RT_CTX_DEPTH) + RT_STACK_MAX + 8;
	void *mem = mmap(NULL, symtab_bytes(st), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		st->cap = 0;
	} else {
		st->addr = mem;
		st->sym = (struct rt_sym *)(st->addr + st->cap);
		st->data = (bool *)(st->sym + st->cap);
	}
	collect(st, fail_site);
	rt_symbolize(st->addr, st->data, st->sym, st->n);
}

static void symtab_free(struct symtab *st)
{
	if (st->addr)
		munmap(st->addr, symtab_bytes(st));
}

static void report(enum rt_fail_kind kind, const void *site, const char *msg)
{
	if (rt.cfg.brief) {
		/* Nobody reads this child's report: the explorer replays the
		 * input it saves with the full one. Symbolizing costs more than
		 * a whole execution. */
		fprintf(stderr, "==schedfuzz== ERROR: %s: %s (thread T%d)\n", rt_fail_names[kind], msg,
			reporting_thread() ? reporting_thread()->tid : -1);
		return;
	}
	struct symtab st;
	symtab_fill(&st, site);

	fprintf(stderr, "==schedfuzz== ERROR: %s: %s", rt_fail_names[kind], msg);
	if (site)
		fprintf(stderr, " at %s", site_text(&st, site));
	fprintf(stderr, " (thread T%d)\n", reporting_thread() ? reporting_thread()->tid : -1);
	print_threads(stderr, &st, kind == F_HANG, NULL);
	print_sanitizer_tids();
	print_stuck_stack(&st);
	if (kind == F_DEADLOCK)
		print_cycle(&st);
	if (kind == F_HANG)
		print_hot_sites(&st);
	print_trace(&st);
	print_warnings(&st);
	print_footer();
	fflush(stderr);
	symtab_free(&st);
}

void rt_report_describe(FILE *out, bool deciding)
{
	struct symtab st;
	symtab_fill(&st, NULL);
	if (rt.step)
		print_step(out, &st, rt.step);
	print_threads(out, &st, false, deciding ? NULL : rt.running);
	symtab_free(&st);
}

/* ---- failing -------------------------------------------------------------------------------- */

/* What the explorer's parent and the mutators learn: memory only. */
static void publish_counts(enum rt_fail_kind fail)
{
	struct rt_result *r = rt.result;
	r->fail = fail;
	r->threads = (uint32_t)rt.ncreated;
	r->steps = rt.step;
	r->fingerprint = rt.fingerprint;
	r->decisions = rt.ndecisions;
	r->handoffs = rt.handoffs;
	r->seen.events = rt.step;
	r->seen.locks = rt.locks;
	rt_vars_profile(&r->seen);
	rt_roles_profile(&r->seen);
	rt_mutate_learn(&r->seen);
}

/* The files asked for: they need stdio, and so the heap. */
static void write_outputs(enum rt_fail_kind fail)
{
	rt_observe_end(fail);
}

void rt_result_publish(enum rt_fail_kind fail)
{
	if (!rt.result)
		return;
	publish_counts(fail);
	write_outputs(fail);
}

RT_NORETURN void rt_die(void)
{
	fflush(stdout);
	abort(); /* our SIGABRT handler sees rt.reported and chains */
}

/* Every way a failure arrives ends here, once per execution: the trace,
 * the published result, the report, then the files (which a corrupt heap
 * may not let us write). */
/* No libc: a corrupt heap or a signal may be why we are reporting. */
static void copy_detail(char *to, const char *msg, size_t cap)
{
	size_t i = 0;
	for (; msg[i] && i + 1 < cap; i++)
		to[i] = msg[i];
	to[i] = 0;
}

/* Where a failure happened, the same in every process of one binary: the
 * report's site as an offset into the executable; for a deadlock, the
 * sites where its threads wait, in whatever order they blocked. */
static uint64_t failure_site(enum rt_fail_kind kind, const void *site)
{
	if (kind != F_DEADLOCK)
		return site ? (uint64_t)((uintptr_t)site - rt.exe_bias) : 0;
	uint64_t sum = 0;
	for (int i = 0; i < rt.nthreads; i++) {
		const struct rt_thread *t = &rt.threads[i];
		if (t->state == T_LIVE && t->wait != W_NONE) {
			uint64_t at = (uint64_t)((uintptr_t)t->wait_site - rt.exe_bias);
			sum += cov_hash64(&at, sizeof at, 0);
		}
	}
	return sum;
}

static void report_once(enum rt_fail_kind kind, const void *site, const char *msg)
{
	rt.reported = true; /* first: a failure while reporting must not report again */
	rt_observe_fail(kind, site, msg);
	if (rt.result) {
		publish_counts(kind);
		copy_detail(rt.result->detail, msg, sizeof rt.result->detail);
		rt.result->site = failure_site(kind, site);
	}
	report(kind, site, msg);
	if (rt.result)
		write_outputs(kind);
}

void rt_fail(enum rt_fail_kind kind, const void *site, const char *fmt, ...)
{
	if (!rt.reported) {
		char msg[1024];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		report_once(kind, site, msg);
	}
	rt_die();
}

void rt_report_foreign_at(enum rt_fail_kind kind, const void *site, const char *msg)
{
	if (rt_self && rt.active && !rt.reported)
		report_once(kind, site, msg);
}

void rt_report_foreign(enum rt_fail_kind kind, const char *msg)
{
	rt_report_foreign_at(kind, NULL, msg);
}

void rt_fail_deadlock(void)
{
	int blocked = 0;
	for (int i = 0; i < rt.nthreads; i++)
		blocked += rt.threads[i].state == T_LIVE;
	rt_fail(F_DEADLOCK, NULL, "no thread can run and %d %s blocked", blocked,
		blocked == 1 ? "is" : "are");
}

RT_INTERPOSE void __assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
	if (rt_self && rt.active) {
		const char *base = strrchr(file, '/');
		rt_fail(F_ASSERT, NULL, "'%s' in %s (%s:%u)", expr, func, base ? base + 1 : file, line);
	}
	REAL(assert_fail)(expr, file, line, func);
}

RT_INTERPOSE void exit(int status)
{
	struct rt_thread *self = rt_self;
	if (self && rt.active) {
		if (status != 0 && rt.result)
			rt.result->exit_code = status; /* the program's, not a setup error */
		if (status != 0 && !rt_exit_ok(status)) {
			rt_fail(F_EXIT, RT_CALLER(), "exit(%d)", status);
		}
		if (!rt.harness)
			rt_exit_point(self, RT_CALLER());
	}
	REAL(exit)(status);
}
