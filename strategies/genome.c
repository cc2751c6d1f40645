/* genome.c - genome format v1: decoding, encoding and printing.
 *
 * Every byte string is a valid genome (total): short inputs read as if
 * padded with zero bytes, every field is read modulo its range, and
 * fields whose zero would be meaningless (k, r, a_i) read 0 as 1. One
 * field is one run of bytes, so flipping a byte changes one parameter
 * (smooth), and sf_genome_encode inverts sf_genome_decode on canonical
 * plans (invertible; docs/design/architecture.md, decision 8). The header
 * has the same size for every kind, so that a mutation of the kind byte
 * never moves the start of the harness's data.
 *
 *   offset size  field
 *   0      1     version. Only v1 exists; any value decodes as v1 and the
 *                encoder writes 1. It is there so that v2 can differ.
 *   1      1     kind: the byte modulo 16 indexes the table below; slots
 *                without a strategy yet decode as random (reserved).
 *                0 random walk, 1 explicit, 2 pct, 3 rpro, 4 pctvb, 5 focus
 *   2      1     depth d = 1 + byte % 8 (priority kinds)
 *   3      1     flags: bit 0 count lock acquisitions only (RPRO's deadlock
 *                mode), bit 1 thread bounding, bit 2 no spurious wakeups
 *                (every kind: a condition wait returns only when signalled,
 *                and asks the strategy nothing), bit 3 fair default
 *                (explicit: see SF_FLAG_FAIR); other bits are ignored
 *   4      8     seed, little endian: every random draw a strategy makes
 *                (random walk decisions; priority tie-breaks, priorities
 *                of threads 8 and up, which waiter a signal wakes)
 *   12     2     explicit: decision count m, clipped to the whole
 *                decisions that follow
 *   14     2     radius r (RPRO), 0 reads as 1
 *   16     4     k: how many counted events one execution has, as
 *                estimated by whoever wrote the genome; 0 reads as 1.
 *                Change points are read modulo k. k is part of the genome,
 *                never learned at run time, so an input decodes the same
 *                way in every process (docs/design/architecture.md,
 *                decision 7): the explorer and the seeds write their
 *                estimate here, and a fuzzer's mutations of it rescale the
 *                change points.
 *   20     8     initial priority keys of threads 0..7 (higher runs first;
 *                ties, and threads 8 and up, are settled by the seed)
 *   28     4*7   change point words: how each kind reads them is in
 *                pct.c, rpro.c and pctvb.c; only the first d-1 are used
 *   56     7     thread bounding: the priority key each change point gives
 *   63     1     v = 1 + byte % 4 (PCTVB; FOCUS: the number of roles)
 *   64     4*4   PCTVB variables (see SF_VAR_* in genome.h); FOCUS: roles,
 *                byte 0 % 8 a start routine, byte 1 % 4 an instance. An
 *                explicit genome may carry a build stamp here instead:
 *                "SFB1", 8 bytes of a build-id, a 4-byte check
 *                (sf_genome_stamp)
 *   80     4*4   PCTVB a_i: estimated accesses to variable i; FOCUS:
 *                estimated events of role i's thread; 0 reads as 1
 *   96     5*m   explicit: m decisions, each a 32-bit decision index then
 *                an 8-bit value. Sorted by index when written by the
 *                encoder; any order decodes (stale or repeated entries are
 *                skipped by the strategy).
 *   ...          the harness's own data
 */
#include "genome.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rng.h"
#include "strategy.h"

enum {
	OFF_VERSION = 0,
	OFF_KIND = 1,
	OFF_DEPTH = 2,
	OFF_FLAGS = 3,
	OFF_SEED = 4,
	OFF_COUNT = 12,
	OFF_RADIUS = 14,
	OFF_K = 16,
	OFF_PRIO = 20,
	OFF_CP = 28,
	OFF_CP_KEY = OFF_CP + 4 * SF_MAX_CP,
	OFF_NVARS = OFF_CP_KEY + SF_MAX_CP,
	OFF_VAR = OFF_NVARS + 1,
	OFF_VAR_ACC = OFF_VAR + 4 * SF_MAX_VARS,
	OFF_END = OFF_VAR_ACC + 4 * SF_MAX_VARS,
};
_Static_assert(OFF_END == SF_GENOME_HEADER, "the header is laid out to the byte");

static const enum sf_kind kind_table[16] = {
	[0] = SF_KIND_RANDOM,
	[1] = SF_KIND_EXPLICIT,
	[2] = SF_KIND_PCT,
	[3] = SF_KIND_RPRO,
	[4] = SF_KIND_PCTVB,
	[5] = SF_KIND_FOCUS,
	/* 6..15 reserved: random until their strategies exist */
};

const char *sf_kind_name(enum sf_kind kind)
{
	static const char *const names[SF_KIND_COUNT] = {
		[SF_KIND_RANDOM] = "random",
		[SF_KIND_EXPLICIT] = "explicit",
		[SF_KIND_PCT] = "pct",
		[SF_KIND_RPRO] = "rpro",
		[SF_KIND_PCTVB] = "pctvb",
		[SF_KIND_FOCUS] = "focus",
	};
	_Static_assert(SF_KIND_COUNT == 6, "name every kind");
	return kind < SF_KIND_COUNT ? names[kind] : "?";
}

bool sf_kind_has_priorities(enum sf_kind kind)
{
	return kind == SF_KIND_PCT || kind == SF_KIND_RPRO || kind == SF_KIND_PCTVB ||
	       kind == SF_KIND_FOCUS;
}

uint32_t sf_focus_role(uint32_t routine, uint32_t instance)
{
	return (routine % SF_FOCUS_ROUTINES) | (instance % SF_FOCUS_INSTANCES) << 8;
}

uint32_t sf_focus_routine(uint32_t role_word)
{
	return (role_word & 0xff) % SF_FOCUS_ROUTINES;
}

uint32_t sf_focus_instance(uint32_t role_word)
{
	return (role_word >> 8 & 0xff) % SF_FOCUS_INSTANCES;
}

static uint64_t load_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void store_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint32_t at_least_one(uint32_t v)
{
	return v ? v : 1;
}

void sf_plan_normalize(struct sf_plan *plan)
{
	plan->version = SF_GENOME_VERSION;
	if (plan->kind >= SF_KIND_COUNT)
		plan->kind = SF_KIND_RANDOM;
	if (plan->depth < 1 || plan->depth > SF_MAX_DEPTH)
		plan->depth = (uint8_t)(1 + (plan->depth + SF_MAX_DEPTH - 1) % SF_MAX_DEPTH);
	plan->flags &= SF_FLAGS_KNOWN;
	plan->radius = (uint16_t)at_least_one(plan->radius);
	plan->k = at_least_one(plan->k);
	if (plan->nvars < 1 || plan->nvars > SF_MAX_VARS)
		plan->nvars = (uint8_t)(1 + (plan->nvars + SF_MAX_VARS - 1) % SF_MAX_VARS);
	for (int i = 0; i < SF_MAX_VARS; i++)
		plan->var_acc[i] = at_least_one(plan->var_acc[i]);
}

size_t sf_genome_decode(const uint8_t *data, size_t size, struct sf_plan *plan)
{
	uint8_t h[SF_GENOME_HEADER] = {0};
	memcpy(h, data, size < sizeof h ? size : sizeof h);

	memset(plan, 0, sizeof *plan);
	plan->version = SF_GENOME_VERSION;
	plan->kind = kind_table[h[OFF_KIND] % 16];
	plan->depth = (uint8_t)(1 + h[OFF_DEPTH] % SF_MAX_DEPTH);
	plan->flags = h[OFF_FLAGS] & SF_FLAGS_KNOWN;
	plan->seed = load_le(h + OFF_SEED, 8);
	plan->radius = (uint16_t)at_least_one((uint32_t)load_le(h + OFF_RADIUS, 2));
	plan->k = at_least_one((uint32_t)load_le(h + OFF_K, 4));
	memcpy(plan->prio, h + OFF_PRIO, SF_PRIO_SLOTS);
	for (int i = 0; i < SF_MAX_CP; i++) {
		plan->cp[i] = (uint32_t)load_le(h + OFF_CP + 4 * i, 4);
		plan->cp_key[i] = h[OFF_CP_KEY + i];
	}
	plan->nvars = (uint8_t)(1 + h[OFF_NVARS] % SF_MAX_VARS);
	for (int i = 0; i < SF_MAX_VARS; i++) {
		plan->var[i] = (uint32_t)load_le(h + OFF_VAR + 4 * i, 4);
		plan->var_acc[i] = at_least_one((uint32_t)load_le(h + OFF_VAR_ACC + 4 * i, 4));
	}

	size_t used = SF_GENOME_HEADER;
	if (plan->kind == SF_KIND_EXPLICIT) {
		uint32_t m = (uint32_t)load_le(h + OFF_COUNT, 2);
		size_t avail = size > SF_GENOME_HEADER ? (size - SF_GENOME_HEADER) / SF_DECISION_BYTES : 0;
		if (m > avail)
			m = (uint32_t)avail;
		plan->ndecisions = m;
		plan->decision_bytes = m ? data + SF_GENOME_HEADER : NULL;
		used += (size_t)m * SF_DECISION_BYTES;
	}
	return used < size ? used : size;
}

struct sf_decision sf_plan_decision(const struct sf_plan *plan, uint32_t i)
{
	const uint8_t *p = plan->decision_bytes + (size_t)i * SF_DECISION_BYTES;
	struct sf_decision d = { (uint32_t)load_le(p, 4), p[4] };
	return d;
}

size_t sf_genome_encode(const struct sf_plan *in, const struct sf_decision *decisions,
			uint32_t n, uint8_t *out, size_t cap)
{
	struct sf_plan plan = *in;
	sf_plan_normalize(&plan);
	uint8_t h[SF_GENOME_HEADER] = {0};
	h[OFF_VERSION] = SF_GENOME_VERSION;
	h[OFF_KIND] = (uint8_t)plan.kind; /* kind_table is the identity on real kinds */
	h[OFF_DEPTH] = (uint8_t)(plan.depth - 1);
	h[OFF_FLAGS] = plan.flags;
	store_le(h + OFF_SEED, plan.seed, 8);
	store_le(h + OFF_RADIUS, plan.radius, 2);
	store_le(h + OFF_K, plan.k, 4);
	memcpy(h + OFF_PRIO, plan.prio, SF_PRIO_SLOTS);
	for (int i = 0; i < SF_MAX_CP; i++) {
		store_le(h + OFF_CP + 4 * i, plan.cp[i], 4);
		h[OFF_CP_KEY + i] = plan.cp_key[i];
	}
	h[OFF_NVARS] = (uint8_t)(plan.nvars - 1);
	for (int i = 0; i < SF_MAX_VARS; i++) {
		store_le(h + OFF_VAR + 4 * i, plan.var[i], 4);
		store_le(h + OFF_VAR_ACC + 4 * i, plan.var_acc[i], 4);
	}
	if (plan.kind != SF_KIND_EXPLICIT)
		n = 0;
	if (n > SF_MAX_DECISIONS)
		n = SF_MAX_DECISIONS;
	store_le(h + OFF_COUNT, n, 2);

	size_t need = SF_GENOME_HEADER + (size_t)n * SF_DECISION_BYTES;
	if (cap >= need) {
		memcpy(out, h, sizeof h);
		for (uint32_t i = 0; i < n; i++) {
			uint8_t *p = out + SF_GENOME_HEADER + (size_t)i * SF_DECISION_BYTES;
			store_le(p, decisions[i].index, 4);
			p[4] = (uint8_t)decisions[i].value;
		}
	}
	return need;
}

enum { STAMP_TAG = 0x31424653u /* "SFB1" */ };

static uint32_t stamp_check(const uint8_t build[8])
{
	uint64_t x = load_le(build, 8) ^ 0x5f3759df9e3779b9ull;
	return (uint32_t)(sf_splitmix64(&x) >> 16);
}

void sf_genome_stamp(uint8_t *genome, size_t size, const uint8_t build[8])
{
	if (size < SF_GENOME_HEADER || kind_table[genome[OFF_KIND] % 16] != SF_KIND_EXPLICIT)
		return;
	store_le(genome + OFF_VAR, STAMP_TAG, 4);
	memcpy(genome + OFF_VAR + 4, build, 8);
	store_le(genome + OFF_VAR + 12, stamp_check(build), 4);
}

bool sf_genome_stamped(const uint8_t *data, size_t size, uint8_t build[8])
{
	if (size < SF_GENOME_HEADER || kind_table[data[OFF_KIND] % 16] != SF_KIND_EXPLICIT ||
	    load_le(data + OFF_VAR, 4) != STAMP_TAG)
		return false;
	memcpy(build, data + OFF_VAR + 4, 8);
	return load_le(data + OFF_VAR + 12, 4) == stamp_check(build);
}

uint64_t sf_derive_seed(uint64_t start_seed, uint64_t index)
{
	uint64_t x = start_seed ^ (index * 0xd1b54a32d192ed03ull);
	return sf_splitmix64(&x);
}
