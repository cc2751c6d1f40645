/* rng.h - the one pseudo-random generator every strategy draws from.
 *
 * xoshiro256** seeded through splitmix64: fast, well distributed, and fully
 * determined by a 64-bit seed taken from the genome
 * (docs/design/architecture.md, decision 7). */
#ifndef SCHEDFUZZ_RNG_H
#define SCHEDFUZZ_RNG_H

#include <stdint.h>

struct sf_rng {
	uint64_t s[4];
};

static inline uint64_t sf_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void sf_rng_seed(struct sf_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = sf_splitmix64(&seed);
}

static inline uint64_t sf_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t sf_rng_next(struct sf_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = sf_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sf_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n) for n > 0 (Lemire's multiply-shift; the bias for the
 * small n we use is far below anything a test could observe). */
static inline uint32_t sf_rng_below(struct sf_rng *r, uint32_t n)
{
	return (uint32_t)(((sf_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#endif
