/* rt_jobs.h - one campaign of `schedfuzz run`, explored by one job or by
 * several at once (--jobs N, rt_jobs.c; what the jobs hand each other as
 * they run, rt_campaign_shared.c), and kept in a state file (--state,
 * rt_campaign_state.c).
 *
 * What the jobs share lives in memory mapped before they are forked: the
 * union of the features every schedule showed, the corpus entries each
 * job kept (an append-only log the others import from), the estimates
 * plans are drawn from (each job's, which the others fold into theirs),
 * the findings by kind and site and the data races by pair of sites
 * (each saved and replayed by the job that claimed it first), the budget,
 * and each job's counters for progress and the summary. One job (the default) runs in the explorer's own process and
 * uses the same memory, so that a run of one job is the run it always was. */
#ifndef SCHEDFUZZ_RT_JOBS_H
#define SCHEDFUZZ_RT_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generate.h"
#include "rt_guide.h"

#define RT_MAX_JOBS 256
#define RT_MAX_FINDINGS 512 /* failures by kind and site, and data races by pair */

struct rt_child;
struct rt_result;

/* What a guide did, summed over the jobs for the summary (rt_guide.c). */
struct rt_guide_counts {
	uint64_t corpus, loaded;
	uint64_t runs[4], wins[4]; /* by arm: loaded, explored, mutated, reversed */
};

/* One job's counters, written by that job only. */
struct rt_job_slot {
	int pid;
	uint32_t done;        /* it ended (its counters are final) */
	uint64_t first;       /* its schedule index when this run started (resumed) */
	uint64_t schedules;   /* its schedule index now: first + run in this run */
	uint64_t failures;    /* failures it counted (kept or claimed by another job) */
	uint64_t independent; /* failures that do not depend on the interleaving */
	uint32_t threads;     /* the most threads one of its schedules had */
	uint32_t est_seq;     /* est's version: odd while the job writes it */
	struct sf_estimates est; /* what its executions (and the others') showed so far */
	struct rt_guide_counts guide;
};

/* A failure by kind and site, saved once by the job that claimed it. */
struct rt_finding {
	uint64_t key;    /* 0: a free slot; written once, by the claim */
	uint32_t kind;   /* enum rt_fail_kind (F_COUNT: seen outside the runtime), or
			  * RT_FINDING_RACE */
	uint32_t state;  /* FINDING_*: claimed, then saved or unsaved */
	int32_t keeper;  /* the process of the job that claimed it */
	uint64_t count;  /* schedules that ended in it, in every run of the campaign */
	char what[200];  /* how it failed, as the report's title says it */
	char path[1024]; /* where its input is */
};

struct rt_campaign {
	uint32_t njobs;
	uint64_t runs;                  /* this run's budget of schedules, in all */
	uint64_t claimed;               /* schedules begun in this run, in all */
	uint64_t seed;                  /* --seed: each job's stream derives from it */
	uint32_t stop;                  /* a signal, or the failure that ends the run */
	int32_t stop_signal;            /* the signal that stopped it, if one did */
	uint32_t reporting;             /* pid of the job whose report has the terminal */
	uint32_t resumed;               /* from a state file */
	uint64_t before;                /* schedules of the campaign's earlier runs */
	struct sf_estimates loaded_est; /* what they showed (the state's) */
	uint64_t start_ms;
	uint64_t seen[RT_GUIDE_BITS / 64]; /* the union of every schedule's features */
	struct rt_finding findings[RT_MAX_FINDINGS];
	struct rt_job_slot jobs[RT_MAX_JOBS];
	/* The corpus log: entries appended under log_lock, published by
	 * log_count (release); each an rt_log_entry followed by its bytes. */
	uint32_t log_lock;
	uint32_t log_count;
	uint64_t log_used, log_cap;
	uint8_t *log; /* mapped beside this struct, shared as well */
};

struct rt_log_entry {
	uint32_t size;  /* bytes that follow */
	int32_t job;    /* who kept it; -1: the state file */
	uint32_t found; /* features it was the first to show */
	uint32_t fixed; /* an explicit list of the reversal arm: never mutated */
};

enum { FINDING_CLAIMED = 1, FINDING_SAVED, FINDING_UNSAVED, FINDING_INDEPENDENT };
#define RT_FINDING_RACE 0x72616365u /* a finding's kind: a data race, not a failure */

/* The campaign this process explores (NULL in a replay or a fuzzer). */
extern struct rt_campaign *rt_campaign_current;

/* The campaign of this explorer: SCHEDFUZZ_JOBS jobs (0: the CPUs this
 * process may use), runs schedules in all, loaded from SCHEDFUZZ_STATE if
 * it names a file. NULL after one line on stderr if it cannot be had. */
struct rt_campaign *rt_campaign_create(uint64_t runs, uint64_t seed);
/* Job j's seed: --seed itself for job 0, so that one job runs the
 * schedules a run always ran. */
uint64_t rt_campaign_job_seed(const struct rt_campaign *cp, unsigned job);
/* Take the next schedule of the budget: false when it is spent or the
 * campaign is stopping. *ticket is its number in this run, from 0. */
bool rt_campaign_claim(struct rt_campaign *cp, uint64_t *ticket);
void rt_campaign_stop(struct rt_campaign *cp);
bool rt_campaign_stopping(const struct rt_campaign *cp);

/* Forks the jobs (more than one): returns the job's index in each job,
 * and -1 in the explorer's process once every job has ended, having shown
 * progress meanwhile. */
int rt_campaign_fork(struct rt_campaign *cp);
/* The explorer's process after rt_campaign_fork: the summary of every
 * job's work, the state saved; the exit status of the run. */
int rt_campaign_finish(struct rt_campaign *cp, bool keep_going);

/* SIGINT and SIGTERM stop the campaign: the running schedule is killed
 * and passed over, a failure being kept is kept first. */
void rt_campaign_signals(struct rt_campaign *cp);
/* In a schedule's child: the dispositions the program would have had. */
void rt_campaign_child_signals(void);
/* The schedule now running (0: none), which a stop kills; while a failure
 * is being kept (saved, probed, replayed), a stop waits for it to end. */
void rt_campaign_running(int pid);
void rt_campaign_keeping(bool keeping);

/* What tells failures apart: their kind and their site. */
uint64_t rt_finding_key(const struct rt_child *c, const struct rt_result *r);
/* The failure ended one more schedule: its slot, and whether this job
 * claimed it first (and is to keep it). NULL when the table is full
 * (every failure is then its own). */
struct rt_finding *rt_campaign_finding(struct rt_campaign *cp, uint64_t key, uint32_t kind,
				       const char *what, bool *first);
/* What became of a finding another job claimed: once it is saved (or
 * found independent of the schedule), unless now, which does not wait. */
uint32_t rt_campaign_finding_state(const struct rt_campaign *cp, const struct rt_finding *f,
				   bool now);
/* The estimates: job's own (est) published for the others, theirs folded
 * into est, each time they changed. A run of one job shares none. */
void rt_campaign_share_estimates(struct rt_campaign *cp, int job, struct sf_estimates *est);

/* Data races in report mode (rt_race_keep.c): the pair named key is this
 * job's to save and replay (true), or another job (or an earlier run of
 * the campaign) has it. Once saved, rt_campaign_race_saved says where.
 * Without a campaign (a replay, a fuzzer), every pair is the caller's. */
bool rt_campaign_race_first(uint64_t key);
void rt_campaign_race_saved(uint64_t key, const char *path);

/* Reports of failures kept, one job at a time on the terminal. */
void rt_campaign_report_begin(struct rt_campaign *cp);
void rt_campaign_report_end(struct rt_campaign *cp);

/* The corpus log: an entry a job kept, for the others; entry i of the log
 * (false past its end). */
void rt_campaign_publish(struct rt_campaign *cp, int job, const uint8_t *bytes, size_t size,
			 uint32_t found, bool fixed);
bool rt_campaign_entry(const struct rt_campaign *cp, uint64_t *offset, uint32_t i,
		       const struct rt_log_entry **e, const uint8_t **bytes);

/* --state (rt_campaign_state.c): load into a fresh campaign, save it. One
 * line on stderr and false when it cannot. */
bool rt_campaign_load(struct rt_campaign *cp, const char *path);
bool rt_campaign_save(const struct rt_campaign *cp, const char *path);

#endif
