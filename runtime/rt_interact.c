/* rt_interact.c - SCHEDFUZZ_INTERACT=RFD,WFD,FORMAT: a user (or a tool)
 * takes each decision among threads (`schedfuzz replay --interactive`).
 *
 * At every pick with two or more candidates the state is written to WFD,
 * as text for a terminal or (FORMAT json) as one JSON object on a line,
 * then a NUL byte that ends the message; one answer line is read from
 * RFD: a thread (T2, 2, "T2") or nothing for the default, which is what
 * the runtime would take (the input's choice, or the default rule once
 * the answers departed from it: rt_debug.c). An answer that names no
 * candidate is said so and the question asked again; the end of RFD
 * takes the default for the rest of the execution. Only the process that
 * began the execution asks: a child it forks is no part of it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_debug.h"
#include "rt_describe.h"
#include "rt_internal.h"
#include "rt_json.h"
#include "rt_libc.h"

#define STATE_CAP (64u << 10)

static struct {
	int rfd, wfd;
	bool json;
	pid_t owner;
	char state[STATE_CAP];
} ia = { .rfd = -1, .wfd = -1 };

bool rt_interact_load(void)
{
	const char *s = rt_env_initial("SCHEDFUZZ_INTERACT");
	int r, w;
	char format[8] = "";
	if (!s || !*s || sscanf(s, "%d,%d,%7s", &r, &w, format) < 2 || r < 0 || w < 0) {
		ia.rfd = ia.wfd = -1;
		return false;
	}
	ia.rfd = r;
	ia.wfd = w;
	ia.json = !strcmp(format, "json");
	ia.owner = getpid();
	return true;
}

static bool write_all(const char *p, size_t n)
{
	while (n) {
		/* no SIGPIPE for the program when schedfuzz is gone */
		ssize_t k = syscall(SYS_sendto, ia.wfd, p, n, MSG_NOSIGNAL, NULL, 0);
		if (k < 0 && errno == ENOTSOCK)
			k = write(ia.wfd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* One answer line, without its newline; false at the end of the stream. */
static bool read_line(char *buf, size_t cap)
{
	size_t n = 0;
	for (;;) {
		char c;
		ssize_t k = read(ia.rfd, &c, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return n > 0 && (buf[n] = 0, true);
		if (c == '\n')
			break;
		if (n + 1 < cap)
			buf[n++] = c;
	}
	buf[n] = 0;
	return true;
}

static bool is_candidate(const struct strat_candidate *cand, int n, int tid)
{
	for (int i = 0; i < n; i++)
		if (rt.threads[cand[i].tid].tid == tid)
			return true;
	return false;
}

/* The question: the last step's line and each thread's, as a report
 * prints them (rt_report_describe), the candidates and the default. */
static void ask(FILE *f, const struct strat_candidate *cand, int n, int dflt, const char *error)
{
	int dtid = rt.threads[cand[dflt].tid].tid;
	const char *step_line = rt.step ? ia.state : "";
	const char *threads = strstr(ia.state, "==schedfuzz== threads:\n");
	const char *end = threads ? threads : ia.state + strlen(ia.state);
	threads = threads ? threads + strlen("==schedfuzz== threads:\n") : end;
	if (!ia.json) {
		if (error)
			fprintf(f, "%s\n", error);
		fprintf(f, "decision %llu, after step %llu:\n%.*s", (unsigned long long)rt.ndecisions,
			(unsigned long long)rt.step, (int)(end - step_line), step_line);
		for (const char *l = threads; *l;) {
			size_t len = strcspn(l, "\n");
			int tid;
			bool can = sscanf(l, "  T%d", &tid) == 1 && is_candidate(cand, n, tid);
			fprintf(f, "%s%.*s\n", can ? " *" : "  ", (int)len - 2, l + 2);
			l += len + (l[len] == '\n');
		}
		fprintf(f, "next thread (* can run; Enter: T%d): ", dtid);
		return;
	}
	fprintf(f, "{\"decision\":%llu,\"step\":%llu,\"last\":", (unsigned long long)rt.ndecisions,
		(unsigned long long)rt.step);
	size_t sl = (size_t)(end - step_line);
	while (sl && (step_line[sl - 1] == '\n'))
		sl--;
	rt_json_string(f, step_line, sl);
	fprintf(f, ",\"threads\":[");
	bool first = true;
	for (const char *l = threads; *l;) {
		size_t len = strcspn(l, "\n");
		int tid, skip = 0;
		if (sscanf(l, "  T%d %n", &tid, &skip) == 1 && skip) {
			const char *rest = l + skip;
			size_t rlen = len - (size_t)skip, slen = strcspn(rest, " :");
			fprintf(f, "%s{\"id\":%d,\"state\":", first ? "" : ",", tid);
			rt_json_string(f, rest, slen < rlen ? slen : rlen);
			fprintf(f, ",\"text\":");
			rt_json_string(f, rest, rlen);
			fprintf(f, ",\"can_run\":%s}", is_candidate(cand, n, tid) ? "true" : "false");
			first = false;
		}
		l += len + (l[len] == '\n');
	}
	fprintf(f, "],\"candidates\":[");
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", rt.threads[cand[i].tid].tid);
	fprintf(f, "],\"default\":%d", dtid);
	if (error) {
		fprintf(f, ",\"error\":");
		rt_json_string(f, error, strlen(error));
	}
	fprintf(f, "}\n");
}

/* The thread an answer names, -1 for the default, -2 for nonsense. */
static int answer_thread(const char *a)
{
	while (*a == ' ' || *a == '\t' || *a == '"')
		a++;
	if (!*a || !strncmp(a, "null", 4))
		return -1;
	if (*a == 'T' || *a == 't')
		a++;
	char *end;
	long v = strtol(a, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '"' || *end == '\r')
		end++;
	return end == a || *end || v < 0 || v > 65535 ? -2 : (int)v;
}

int rt_interact_ask(const struct strat_candidate *cand, int n, int dflt)
{
	if (ia.rfd < 0 || getpid() != ia.owner)
		return dflt;
	struct rt_thread *me = rt_own_work_begin();
	FILE *f = fmemopen(ia.state, sizeof ia.state - 1, "w");
	if (f) {
		rt_report_describe(f, true);
		fclose(f);
	} else {
		ia.state[0] = 0;
	}
	int chosen = dflt;
	char error[128] = "", answer[256];
	for (;;) {
		char *msg = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&msg, &len);
		if (!m)
			break;
		ask(m, cand, n, dflt, error[0] ? error : NULL);
		fputc(0, m);
		fclose(m);
		bool sent = write_all(msg, len);
		free(msg);
		if (!sent || !read_line(answer, sizeof answer)) {
			ia.rfd = -1; /* nobody answers any more: the default from here */
			break;
		}
		int tid = answer_thread(answer);
		if (tid == -1)
			break;
		if (tid >= 0 && is_candidate(cand, n, tid)) {
			for (int i = 0; i < n; i++)
				if (rt.threads[cand[i].tid].tid == tid)
					chosen = i;
			break;
		}
		if (tid == -2)
			snprintf(error, sizeof error, "'%.60s' is no thread: answer T1, 1, or nothing for the default",
				 answer);
		else
			snprintf(error, sizeof error, "T%d cannot run at this decision", tid);
	}
	rt_own_work_end(me);
	return chosen;
}
