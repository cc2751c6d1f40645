/* rt_race_keep.c - the explorer's side of data races in report mode
 * (SCHEDFUZZ_RACES=report): each new pair of sites a schedule raced on is
 * saved as an input (race-HASH), replayed once with its report shown, and
 * the search goes on. A pair is named by its key, the same in every
 * process (rt_race_report.c). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rt_jobs.h"
#include "rt_race.h"

#define KEPT 4096

static uint64_t kept[KEPT];
static uint32_t nkept;
static uint64_t schedules_racing;

enum rt_race_mode rt_race_mode_from_env(void)
{
	const char *m = rt_env_str("SCHEDFUZZ_RACES");
	if (!m || !*m || strcmp(m, "off") == 0)
		return RT_RACES_OFF;
	return strcmp(m, "fail") == 0 ? RT_RACES_FAIL : RT_RACES_REPORT;
}

static bool seen(uint64_t key)
{
	for (uint32_t i = 0; i < nkept; i++)
		if (kept[i] == key)
			return true;
	if (nkept < KEPT)
		kept[nkept++] = key;
	return false;
}

void rt_race_explore_begin(void)
{
	/* Said when asked for (--races, SCHEDFUZZ_RACES), not by default. */
	if (rt_race_mode_from_env() == RT_RACES_OFF || rt_env_u64("SCHEDFUZZ_RACES_DEFAULT", 0))
		return;
	if (rt_openmp_present())
		fprintf(stderr, "schedfuzz: no data race detection in this program: its OpenMP "
				"runtime orders its threads where schedfuzz cannot see\n");
	else if (rt_race_beside_asan())
		fprintf(stderr, "schedfuzz: no data race detection in the ASan mode: its load "
				"and store callbacks cannot tell atomic accesses from plain ones\n");
}

bool rt_race_keep(const struct rt_result *r, bool failed, uint64_t index, const uint8_t *input,
		  size_t size,
		  const char *out, int argc, char **argv, char **envp, struct rt_result *shared,
		  unsigned timeout)
{
	if (!r->races)
		return true;
	schedules_racing++;
	uint64_t key = r->race_key;
	/* A pair another job of the campaign has is that job's to keep. */
	if (!rt_campaign_race_first(key) || seen(key))
		return true;
	char path[4096];
	fprintf(stderr, "schedfuzz: schedule %" PRIu64 " raced: data race %016" PRIx64 "\n", index,
		key);
	if (rt_save_input(out, "race", input, size, path, sizeof path) != 0)
		return false;
	fprintf(stderr, "schedfuzz: input saved to %s\n", path);
	rt_campaign_race_saved(key, path);
	if (failed) { /* the failure's replay, which follows, shows the race too */
		fprintf(stderr, "schedfuzz: the schedule also failed: its replay below shows the race\n");
		return true;
	}
	rt_replay_shown(input, size, path, argc, argv, envp, shared, timeout);
	if (shared->races && shared->race_key == key)
		fprintf(stderr, "schedfuzz: replay reproduced the race (key %016" PRIx64 ")\n", key);
	else
		fprintf(stderr, "schedfuzz: WARNING: the replay did not race the same way: the "
				"program depends on something outside the schedule\n");
	return true;
}

uint32_t rt_race_kept(void)
{
	return nkept;
}

void rt_race_summary(uint64_t runs)
{
	if (nkept)
		fprintf(stderr, "schedfuzz: %" PRIu32 " data race%s (pairs of sites) in %" PRIu64
				" of %" PRIu64 " schedules\n",
			nkept, nkept == 1 ? "" : "s", schedules_racing, runs);
}
