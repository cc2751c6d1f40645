/* rt_own_first.c - which first touches are scheduling points: the first
 * claim of untouched memory by each access site, once per execution.
 *
 * The accesses that matter to a bug are often a thread's first accesses
 * to memory no other thread has touched yet (an object it just allocated
 * and fills in, a zeroed flag), and the ownership model makes them points
 * only once a second thread has touched that memory, which is too late.
 * Here each site's first claim in an execution is a point: a point
 * inside a thread's private initialisation, wherever it has new code,
 * at a cost bounded by the program's sites, not by the memory it touches
 * (a loop over a buffer claims thousands of granules from one site).
 *
 * The rule reads nothing but the execution itself (which sites claimed
 * memory before, in this execution, in order), so an input replays the
 * same points in a fresh process. The table is bounded by a count
 * (RT_OWN_FIRST_SITES), never by where addresses hash, so that a program
 * loaded at another address sees the same points.
 *
 * SCHEDFUZZ_FIRST_TOUCH=N: the first N claims of each site are points
 * (default 1; 0 turns the rule off; a large N makes nearly every claimed
 * granule a point, for measuring). */
#include "rt_own.h"

#define RT_OWN_FIRST_SITES 4096u  /* sites with points left, per execution */
#define SLOTS (2 * RT_OWN_FIRST_SITES) /* open addressing, half full at most */

struct site_slot {
	uintptr_t site;
	uint32_t epoch; /* the execution that used the slot */
	uint32_t claims;
};

static struct site_slot slots[SLOTS];
static uint32_t epoch, used;
static uint64_t per_site = 1;

void rt_own_first_begin(void)
{
	static bool read_env;
	if (!read_env) {
		read_env = true;
		per_site = rt_env_u64("SCHEDFUZZ_FIRST_TOUCH", 1);
	}
	/* A new epoch empties the table in O(1); on its wrap, for real. */
	if (++epoch == 0) {
		rt_memset(slots, 0, sizeof slots);
		epoch = 1;
	}
	used = 0;
}

bool rt_own_first_touch(const void *site)
{
	if (per_site == 0)
		return false;
	uintptr_t s = (uintptr_t)site;
	uint32_t i = (uint32_t)((s >> 1) * 0x9E3779B97F4A7C15ull >> 40) & (SLOTS - 1);
	for (;; i = (i + 1) & (SLOTS - 1)) {
		struct site_slot *e = &slots[i];
		if (e->epoch != epoch) { /* a site not seen in this execution */
			if (used == RT_OWN_FIRST_SITES)
				return false;
			used++;
			*e = (struct site_slot){ .site = s, .epoch = epoch, .claims = 1 };
			return true;
		}
		if (e->site == s) {
			if (e->claims >= per_site)
				return false;
			e->claims++;
			return true;
		}
	}
}
