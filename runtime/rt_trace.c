/* rt_trace.c - the whole interleaving of one execution, for `schedfuzz
 * replay` (thread lanes, the HTML timeline) and `schedfuzz min`.
 *
 *   SCHEDFUZZ_TRACE=FILE  write every event of the execution, how it ended
 *                         and what it cost in preemptions, to FILE
 *
 * The report's ring keeps the last RT_TRACE_SIZE events; this keeps up to
 * TRACE_CAP (the last ones, when there are more), each with the running
 * thread's innermost call sites. Everything is written as offsets into the
 * executable, so that the reader symbolizes it, and the file is the same
 * in every process that replays the input. The format, one record a line:
 *
 *   schedfuzz-trace 1
 *   plan TEXT                      the schedule, readable
 *   ev STEP TID FLAGS KIND SITE CTX VAR OBJ SIZE
 *        FLAGS: p preemption, s switch, b the thread had to wait first,
 *               t completed by timing out, - none
 *        KIND:  the event's name, spaces as '_'
 *        SITE:  hex offset; CTX: call sites outermost last, comma separated, or -
 *        VAR:   g:OFF | h:SITE+OFF | m:SITE | -   (see rt_var_of)
 *        OBJ:   M1, C2, ... (sync objects by type and number) or -
 *   block STEP TID KIND SITE CTX VAR OBJ   a thread waits: its operation cannot complete
 *   fail KIND SITE MESSAGE          only when the execution failed, then
 *   state TID WAIT SITE CTX VAR OBJ  each unfinished thread: what it waits for
 *                                    (running or runnable if nothing)
 *   decision INDEX TID ORD KIND SITE VALUE pick|choice
 *        a decision that departs from the default, made by thread TID after
 *        ORD events of its own, its next operation being KIND at SITE
 *        ("resume": a wait recorded before; "exit": it just ended); VALUE
 *        the thread picked or the option chosen. Portable reproducers are
 *        anchored by these (fuzz/portable.c).
 *   result fail=KIND steps=N decisions=N preemptions=N threads=N fingerprint=HEX dropped=N
 *
 * Like coverage, this costs time per event, so it runs only when asked. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "rt_anchor.h"
#include "rt_internal.h"
#include "rt_observer.h"

#define TRACE_CAP (1u << 20) /* events kept: a power of two */

struct traced {
	uint64_t step;
	uint32_t site;
	uint32_t ctx[RT_CTX_DEPTH];
	struct rt_var_id var;
	uint32_t obj_id, size;
	uint16_t tid;
	uint8_t kind, flags, nctx, obj_type;
	bool block; /* a "block" record rather than an event */
};

#define OWN_TIDS 4096  /* threads whose own events are counted, by creation number */
#define DECISIONS_CAP (1u << 16)

struct traced_decision {
	uint32_t index, ord, site;
	uint16_t tid, value;
	uint8_t kind;
	bool choice;
};

static struct {
	struct traced *ev; /* ring of TRACE_CAP */
	uint32_t *own;     /* OWN_TIDS: events each thread performed so far */
	struct traced_decision *dec; /* DECISIONS_CAP, the first ones */
	uint32_t ndec;
	uint64_t n;        /* records so far this execution */
	bool failed;
	enum rt_fail_kind kind;
	uint32_t fail_site;
	char msg[1024];
} tr;

/* The trace file, open from the first execution on (rt_outfile.c). */
static int trace_fd = -1;

static void trace_begin(void)
{
	rt.trace_on = rt.cfg.trace_path != NULL;
	if (!rt.trace_on)
		return;
	if (rt_outfile_open(rt.cfg.trace_path, &trace_fd) != 0) {
		rt.trace_on = false;
		return;
	}
	if (!tr.ev) {
		tr.ev = mmap(NULL, TRACE_CAP * sizeof *tr.ev, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (tr.ev == MAP_FAILED) {
			tr.ev = NULL;
			rt.trace_on = false;
			return;
		}
	}
	if (!tr.own) {
		tr.own = mmap(NULL, OWN_TIDS * sizeof *tr.own + DECISIONS_CAP * sizeof *tr.dec,
			      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (tr.own == MAP_FAILED) {
			tr.own = NULL;
			rt.trace_on = false;
			return;
		}
		tr.dec = (struct traced_decision *)(tr.own + OWN_TIDS);
	}
	rt_memset(tr.own, 0, OWN_TIDS * sizeof *tr.own);
	tr.ndec = 0;
	tr.n = 0;
	tr.failed = false;
}

static struct traced *next_record(struct rt_thread *self, uint32_t site, uintptr_t addr,
				  struct rt_obj *obj)
{
	struct traced *t = &tr.ev[tr.n++ & (TRACE_CAP - 1)];
	t->step = rt.step;
	t->tid = (uint16_t)self->tid;
	t->site = site;
	/* The outermost frame was entered from the runtime: leave it out. */
	t->nctx = (uint8_t)rt_ctx_count(self, 1, RT_CTX_DEPTH);
	for (uint32_t i = 0; i < t->nctx; i++)
		t->ctx[i] = rt_stable_site(rt_ctx_site(self, i));
	t->obj_id = obj ? obj->id : 0;
	t->obj_type = obj ? obj->type : O_COUNT;
	uintptr_t where = obj ? obj->addr : addr;
	t->var = where ? rt_var_of(where, site) : (struct rt_var_id){ 0 };
	return t;
}

static void trace_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, struct rt_obj *obj,
		    uint32_t size, const void *site, uint8_t flags)
{
	struct traced *t = next_record(self, rt_stable_site(site), addr, obj);
	if (self->tid < OWN_TIDS)
		tr.own[self->tid]++;
	t->block = false;
	t->kind = (uint8_t)ev;
	t->size = size;
	t->flags = flags;
	if (self->waited)
		t->flags |= RT_EVF_WAITED;
	if (self->timed_out)
		t->flags |= RT_EVF_TIMEOUT;
	self->waited = false;
}

static void mark_spurious(void)
{
	if (rt.trace_on && tr.n)
		tr.ev[(tr.n - 1) & (TRACE_CAP - 1)].flags |= RT_EVF_SPURIOUS;
}

static void trace_block(struct rt_thread *self, enum rt_ev ev, struct rt_obj *obj, const void *site)
{
	struct traced *t = next_record(self, rt_stable_site(site), 0, obj);
	t->block = true;
	t->kind = (uint8_t)ev;
	t->size = 0;
	t->flags = 0;
	self->waited = true;
}

static void trace_decision(const struct rt_decision *dec)
{
	struct rt_thread *self = rt_self;
	if (!dec->departs || !self || tr.ndec == DECISIONS_CAP)
		return; /* the trace keeps what an explicit genome keeps */
	struct traced_decision *d = &tr.dec[tr.ndec++];
	d->index = dec->index;
	d->tid = (uint16_t)self->tid;
	d->ord = self->tid < OWN_TIDS ? tr.own[self->tid] : UINT32_MAX;
	d->kind = self->pend_ev;
	d->site = rt_stable_site(self->pend_site);
	d->value = (uint16_t)(dec->choice ? dec->value : rt.threads[dec->value].tid);
	d->choice = dec->choice;
}

static void trace_fail(enum rt_fail_kind kind, const void *site, const char *msg)
{
	if (!rt.trace_on)
		return;
	tr.failed = true;
	tr.kind = kind;
	tr.fail_site = site ? rt_stable_site(site) : 0;
	snprintf(tr.msg, sizeof tr.msg, "%s", msg);
	for (char *c = tr.msg; *c; c++)
		if (*c == '\n')
			*c = ' ';
}

/* A name as one word: spaces become '_'. */
static void put_word(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ' ' ? '_' : *s, f);
}

static void put_where(FILE *f, const struct traced *t)
{
	fprintf(f, " %" PRIx32 " ", t->site);
	if (!t->nctx)
		fputc('-', f);
	for (int i = 0; i < t->nctx; i++)
		fprintf(f, "%s%" PRIx32, i ? "," : "", t->ctx[i]);
	switch (t->var.kind) {
	case 'h':
		fprintf(f, " h:%" PRIx32 "+%" PRIu32, t->var.a, t->var.b);
		break;
	case 'g':
	case 'm':
		fprintf(f, " %c:%" PRIx32, t->var.kind, t->var.a);
		break;
	default:
		fputs(" -", f);
	}
	if (t->obj_type < O_COUNT)
		fprintf(f, " %c%" PRIu32, rt_otype_letters[t->obj_type], t->obj_id);
	else
		fputs(" -", f);
}

static void write_states(FILE *f)
{
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *th = &rt.threads[i];
		if (th->state != T_LIVE)
			continue;
		struct traced t = { 0 };
		t.site = rt_stable_site(th->wait ? th->wait_site : th->site);
		t.obj_type = th->wobj ? th->wobj->type : O_COUNT;
		t.obj_id = th->wobj ? th->wobj->id : 0;
		if (th->wobj)
			t.var = rt_var_of(th->wobj->addr, t.site);
		const char *what = th->wait ? rt_wait_names[th->wait] : th == rt.running ? "running" : "runnable";
		fprintf(f, "state %d ", th->tid);
		put_word(f, what);
		put_where(f, &t);
		fputc('\n', f);
	}
}

/* Called as the execution ends, either way. A main() that returns or
 * exits ends it once, but its exit handlers still run under control and
 * may fail after that (a pool's destructor): a passing end leaves the
 * trace on, and a failure there writes it again with their steps, so
 * that it numbers steps as the report does. */
static void trace_end(enum rt_fail_kind fail)
{
	if (!rt.trace_on)
		return;
	if (fail != F_NONE) {
		rt.trace_on = false;
		rt_observers_changed();
	}
	/* stdio's copies are not the program's accesses */
	struct rt_thread *self = rt_own_work_begin();
	FILE *f = rt_outfile_rewrite(rt.cfg.trace_path, &trace_fd, "w");
	if (!f) {
		rt_own_work_end(self);
		return;
	}
	char plan[1024];
	sf_plan_format(&rt.plan, plan, sizeof plan);
	if (rt_anchors_on)
		snprintf(plan, sizeof plan, "portable (decisions anchored to source lines)");
	fprintf(f, "schedfuzz-trace 1\nplan %s\n", plan);
	uint64_t first = tr.n > TRACE_CAP ? tr.n - TRACE_CAP : 0;
	for (uint64_t i = first; i < tr.n; i++) {
		const struct traced *t = &tr.ev[i & (TRACE_CAP - 1)];
		if (t->block) {
			fprintf(f, "block %" PRIu64 " %u ", t->step, t->tid);
			put_word(f, rt_ev_names[t->kind]);
			put_where(f, t);
			fputc('\n', f);
			continue;
		}
		char flags[8], *p = flags;
		if (t->flags & RT_EVF_PREEMPT)
			*p++ = 'p';
		if (t->flags & RT_EVF_SWITCH)
			*p++ = 's';
		if (t->flags & RT_EVF_WAITED)
			*p++ = 'b';
		if (t->flags & RT_EVF_TIMEOUT)
			*p++ = 't';
		if (t->flags & RT_EVF_SPURIOUS)
			*p++ = 'w';
		if (p == flags)
			*p++ = '-';
		*p = 0;
		fprintf(f, "ev %" PRIu64 " %u %s ", t->step, t->tid, flags);
		put_word(f, rt_ev_names[t->kind]);
		put_where(f, t);
		fprintf(f, " %" PRIu32 "\n", t->size);
	}
	if (tr.failed) {
		fprintf(f, "fail ");
		put_word(f, rt_fail_names[tr.kind]);
		fprintf(f, " %" PRIx32 " %s\n", tr.fail_site, tr.msg);
	}
	if (tr.failed)
		write_states(f);
	for (uint32_t i = 0; i < tr.ndec; i++) {
		const struct traced_decision *d = &tr.dec[i];
		fprintf(f, "decision %" PRIu32 " %u %" PRIu32 " ", d->index, d->tid, d->ord);
		put_word(f, d->kind < EV_COUNT ? rt_ev_names[d->kind] : "resume");
		fprintf(f, " %" PRIx32 " %u %s\n", d->site, d->value, d->choice ? "choice" : "pick");
	}
	fprintf(f, "result fail=");
	put_word(f, rt_fail_names[fail]);
	fprintf(f, " steps=%" PRIu64 " decisions=%" PRIu64 " preemptions=%" PRIu64
		   " threads=%d fingerprint=%016" PRIx64 " dropped=%" PRIu64 "\n",
		rt.step, rt.ndecisions, rt.preemptions, rt.ncreated, rt.fingerprint, first);
	fclose(f);
	rt_own_work_end(self);
}

static bool trace_on(void)
{
	return rt.trace_on;
}

static void trace_sync(struct rt_thread *self, const struct rt_obj *obj, enum rt_sync what)
{
	(void)self, (void)obj;
	if (what == RT_SYNC_SPURIOUS)
		mark_spurious();
}

const struct rt_observer rt_trace_observer = {
	.name = "trace",
	.on = trace_on,
	.begin = trace_begin,
	.event = trace_event,
	.decision = trace_decision,
	.block = trace_block,
	.sync = trace_sync,
	.fail = trace_fail,
	.end = trace_end,
};
