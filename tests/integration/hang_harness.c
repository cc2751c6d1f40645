/* hang_harness: a libFuzzer target that hangs on two inputs. "S": a thread
 * loops forever through scheduling points (a flag nobody sets). "B": a
 * thread blocks in splice() from a pipe nobody writes, a call the runtime
 * does not control (read() on a pipe is a modelled wait: its deadlock
 * would be a deadlock report). Anything else returns at once. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

static volatile int stop;
static long ticks;
static int fds[2];

static void *spin(void *arg)
{
	(void)arg;
	while (!stop)
		ticks++;
	return NULL;
}

static void *block(void *arg)
{
	(void)arg;
	int sink = open("/dev/null", O_WRONLY);
	return splice(fds[0], NULL, sink, NULL, 1, 0) == 1 ? NULL : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0 || (data[0] != 'S' && data[0] != 'B'))
		return 0;
	if (data[0] == 'B' && pipe(fds) != 0)
		return 0;
	pthread_t t;
	pthread_create(&t, NULL, data[0] == 'S' ? spin : block, NULL);
	pthread_join(t, NULL);
	return 0;
}
