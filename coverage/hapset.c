/* hapset.c - learnHaPSets (docs/design/algorithms.md, HaPSet; paper 000
 * section 3).
 *
 * A statement is (site, local/remote, the last c call sites). After every
 * event e_p by thread t on object o, for each other thread u whose last
 * event e_d on o conflicts with e_p, the pair stmt(e_d) [remote] ->
 * stmt(e_p) [local] is a feature.
 *
 * One refinement makes the worked example come out as the paper's: e_d
 * counts only if it happened after t's own previous event on o. An older
 * e_d was already t's predecessor then, so "one more iteration" of a loop
 * adds nothing (the busy-wait example), and in the Fig. 2 runs HaPSet(e3)
 * stays empty while the failing run adds e4 -> e3 and e2 -> e4.
 *
 * Bound: the last events of COV_LAST threads per object (the least recent
 * is forgotten). A thread that was forgotten counts as never having
 * touched the object, so it may relearn an older predecessor. */
#include <string.h>

#include "cov_hash.h"
#include "cov_internal.h"

/* Which later event conflicts with which earlier one (rows: earlier). */
static const uint8_t conflicts[COV_OP_COUNT][COV_OP_COUNT] = {
	[COV_READ] = { [COV_WRITE] = 1 },
	[COV_WRITE] = { [COV_READ] = 1, [COV_WRITE] = 1 },
	[COV_ACQUIRE] = { [COV_ACQUIRE] = 1, [COV_ACQUIRE_SHARED] = 1, [COV_RELEASE] = 1 },
	[COV_ACQUIRE_SHARED] = { [COV_ACQUIRE] = 1 },
	[COV_RELEASE] = { [COV_ACQUIRE] = 1, [COV_RELEASE] = 1 },
	[COV_WAIT] = { [COV_NOTIFY] = 1 },
	[COV_NOTIFY] = { [COV_WAIT] = 1 },
};

uint64_t cov_hapset_pair_hash(uint32_t remote_site, const uint32_t *remote_ctx, uint8_t remote_nctx,
			      uint32_t local_site, const uint32_t *local_ctx, uint8_t local_nctx)
{
	/* Both statements, remote then local; never the object or the
	 * threads. Unused context slots are zero. */
	struct {
		uint32_t tag, remote_site, local_site, nctx;
		uint32_t ctx[2][COV_CTX_MAX];
	} id = { 0x48615053u /* "HaPS" */, remote_site, local_site,
		 (uint32_t)remote_nctx << 8 | local_nctx, { { 0 } } };
	for (int i = 0; i < remote_nctx && i < COV_CTX_MAX; i++)
		id.ctx[0][i] = remote_ctx[i];
	for (int i = 0; i < local_nctx && i < COV_CTX_MAX; i++)
		id.ctx[1][i] = local_ctx[i];
	return cov_hash64(&id, sizeof id, 0);
}

static void emit_pair(struct cov_state *s, const struct cov_last *d, const struct cov_event *p,
		      uintptr_t obj)
{
	uint64_t hash = cov_hapset_pair_hash(d->site, d->ctx, d->nctx, p->site, p->ctx, p->nctx);
	if (!cov_first(s, hash))
		return; /* emitted already: nothing to build */
	struct cov_feature f = { .hash = hash, .kind = COV_HAPSET, .nsteps = 2 };
	f.site[0] = d->site;
	f.site[1] = p->site;
	f.nctx[0] = d->nctx;
	f.nctx[1] = p->nctx;
	for (int i = 0; i < d->nctx && i < COV_CTX_MAX; i++)
		f.ctx[0][i] = d->ctx[i];
	for (int i = 0; i < p->nctx && i < COV_CTX_MAX; i++)
		f.ctx[1][i] = p->ctx[i];
	f.var[0] = obj;
	s->emit(s->arg, &f);
}

void cov_hapset_event(struct cov_state *s, struct cov_cell *c, const struct cov_event *ev,
		      uint8_t mask)
{
	struct cov_last *self = NULL;
	for (int i = 0; i < c->nlast; i++)
		if (c->last[i].tid == ev->tid)
			self = &c->last[i];
	/* Own previous event on other bytes of the granule: not known. */
	uint32_t since = self && (self->mask & mask) ? self->seq : 0;

	for (int i = 0; i < c->nlast; i++) {
		const struct cov_last *d = &c->last[i];
		if (d == self || d->seq <= since || !conflicts[d->op][ev->op])
			continue;
		if (cov_op_is_memory(ev->op) && !(d->mask & mask))
			continue; /* other bytes of the granule */
		emit_pair(s, d, ev, c->key);
	}

	if (!self) {
		if (c->nlast < COV_LAST) {
			self = &c->last[c->nlast++];
		} else {
			self = &c->last[0];
			for (int i = 1; i < COV_LAST; i++)
				if (c->last[i].seq < self->seq)
					self = &c->last[i];
		}
	}
	self->seq = ++c->seq;
	self->site = ev->site;
	self->tid = ev->tid;
	self->op = ev->op;
	self->mask = mask;
	self->nctx = ev->nctx;
	memcpy(self->ctx, ev->ctx, sizeof self->ctx);
}
