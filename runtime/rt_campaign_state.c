/* rt_campaign_state.c - `schedfuzz run --state FILE`: a guided campaign
 * kept between runs, whatever its number of jobs (rt_jobs.c).
 *
 * The file holds what the next run needs to go on rather than start over:
 * each job's schedule index (its seed stream goes on where it stopped, so
 * no plan runs twice), the union of the features seen (a schedule is new
 * only if no earlier run showed its features), the corpus the jobs kept
 * (imported by every job of the next run, not run again), the estimates
 * plans are drawn from, and the findings by kind and site with their
 * counts and inputs (one already saved is counted, not saved again).
 * A run with more jobs than the file had starts the new ones at index 0.
 * Layout: a magic line, a header of sizes (a file of another layout is
 * refused), then those parts in that order; written whole to a temporary
 * name and renamed, so that a stopped run never leaves half a file. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_jobs.h"

static const char magic[16] = "schedfuzz-camp1\n";

struct header {
	uint32_t njobs;
	uint32_t nfindings;
	uint64_t seed;
	uint64_t est_size, finding_size, seen_size;
	uint64_t log_count, log_used;
};

static bool get(FILE *f, void *p, size_t n)
{
	return fread(p, 1, n, f) == n;
}

bool rt_campaign_load(struct rt_campaign *cp, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", path, strerror(errno));
		return false;
	}
	char m[sizeof magic];
	struct header h;
	const char *why = NULL;
	if (!get(f, m, sizeof m) || memcmp(m, magic, sizeof m) != 0)
		why = "not a state of schedfuzz run's explorer (a systematic search keeps its own: "
		      "give it with the same --strategy)";
	else if (!get(f, &h, sizeof h))
		why = "cut short";
	else if (h.est_size != sizeof(struct sf_estimates) ||
		 h.finding_size != sizeof(struct rt_finding) || h.seen_size != sizeof cp->seen ||
		 h.njobs > RT_MAX_JOBS || h.nfindings > RT_MAX_FINDINGS || h.log_used > cp->log_cap)
		why = "written by another version of schedfuzz";
	for (uint32_t j = 0; !why && j < h.njobs; j++) {
		uint64_t index;
		if (!get(f, &index, sizeof index)) {
			why = "cut short";
			break;
		}
		cp->before += index;
		if (j < cp->njobs)
			cp->jobs[j].first = cp->jobs[j].schedules = index;
	}
	if (!why && !(get(f, &cp->loaded_est, sizeof cp->loaded_est) &&
		      get(f, cp->seen, sizeof cp->seen) &&
		      get(f, cp->findings, h.nfindings * sizeof cp->findings[0]) &&
		      get(f, cp->log, h.log_used)))
		why = "cut short";
	fclose(f);
	if (why) {
		fprintf(stderr, "schedfuzz: --state %s: %s\n", path, why);
		return false;
	}
	/* Every job of this run imports the entries: none is anyone's. */
	uint64_t at = 0;
	for (uint32_t i = 0; i < h.log_count; i++) {
		struct rt_log_entry *e = (struct rt_log_entry *)(cp->log + at);
		uint64_t next = at + ((sizeof *e + (uint64_t)e->size + 7) & ~7ull);
		if (next > h.log_used) {
			fprintf(stderr, "schedfuzz: --state %s: its corpus is cut short\n", path);
			return false;
		}
		e->job = -1;
		at = next;
	}
	cp->log_used = at;
	cp->log_count = (uint32_t)h.log_count;
	for (uint32_t i = 0; i < h.nfindings; i++)
		if (cp->findings[i].state == FINDING_CLAIMED) /* a run stopped while keeping it */
			cp->findings[i].state = FINDING_UNSAVED;
	cp->resumed = 1;
	return true;
}

bool rt_campaign_save(const struct rt_campaign *cp, const char *path)
{
	struct header h = {
		.njobs = cp->njobs,
		.nfindings = RT_MAX_FINDINGS,
		.seed = cp->seed,
		.est_size = sizeof(struct sf_estimates),
		.finding_size = sizeof(struct rt_finding),
		.seen_size = sizeof cp->seen,
		.log_count = cp->log_count,
		.log_used = cp->log_used,
	};
	struct sf_estimates est = cp->loaded_est;
	for (uint32_t j = 0; j < cp->njobs; j++)
		sf_estimates_merge(&est, &cp->jobs[j].est);
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp-%d", path, (int)getpid());
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(magic, sizeof magic, 1, f) == 1 && fwrite(&h, sizeof h, 1, f) == 1;
	for (uint32_t j = 0; ok && j < cp->njobs; j++)
		ok = fwrite(&cp->jobs[j].schedules, sizeof cp->jobs[j].schedules, 1, f) == 1;
	ok = ok && fwrite(&est, sizeof est, 1, f) == 1 &&
	     fwrite(cp->seen, sizeof cp->seen, 1, f) == 1 &&
	     fwrite(cp->findings, sizeof cp->findings, 1, f) == 1 &&
	     (!cp->log_used || fwrite(cp->log, cp->log_used, 1, f) == 1);
	if (f && fclose(f) != 0)
		ok = false;
	int e = errno;
	if (ok && rename(tmp, path) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		if (f)
			unlink(tmp);
		fprintf(stderr, "schedfuzz: cannot write the state %s: %s\n", path, strerror(e));
	}
	return ok;
}
