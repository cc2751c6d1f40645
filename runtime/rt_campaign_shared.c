/* rt_campaign_shared.c - what the jobs of a campaign (rt_jobs.c) hand each
 * other while they run: the findings by kind and site and the data races
 * by pair of sites, each kept by the job that claimed it first, the
 * terminal for one report at a time, the log of the corpus entries each
 * kept, and the estimates plans are drawn from. All of it lives in the
 * campaign's shared memory and is taken with atomics: a job may be
 * killed at any moment, and none may wait on a lock a dead one holds. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_libc.h"
#include "cov_hash.h"
#include "rt_internal.h"
#include "rt_jobs.h"

static void pause_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* ---- findings --------------------------------------------------------------------- */

/* Where a failure happened, as far as it tells bugs apart: the words of
 * an assertion, a sanitizer's summary or an exit name their site; a
 * signal, a misuse or a deadlock its program site (rt_result.site); a
 * hang is one finding wherever the clock stopped it. */
uint64_t rt_finding_key(const struct rt_child *c, const struct rt_result *r)
{
	uint32_t kind = r->fail < F_COUNT ? r->fail : F_COUNT;
	uint64_t h = cov_hash64(&kind, sizeof kind, 0x66696e64ull /* "find" */);
	switch (kind) {
	case F_ASSERT:
	case F_SANITIZER:
	case F_LEAK:
	case F_EXIT:
		h = cov_hash64(r->detail, strnlen(r->detail, sizeof r->detail), h ^ r->site);
		break;
	case F_HANG:
		break;
	case F_NONE:
	case F_COUNT: {
		const char *what = rt_describe_child(c, r);
		h = cov_hash64(what, strlen(what), h);
		break;
	}
	default:
		h = cov_hash64(&r->site, sizeof r->site, h);
	}
	return h ? h : 1;
}

struct rt_finding *rt_campaign_finding(struct rt_campaign *cp, uint64_t key, uint32_t kind,
				       const char *what, bool *first)
{
	*first = false;
	for (int i = 0; i < RT_MAX_FINDINGS; i++) {
		struct rt_finding *f = &cp->findings[i];
		uint64_t k = __atomic_load_n(&f->key, __ATOMIC_ACQUIRE);
		if (k == 0) {
			uint64_t expected = 0;
			if (__atomic_compare_exchange_n(&f->key, &expected, key, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				f->kind = kind;
				f->keeper = getpid();
				snprintf(f->what, sizeof f->what, "%s", what);
				__atomic_store_n(&f->state, FINDING_CLAIMED, __ATOMIC_RELEASE);
				__atomic_fetch_add(&f->count, 1, __ATOMIC_RELAXED);
				*first = true;
				return f;
			}
			k = expected; /* another job took the slot meanwhile */
		}
		if (k == key) {
			__atomic_fetch_add(&f->count, 1, __ATOMIC_RELAXED);
			return f;
		}
	}
	return NULL;
}

uint32_t rt_campaign_finding_state(const struct rt_campaign *cp, const struct rt_finding *f,
				   bool now)
{
	uint32_t state;
	while ((state = __atomic_load_n(&f->state, __ATOMIC_ACQUIRE)) == FINDING_CLAIMED && !now) {
		if (cp->stop_signal)
			break;
		if (f->keeper > 0 && kill(f->keeper, 0) != 0 && errno == ESRCH)
			return FINDING_UNSAVED; /* its job ended before it was kept */
		pause_ms(5);
	}
	return state;
}

/* A data race is a finding of its own kind, keyed by its pair of sites
 * (the race key, the same in every process), apart from the failures. */
static uint64_t race_finding_key(uint64_t race_key)
{
	uint64_t h = cov_hash64(&race_key, sizeof race_key, 0x72616365ull /* "race" */);
	return h ? h : 1;
}

bool rt_campaign_race_first(uint64_t key)
{
	if (!rt_campaign_current)
		return true;
	char what[64];
	snprintf(what, sizeof what, "data race %016" PRIx64, key);
	bool first;
	struct rt_finding *f = rt_campaign_finding(rt_campaign_current, race_finding_key(key),
						   RT_FINDING_RACE, what, &first);
	return !f || first; /* a full table: every job keeps its own */
}

void rt_campaign_race_saved(uint64_t key, const char *path)
{
	if (!rt_campaign_current)
		return;
	uint64_t k = race_finding_key(key);
	for (int i = 0; i < RT_MAX_FINDINGS; i++) {
		struct rt_finding *f = &rt_campaign_current->findings[i];
		if (__atomic_load_n(&f->key, __ATOMIC_ACQUIRE) != k)
			continue;
		snprintf(f->path, sizeof f->path, "%s", path);
		__atomic_store_n(&f->state, FINDING_SAVED, __ATOMIC_RELEASE);
		return;
	}
}

/* The terminal to one job's report at a time: a report, its replay and
 * its probes are many lines. A job that died holding it frees it. */
void rt_campaign_report_begin(struct rt_campaign *cp)
{
	uint32_t me = (uint32_t)getpid();
	for (;;) {
		uint32_t holder = 0;
		if (__atomic_compare_exchange_n(&cp->reporting, &holder, me, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		if (kill((pid_t)holder, 0) != 0 && errno == ESRCH)
			__atomic_compare_exchange_n(&cp->reporting, &holder, 0, false,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		pause_ms(5);
	}
}

void rt_campaign_report_end(struct rt_campaign *cp)
{
	fflush(NULL);
	__atomic_store_n(&cp->reporting, 0, __ATOMIC_RELEASE);
}

/* ---- the corpus log --------------------------------------------------------------- */

static void log_lock(struct rt_campaign *cp)
{
	while (__atomic_exchange_n(&cp->log_lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

void rt_campaign_publish(struct rt_campaign *cp, int job, const uint8_t *bytes, size_t size,
			 uint32_t found, bool fixed)
{
	uint64_t need = (sizeof(struct rt_log_entry) + size + 7) & ~7ull;
	log_lock(cp);
	if (size <= UINT32_MAX && cp->log_used + need <= cp->log_cap) {
		struct rt_log_entry *e = (struct rt_log_entry *)(cp->log + cp->log_used);
		*e = (struct rt_log_entry){ .size = (uint32_t)size, .job = job, .found = found,
					    .fixed = fixed };
		memcpy(e + 1, bytes, size);
		cp->log_used += need;
		__atomic_store_n(&cp->log_count, cp->log_count + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&cp->log_lock, 0, __ATOMIC_RELEASE);
}

bool rt_campaign_entry(const struct rt_campaign *cp, uint64_t *offset, uint32_t i,
		       const struct rt_log_entry **e, const uint8_t **bytes)
{
	if (i >= __atomic_load_n(&cp->log_count, __ATOMIC_ACQUIRE))
		return false;
	*e = (const struct rt_log_entry *)(cp->log + *offset);
	*bytes = (const uint8_t *)(*e + 1);
	*offset += (sizeof **e + (*e)->size + 7) & ~7ull;
	return true;
}

/* ---- the estimates ---------------------------------------------------------------- */

/* Each job's estimates are in its slot, written by it alone under a
 * sequence count (odd while it writes): a reader copies them and keeps the
 * copy only if the count was even and the same before and after. A job
 * killed while writing leaves its count odd and is passed over. What the
 * estimates say only grows (sf_estimates_merge keeps the most of each), so
 * folding the same ones in twice changes nothing. */
static uint32_t merged_seq[RT_MAX_JOBS]; /* each other job's version folded in */

static bool read_estimates(const struct rt_job_slot *s, struct sf_estimates *out, uint32_t *seq)
{
	uint32_t before = __atomic_load_n(&s->est_seq, __ATOMIC_ACQUIRE);
	if (before & 1)
		return false;
	memcpy(out, &s->est, sizeof *out);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	*seq = before;
	return __atomic_load_n(&s->est_seq, __ATOMIC_RELAXED) == before;
}

void rt_campaign_share_estimates(struct rt_campaign *cp, int job, struct sf_estimates *est)
{
	struct rt_job_slot *mine = &cp->jobs[job];
	for (uint32_t j = 0; j < cp->njobs; j++) {
		const struct rt_job_slot *s = &cp->jobs[j];
		if ((int)j == job || __atomic_load_n(&s->est_seq, __ATOMIC_ACQUIRE) == merged_seq[j])
			continue;
		struct sf_estimates theirs;
		uint32_t seq;
		if (read_estimates(s, &theirs, &seq)) {
			sf_estimates_merge(est, &theirs);
			merged_seq[j] = seq;
		}
	}
	if (memcmp(&mine->est, est, sizeof *est) == 0)
		return;
	uint32_t seq = mine->est_seq;
	__atomic_store_n(&mine->est_seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(&mine->est, est, sizeof *est);
	__atomic_store_n(&mine->est_seq, seq + 2, __ATOMIC_RELEASE);
}
