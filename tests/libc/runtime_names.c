/* runtime_names.c - a program that defines names the runtime uses for
 * itself (a global rt, functions rt_init and cov_begin, the engines'
 * read_whole_file and driver_run_inputs): it links beside the runtime and
 * its calls reach its own definitions, as they would with plain clang.
 * Built as a main() program and, with -DHARNESS, as a harness over the
 * standalone driver. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int rt;
long sf_genome[4];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int rt_init(void)
{
	return 7;
}

void cov_begin(int n)
{
	pthread_mutex_lock(&lock);
	rt += n;
	pthread_mutex_unlock(&lock);
}

char *read_whole_file(const char *path)
{
	return (char *)path;
}

int driver_run_inputs(int n)
{
	return n + 1;
}

static void *worker(void *arg)
{
	cov_begin((int)(intptr_t)arg);
	return NULL;
}

static int run(void)
{
	rt = 0;
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)(i + 1));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(rt == 3);
	assert(rt_init() == 7);
	assert(driver_run_inputs(1) == 2);
	assert(strcmp(read_whole_file("x"), "x") == 0);
	sf_genome[0] = rt;
	return 0;
}

#ifdef HARNESS
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return run();
}
#else
int main(void)
{
	return run();
}
#endif
