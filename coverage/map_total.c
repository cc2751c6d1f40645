/* map_total.c - TC, MAP's estimate of how many pattern instances a program
 * has (docs/design/algorithms.md, MAP), from the read sites Ir(x) and write
 * sites Iw(x) seen per variable:
 *
 *   per variable x:   p1, p2: |Ir||Iw| each;  p3: |Iw|^2;  p4: |Ir|^2 |Iw|;
 *                     p5, p6, p7: |Ir| |Iw|^2 each;  p8: |Iw|^3
 *   per ordered pair x != y:  p9-11: |Iw(x)|^2 |Iw(y)|^2 each;
 *                     p12-17: |Iw(x)| |Ir(x)| |Iw(y)| |Ir(y)| each
 *
 * Every combination of sites counts, feasible or not, so TC over-estimates
 * and coverage = covered / TC under-states. The pair sums run in O(n):
 * sum over x != y of f(x) g(y) = (sum f)(sum g) - sum f g. */
#include "cov.h"

void cov_map_total_by_pattern(const struct cov_var_sites *v, size_t n,
			      double out[COV_MAP_PATTERNS + 1])
{
	for (int p = 0; p <= COV_MAP_PATTERNS; p++)
		out[p] = 0;
	double sum_w2 = 0, sum_wr = 0, self_w2w2 = 0, self_wrwr = 0;
	for (size_t i = 0; i < n; i++) {
		double r = (double)v[i].reads, w = (double)v[i].writes;
		out[1] += r * w;
		out[2] += w * r;
		out[3] += w * w;
		out[4] += r * r * w;
		out[5] += r * w * w;
		out[6] += w * r * w;
		out[7] += r * w * w;
		out[8] += w * w * w;
		sum_w2 += w * w;
		sum_wr += w * r;
		self_w2w2 += w * w * w * w;
		self_wrwr += w * r * w * r;
	}
	double pair_w = sum_w2 * sum_w2 - self_w2w2;
	double pair_wr = sum_wr * sum_wr - self_wrwr;
	for (int p = 9; p <= 11; p++)
		out[p] = pair_w;
	for (int p = 12; p <= 17; p++)
		out[p] = pair_wr;
}

double cov_map_total(const struct cov_var_sites *v, size_t n)
{
	double by[COV_MAP_PATTERNS + 1], total = 0;
	cov_map_total_by_pattern(v, n, by);
	for (int p = 1; p <= COV_MAP_PATTERNS; p++)
		total += by[p];
	return total;
}
