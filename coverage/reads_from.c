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
 * reading the initial value). A feature is also counted: its 2nd, 3rd,
 * 4th, 8th ... 128th occurrence in an execution are features of their own
 * (AFL's hit-count buckets), so that a schedule where two threads took
 * turns one round more than ever before is new. And it is told by
 * occurrence: "the 2nd read at this site by its thread saw the 2nd write at
 * that site by another thread" (up to the 8th of each), so that rounds of
 * a loop are told apart, and a schedule that got one more round in
 * lockstep than any before is new however the threads are numbered.
 * Last, each read's feature with occurrences is chained to the one of the
 * same thread's previous read: "it saw the 1st write, then the 2nd" is a
 * feature that neither half is, so a schedule that got one more step of
 * an ordering right (and kept the steps before) is new.
 * Cost per access: one probe of a (thread, site) count; then a few stores
 * for a write, and for a read three hashes and three probes of the
 * execution's seen-set. */
#include "cov_hash.h"
#include "cov_internal.h"

uint64_t cov_reads_from_hash(uint32_t read_site, uint32_t write_site, bool remote)
{
	const uint32_t id[4] = { 0x52644672u /* "RdFr" */, read_site, write_site, remote };
	return cov_hash64(id, sizeof id, 0);
}

uint64_t cov_reads_from_occ_hash(uint32_t read_site, uint8_t read_occ, uint32_t write_site,
				 uint8_t write_occ, bool remote)
{
	const uint32_t id[4] = { 0x52644f63u /* "RdOc" */, read_site, write_site,
				 (uint32_t)read_occ << 16 | (uint32_t)write_occ << 8 | remote };
	return cov_hash64(id, sizeof id, 0);
}

void cov_reads_from_access(struct cov_state *s, struct cov_cell *c, const struct cov_event *ev,
			   uint8_t mask, uint8_t occ)
{
	if (ev->op == COV_WRITE) {
		c->w_site = ev->site;
		c->w_tid = ev->tid;
		c->w_mask = mask;
		c->w_occ = occ;
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
	cov_emit_counted(s, &f);
	f.count = 0;
	f.occ[0] = seen ? c->w_occ : 0;
	f.occ[1] = occ;
	f.hash = cov_reads_from_occ_hash(f.site[1], f.occ[1], f.site[0], f.occ[0], f.remote);
	cov_emit(s, &f);

	/* And with the thread's previous read: what it saw, in sequence. */
	struct cov_last_read *last = &s->last_read[ev->tid % COV_LAST_READS];
	uint64_t now = f.hash;
	if (last->gen == s->seen.gen && last->tid == ev->tid) {
		f.chained = 1;
		f.hash = cov_hash64(&(uint64_t[2]){ last->hash, now }, 16, 0x436861696eull /* "Chain" */);
		cov_emit(s, &f);
	}
	*last = (struct cov_last_read){ .hash = now, .gen = s->seen.gen, .tid = ev->tid };
}
