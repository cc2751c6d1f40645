/* rt_sanitizer.c - failures that a sanitizer runtime diagnoses.
 *
 * In the ASan build mode ASan, and in both modes UBSan, find errors our
 * runtime cannot see: a use-after-free, a double free, a too-wide shift.
 * They print their report and end the process through their own Die(),
 * not through a signal we would catch. Every sanitizer report passes its
 * "SUMMARY:" line through the weak hook __sanitizer_report_error_summary;
 * defining it makes the report a failure of the controlled execution: the
 * interleaving and genome follow the sanitizer's diagnosis, and the result
 * is published for the explorer.
 *
 * ASan: __asan_on_error (its weak hook at the start of a report) takes the
 * thread out of our control while ASan prints, since what ASan calls is
 * not the program's. The summary comes before the shadow memory dump, so
 * our part waits for ASan's error report callback, after the whole report;
 * ASan's Die() follows, whose death callback lets libFuzzer save the input
 * (and afl-fuzz's abort_on_error=1 makes it a crash).
 *
 * UBSan: our part follows its summary, and we abort at once, even when the
 * program was built to recover (UBSan's default): an execution that went
 * on would publish a result that no longer matches what the fuzzer sees.
 *
 * LeakSanitizer (ASan's at exit): its check stops the world, a tracer
 * thread of its own suspending every thread while the exiting one waits
 * with sched_yield. Under control each of those yields would be a
 * scheduling point that may hand the turn to a thread the tracer has
 * suspended: the process would never end, and the leak report would be
 * lost to a timeout. So the check runs outside the schedule: LSan asks
 * __lsan_is_turned_off first, and there the exiting thread leaves our
 * control for good (the others stay parked, as the end of the process
 * finds them). Its report is a failure of kind "memory leak". */
#include <stdio.h>
#include <string.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

/* ASan's, when it is linked: null in the default (TSan ABI) mode. */
extern void __asan_set_error_report_callback(void (*callback)(const char *)) __attribute__((weak));

static char summary[512];
static bool waiting_for_asan;
/* The failing thread while ASan prints: what ASan calls meanwhile (its
 * symbolizer, the guards of its own statics) is not the program's, so the
 * thread is not controlled until the report is ours. */
static struct rt_thread *paused;
/* The thread that runs LeakSanitizer's check, out of our control. */
static struct rt_thread *leak_checker;

/* Weak: a program that defines its own turns the check off its own way,
 * and its leak report is then only a nonzero exit the explorer names from
 * the output. */
RT_EXPORT __attribute__((weak)) int __lsan_is_turned_off(void)
{
	if (rt_self && rt.active && !rt.reported && !leak_checker) {
		/* What the end of the process would do under control, done
		 * now that control ends: the last point, libomp's joins. */
		rt_exit_last_point();
		if (!rt.harness)
			rt_openmp_process_end();
	}
	if (rt_self && rt.active && !rt.reported && !leak_checker) {
		leak_checker = rt_self;
		rt_set_self(NULL);
		rt.busy++; /* the watchdog preempts no more */
	}
	return 0;
}

RT_EXPORT void __asan_on_error(void)
{
	if (rt_self && rt.active && !rt.reported) {
		paused = rt_self;
		rt_set_self(NULL);
	}
}

/* After the whole report; ASan ends the process when this returns (its
 * Die(): the fuzzer's death callback saves the input, afl-fuzz's
 * abort_on_error makes it a crash). The report is the paused thread's; it
 * stays uncontrolled for what runs on the way out. */
static void on_asan_report(const char *report)
{
	(void)report;
	if (!waiting_for_asan)
		return;
	rt_set_self(paused);
	rt_report_foreign(F_SANITIZER, summary);
	rt_set_self(NULL);
}

/* The summary line as our report's message: without "SUMMARY: ", and the
 * same for the same bug in a rebuilt binary. */
static void keep_summary(const char *text)
{
	const char *prefix = "SUMMARY: ";
	if (!strncmp(text, prefix, strlen(prefix)))
		text += strlen(prefix);
	snprintf(summary, sizeof summary, "%s", text);
	/* A frame without symbols names the binary's build. */
	char *id = strstr(summary, " (BuildId: ");
	char *end = id ? strchr(id, ')') : NULL;
	if (end)
		REAL(memmove)(id, end + 1, strlen(end + 1) + 1);
	/* UBSan ends with " in " when it knows no function. */
	size_t n = strlen(summary);
	if (n >= 3 && !strcmp(summary + n - 3, " in"))
		summary[n - 3] = 0;
	else if (n >= 4 && !strcmp(summary + n - 4, " in "))
		summary[n - 4] = 0;
}

RT_EXPORT void __sanitizer_report_error_summary(const char *text)
{
	fprintf(stderr, "%s\n", text); /* what the sanitizer's own hook does */
	if (leak_checker && rt.active && !rt.reported) {
		/* LSan's report has been printed whole; LSan ends the process
		 * when this returns. */
		keep_summary(text);
		rt_set_self(leak_checker);
		rt_report_foreign(F_LEAK, summary);
		rt_set_self(NULL);
		return;
	}
	bool ours = (paused || rt_self) && rt.active && !rt.reported && !waiting_for_asan;
	if (!ours)
		return;
	keep_summary(text);
	if (paused) { /* ASan's report, of which the summary is not the end */
		waiting_for_asan = true;
		return;
	}
	/* A leak report under control: the program has its own
	 * __lsan_is_turned_off. */
	rt_report_foreign(strstr(summary, " leaked in ") ? F_LEAK : F_SANITIZER, summary);
	rt_die();
}

void rt_sanitizer_install(void)
{
	static bool installed;
	if (installed)
		return;
	installed = true;
	if (__asan_set_error_report_callback)
		__asan_set_error_report_callback(on_asan_report);
	rt_heap_install_hooks();
}
