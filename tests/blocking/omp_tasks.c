/* omp_tasks: an OpenMP task graph. One thread creates tasks with
 * depend clauses over a diamond of stages (a -> b, c -> d) repeated over
 * several rounds, plus independent leaf tasks that sum into a shared
 * counter atomically, and waits for them with taskwait; every stage
 * checks that the stages it depends on finished first. Built with
 * schedfuzz-cc -fopenmp: libomp's workers pick the tasks up under
 * control.
 * expect: clean. */
#include <assert.h>
#include <omp.h>

#define ROUNDS 3
#define LEAVES 8

static int a, b, c, d;
static long leaves;

int main(void)
{
	a = b = c = d = 0;
	leaves = 0;
	omp_set_num_threads(3);
#pragma omp parallel
#pragma omp single
	{
		for (int r = 1; r <= ROUNDS; r++) {
#pragma omp task depend(inout : a)
			a = r;
#pragma omp task depend(in : a) depend(out : b)
			{
				assert(a == r);
				b = a * 2;
			}
#pragma omp task depend(in : a) depend(out : c)
			{
				assert(a == r);
				c = a * 3;
			}
#pragma omp task depend(in : b, c) depend(inout : d)
			{
				assert(b == 2 * r && c == 3 * r);
				d += b + c;
			}
			for (int i = 0; i < LEAVES; i++) {
#pragma omp task
				{
#pragma omp atomic
					leaves += i;
				}
			}
#pragma omp taskwait
			assert(d == 5 * r * (r + 1) / 2);
		}
	}
	assert(leaves == (long)ROUNDS * LEAVES * (LEAVES - 1) / 2);
	assert(d == 5 * ROUNDS * (ROUNDS + 1) / 2);
	return 0;
}
