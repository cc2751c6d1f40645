/* reads_from.c - the reads-from feature: which write each read saw.
 *
 * A feature is (the read's site, the site of the write it read from, was
 * that write another thread's). It is what RFF's feedback keeps: a schedule
 * that made one read see a new write has got part of an ordering right, and
 * mutating it may complete the rest. HaPSet sees only the event right
 * before; MAP only short windows; reads-from sees the write a read's value
 * came from, however long ago.
 *
 * The write is the last one to the read's granule in this execution (the
 * per-object table, reset per execution). A read before any write to its
 * bytes reads the initial value: write site 0, never remote. The bound: one
 * write per granule is remembered, so a later write to other bytes of the
 * granule hides an earlier one to the read's bytes (the read then counts as
 * reading the initial value). Cost per access: a few stores for a write;
 * for a read, one hash and one probe of the execution's seen-set. */
#include "cov_hash.h"
#include "cov_internal.h"

uint64_t cov_reads_from_hash(uint32_t read_site, uint32_t write_site, bool remote)
{
	const uint32_t id[4] = { 0x52644672u /* "RdFr" */, read_site, write_site, remote };
	return cov_hash64(id, sizeof id, 0);
}

void cov_reads_from_access(struct cov_state *s, struct cov_cell *c, const struct cov_event *ev,
			   uint8_t mask)
{
	if (ev->op == COV_WRITE) {
		c->w_site = ev->site;
		c->w_tid = ev->tid;
		c->w_mask = mask;
		return;
	}
	bool seen = (c->w_mask & mask) != 0;
	struct cov_feature f = { .kind = COV_READS_FROM, .nsteps = 2, .nvars = 1 };
	f.site[0] = seen ? c->w_site : 0;
	f.site[1] = ev->site;
	f.remote = seen && c->w_tid != ev->tid;
	f.var[0] = c->key;
	f.write[0] = 1;
	f.hash = cov_reads_from_hash(f.site[1], f.site[0], f.remote);
	cov_emit(s, &f);
}
