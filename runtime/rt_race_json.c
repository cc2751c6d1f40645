/* rt_race_json.c - each reported data race as one line of JSON, appended
 * to the file SCHEDFUZZ_RACE_JSON names (`--race-json FILE`), for tools
 * that would rather not parse ThreadSanitizer's text: the pair's key, the
 * replaying input, and per access its kind, size, thread, scheduling step
 * and frames (docs/races.md). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_json.h"
#include "rt_libc.h"
#include "rt_race.h"

static void string(FILE *f, const char *s)
{
	rt_json_string(f, s, strlen(s));
}

/* "file.c:12" into file and line; a site without a line keeps line 0. */
static void place(FILE *f, const struct rt_sym *y)
{
	char file[sizeof y->text];
	unsigned line = 0;
	snprintf(file, sizeof file, "%s", y->text[0] ? y->text : "?");
	char *colon = strrchr(file, ':');
	if (colon && colon[1] >= '0' && colon[1] <= '9') {
		*colon = 0;
		line = (unsigned)strtoul(colon + 1, NULL, 10);
	}
	fprintf(f, "\"function\":");
	string(f, y->func[0] ? y->func : "?");
	fprintf(f, ",\"file\":");
	string(f, file);
	fprintf(f, ",\"line\":%u", line);
}

static void frame(FILE *f, uintptr_t pc, const struct rt_sym *y)
{
	fprintf(f, "{");
	if (pc - rt.exe_lo < rt.exe_hi - rt.exe_lo)
		fprintf(f, "\"offset\":\"0x%" PRIxPTR "\",", pc - rt.exe_bias);
	place(f, y);
	fprintf(f, "}");
}

static void one_access(FILE *f, const struct rt_race_seen *r, int k)
{
	const struct rt_race_access *a = r->acc[k];
	fprintf(f, "{\"kind\":\"%s\",\"size\":%u,\"thread\":%u,\"step\":%u,\"frames\":[",
		(a->flags & RT_RACE_WRITE) ? "write" : "read", a->size, a->tid, a->step);
	for (int i = 0; i < r->n[k]; i++) {
		if (i)
			fputc(',', f);
		frame(f, r->pc[k][i], &r->sym[k][i]);
	}
	fprintf(f, "]}");
}

void rt_race_json(const struct rt_race_seen *r)
{
	const char *path = getenv("SCHEDFUZZ_RACE_JSON");
	if (!path || !*path)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "a") : NULL;
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot write the race to %s\n", path);
		if (fd >= 0)
			close(fd);
		return;
	}
	fprintf(f, "{\"type\":\"data_race\",\"key\":\"%016" PRIx64 "\",\"input\":", r->key);
	string(f, rt.cfg.input_path ? rt.cfg.input_path : "");
	fprintf(f, ",\"address\":\"0x%" PRIxPTR "\",\"access\":", r->addr);
	one_access(f, r, 0);
	fprintf(f, ",\"previous\":");
	one_access(f, r, 1);
	fprintf(f, ",\"location\":{\"kind\":\"%s\"", r->where);
	if (r->name[0]) {
		fprintf(f, ",\"name\":");
		string(f, r->name);
	}
	if (!strcmp(r->where, "stack"))
		fprintf(f, ",\"thread\":%u", r->stack_tid);
	if (!strcmp(r->where, "heap")) {
		fprintf(f, ",\"block\":\"0x%" PRIxPTR "\",\"size\":%zu", r->block_lo,
			(size_t)(r->block_hi - r->block_lo));
		if (r->alloc) {
			fprintf(f, ",\"allocated_at\":{");
			place(f, r->alloc);
			fprintf(f, "}");
		}
	}
	fprintf(f, "}}\n");
	fclose(f);
}
