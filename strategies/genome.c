/* genome.c - genome format v1: decoding, encoding and printing.
 *
 * Every byte string is a valid genome (total), one byte maps to one field
 * (smooth), and sf_genome_encode inverts sf_genome_decode (DESIGN decision 8).
 * Short inputs read as if padded with zero bytes.
 *
 *   offset size  field
 *   0      1     version. Only v1 exists; any value decodes as v1 and the
 *                encoder writes 1. It is there so that v2 can differ.
 *   1      1     kind: the byte modulo 16 indexes the table below; slots
 *                without a strategy yet decode as random (reserved).
 *                0 random walk, 1 explicit decision list.
 *   2      2     reserved for strategy parameters (depth, radius, bounds)
 *   4      8     seed, little endian: the random generator of every
 *                strategy that draws random numbers
 *   12     2     explicit only: decision count m, little endian, clipped to
 *                the whole decisions that follow
 *   14     18    reserved for strategy parameters (change points)
 *   32     5*m   explicit only: m decisions, each a 32-bit little-endian
 *                decision index then an 8-bit value. Sorted by index when
 *                written by the encoder; any order decodes (stale or
 *                repeated entries are skipped by the strategy).
 *   ...          the harness's own data
 */
#include "genome.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rng.h"

static const enum sf_kind kind_table[16] = {
	[0] = SF_KIND_RANDOM,
	[1] = SF_KIND_EXPLICIT,
	/* 2..15 reserved: random until their strategies exist */
};

const char *sf_kind_name(enum sf_kind kind)
{
	static const char *const names[SF_KIND_COUNT] = {
		[SF_KIND_RANDOM] = "random",
		[SF_KIND_EXPLICIT] = "explicit",
	};
	_Static_assert(SF_KIND_COUNT == 2, "name every kind");
	return kind < SF_KIND_COUNT ? names[kind] : "?";
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

size_t sf_genome_decode(const uint8_t *data, size_t size, struct sf_plan *plan)
{
	uint8_t h[SF_GENOME_HEADER] = {0};
	memcpy(h, data, size < sizeof h ? size : sizeof h);

	memset(plan, 0, sizeof *plan);
	plan->version = SF_GENOME_VERSION;
	plan->kind = kind_table[h[1] % 16];
	plan->seed = load_le(h + 4, 8);

	size_t used = SF_GENOME_HEADER;
	if (plan->kind == SF_KIND_EXPLICIT) {
		uint32_t m = (uint32_t)load_le(h + 12, 2);
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

size_t sf_genome_encode(const struct sf_plan *plan, const struct sf_decision *decisions,
			uint32_t n, uint8_t *out, size_t cap)
{
	uint8_t h[SF_GENOME_HEADER] = {0};
	h[0] = SF_GENOME_VERSION;
	h[1] = (uint8_t)plan->kind; /* kind_table is the identity on real kinds */
	store_le(h + 4, plan->seed, 8);
	if (plan->kind != SF_KIND_EXPLICIT)
		n = 0;
	if (n > SF_MAX_DECISIONS)
		n = SF_MAX_DECISIONS;
	store_le(h + 12, n, 2);

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

int sf_plan_format(const struct sf_plan *plan, char *buf, size_t cap)
{
	int len = snprintf(buf, cap, "%s", sf_kind_name(plan->kind));
#define APPEND(...)                                                               \
	do {                                                                      \
		size_t at_ = (size_t)len < cap ? (size_t)len : cap;               \
		len += snprintf(buf + at_, cap - at_, __VA_ARGS__);               \
	} while (0)
	switch (plan->kind) {
	case SF_KIND_RANDOM:
		APPEND(" seed=0x%" PRIx64, plan->seed);
		break;
	case SF_KIND_EXPLICIT:
		APPEND(" decisions=[");
		for (uint32_t i = 0; i < plan->ndecisions; i++) {
			struct sf_decision d = sf_plan_decision(plan, i);
			APPEND("%s%" PRIu32 ":%u", i ? "," : "", d.index, d.value);
		}
		APPEND("]");
		break;
	default:
		break;
	}
#undef APPEND
	return len;
}

uint64_t sf_derive_seed(uint64_t start_seed, uint64_t index)
{
	uint64_t x = start_seed ^ (index * 0xd1b54a32d192ed03ull);
	return sf_splitmix64(&x);
}
