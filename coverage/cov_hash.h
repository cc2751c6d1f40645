/* cov_hash.h - the one hash of the project: xxHash, inlined.
 *
 * Used for everything that needs a stable, well-mixed digest: names of
 * saved inputs now, coverage features later. Inlining keeps the runtime
 * free of a shared-library dependency in users' binaries. */
#ifndef SCHEDFUZZ_COV_HASH_H
#define SCHEDFUZZ_COV_HASH_H

#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

static inline uint64_t cov_hash64(const void *data, size_t size, uint64_t seed)
{
	return (uint64_t)XXH3_64bits_withSeed(data, size, (XXH64_hash_t)seed);
}

#endif
