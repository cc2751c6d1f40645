/* cov_export.h - features into the fuzzers' maps.
 *
 * libFuzzer reads extra counters from the section __libfuzzer_extra_counters
 * and zeroes them before every input. AFL++ reads __afl_area_ptr, whose size
 * the binary announces in the forkserver handshake: a constructor that runs
 * before AFL++'s own reserves a region past its edges (__afl_final_loc), so
 * the announced size includes ours.
 *
 * Both fuzzers read a counter as one of eight buckets (1, 2, 3, 4-7, 8-15,
 * 16-31, 32-127, 128+), and a bucket never seen before in a slot makes an
 * input interesting as a new slot does. So a feature's hash picks a slot
 * and one of eight values, one per bucket: a slot carries eight features
 * across executions, and the map the fuzzer scans and clears after every
 * input is an eighth of the size it would need for the same room. Two
 * features of one execution that share a slot leave the larger value, so
 * the map depends on the execution's set of features, not their order.
 *
 * Compiled into the runtime only: it defines the libFuzzer section. */
#ifndef SCHEDFUZZ_COV_EXPORT_H
#define SCHEDFUZZ_COV_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#define COV_LIBFUZZER_SLOTS (1u << 14)
#define COV_AFL_SLOTS (1u << 14)

enum cov_sink_kind { COV_TO_LIBFUZZER = 1, COV_TO_AFL = 2 };

/* The counter value that stands for bucket b (0-7) of a slot: one value in
 * each of the fuzzers' buckets. */
static inline uint8_t cov_export_bucket_value(unsigned b)
{
	static const uint8_t value[8] = {1, 2, 3, 4, 8, 16, 32, 128};
	return value[b & 7];
}

/* Is this binary running under afl-fuzz (or afl-showmap, afl-tmin) with our
 * region reserved in its map? */
bool cov_export_afl_present(void);
/* Count feature hash in the maps named by sinks (COV_TO_*). */
void cov_export(unsigned sinks, uint64_t hash);

#endif
