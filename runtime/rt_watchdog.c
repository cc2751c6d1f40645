/* rt_watchdog.c - a hang under libFuzzer becomes our hang report, with
 * its interleaving and genome, before libFuzzer's own -timeout fires.
 *
 * libFuzzer's timeout (default 1200 s) ends the process with "ALARM" and a
 * stack that says nothing of the schedule. Under libFuzzer the runtime
 * reads -timeout=N from the command line and starts one watchdog thread,
 * which is never controlled. When an execution has run for 3/4 of N, the
 * watchdog lowers the execution's step limit to zero, so that the running
 * thread reports a hang at its next scheduling point, with every other
 * thread parked: the usual, consistent report. If the running thread
 * reaches no scheduling point for another 1/8 of N (it is blocked in a
 * call the runtime does not model, or computes on its own stack), the
 * watchdog reports from its own thread and aborts. Both reports come
 * through libFuzzer's crash handler, which saves the input. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_internal.h"

#define LIBFUZZER_DEFAULT_TIMEOUT 1200 /* seconds */

static struct {
	uint64_t deadline_ns, grace_ns;
	unsigned timeout_s;
	/* Written by the controlled thread that begins and ends executions. */
	_Atomic uint64_t serial; /* odd while an execution runs */
	_Atomic uint64_t start_ns;
	_Atomic uint64_t expired; /* the serial the watchdog found out of time */
} wd;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	REAL(nanosleep)(&ts, NULL);
}

static void *watch(void *arg)
{
	(void)arg;
	uint64_t flagged = 0, flagged_at = 0;
	uint64_t period = wd.deadline_ns / 16 ? wd.deadline_ns / 16 : 1000000;
	for (;;) {
		nap(period);
		uint64_t serial = atomic_load(&wd.serial);
		if (!(serial & 1))
			continue;
		uint64_t now = now_ns();
		if (flagged != serial) {
			if (now - atomic_load(&wd.start_ns) < wd.deadline_ns)
				continue;
			flagged = serial;
			flagged_at = now;
			atomic_store(&wd.expired, serial);
			__atomic_store_n(&rt.step_limit, 0, __ATOMIC_RELEASE);
		} else if (now - flagged_at >= wd.grace_ns && atomic_load(&wd.serial) == serial) {
			rt_fail_stuck(wd.timeout_s);
		}
	}
	return NULL;
}

static unsigned libfuzzer_timeout(void)
{
	unsigned t = LIBFUZZER_DEFAULT_TIMEOUT;
	for (int i = 1; i < rt_main_argc; i++) {
		const char *a = rt_main_argv[i];
		if (!strncmp(a, "-timeout=", 9) && atoi(a + 9) > 0)
			t = (unsigned)atoi(a + 9); /* the last one wins, as in libFuzzer */
	}
	return t;
}

void rt_watchdog_start(void)
{
	wd.timeout_s = libfuzzer_timeout();
	uint64_t ms = (uint64_t)wd.timeout_s * 1000;
	wd.deadline_ns = ms * 3 / 4 * 1000000;
	wd.grace_ns = ms / 8 * 1000000;
	pthread_t th;
	if (REAL(pthread_create)(&th, NULL, watch, NULL) == 0)
		REAL(pthread_detach)(th);
}

uint64_t rt_watchdog_deadline_ms(void)
{
	return wd.deadline_ns / 1000000;
}

bool rt_watchdog_expired(void)
{
	return rt.watched && atomic_load(&wd.expired) == atomic_load(&wd.serial);
}

void rt_watchdog_begin(void)
{
	atomic_store(&wd.start_ns, now_ns());
	atomic_fetch_add(&wd.serial, 1);
}

void rt_watchdog_end(void)
{
	atomic_fetch_add(&wd.serial, 1);
}
