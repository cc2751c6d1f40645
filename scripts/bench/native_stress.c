/* native_stress.c - the baseline everyone already has: run a program
 * (built without schedfuzz) RUNS times under the OS scheduler and count
 * the runs that fail: a nonzero exit, a signal, or no exit within the
 * per-run limit (a deadlock or a hang natively).
 *
 *   native_stress RUNS LIMIT_MS PROG [ARGS...]
 *
 * prints "runs failures first_failure seconds", first_failure 0 if none. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One run: 1 if it failed. */
static int run_once(char **argv, long limit_ms)
{
	pid_t pid = fork();
	if (pid < 0) {
		perror("native_stress: fork");
		exit(2);
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	double deadline = now() + limit_ms / 1000.0;
	int status;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return 1;
		}
		usleep(50);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fprintf(stderr, "native_stress: cannot run %s\n", argv[0]);
		exit(2);
	}
	return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: native_stress RUNS LIMIT_MS PROG [ARGS...]\n");
		return 2;
	}
	long runs = atol(argv[1]), limit_ms = atol(argv[2]);
	long failures = 0, first = 0;
	double start = now();
	for (long i = 1; i <= runs; i++) {
		if (run_once(argv + 3, limit_ms)) {
			failures++;
			if (!first)
				first = i;
		}
	}
	printf("%ld %ld %ld %.3f\n", runs, failures, first, now() - start);
	return 0;
}
