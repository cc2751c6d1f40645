/* portable.c - portable reproducers: a failing schedule that replays on
 * another build of the same source (other optimisation, debug
 * information, sanitizer or engine).
 *
 * A saved input numbers its decisions over the whole execution, and that
 * numbering moves whenever a build has more or fewer scheduling points.
 * A portable reproducer names each decision that departs from the default
 * by where its thread stands in the source instead (runtime/rt_anchor.c
 * says how), and takes the default everywhere else. `schedfuzz min`
 * writes one from the minimised schedule's trace, whose `decision`
 * records say which thread decided after how many of its own events;
 * the line of each event comes from the binary's line table. `schedfuzz
 * replay` translates the lines back into the code of the binary at hand
 * (its line table again) for the runtime. The file is text:
 *
 *   schedfuzz-portable 1
 *   build ID NAME                   the binary it was made on (ELF build-id)
 *   traits sanitizer=S engine=E debug=D code=N
 *   failure KIND: MESSAGE           how it failed there
 *   flags nospurious|-              the genome's flags that every build needs
 *   memory all|shared               which accesses were scheduling points:
 *                                   all (SCHEDFUZZ_MEMORY=2), or those to
 *                                   memory threads share (the default)
 *   data HEX|-                      the harness's data
 *   at pick|choice before|after thread=T line=FILE:LINE visit=V event=KIND#N value=X
 *
 * The anchoring mirrors rt_anchor.c's track and key rules exactly: any
 * change there is a change here, and the portable.* tests replay across
 * four builds to hold them together. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_id.h"
#include "genome.h"
#include "line_table.h"
#include "portable.h"
#include "read_file.h"
#include "trace.h"

#define MAGIC "schedfuzz-portable 1"

/* ---- writing ---------------------------------------------------------------- */

/* A source line, interned: "FILE:LINE". */
struct lines {
	char **name;
	size_t n, cap;
};

static int line_id(struct lines *l, const char *file, uint32_t line)
{
	char *key;
	if (asprintf(&key, "%s:%" PRIu32, file, line) < 0)
		abort();
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->name[i], key)) {
			free(key);
			return (int)i;
		}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->name = realloc(l->name, l->cap * sizeof *l->name);
		if (!l->name)
			abort();
	}
	l->name[l->n] = key;
	return (int)l->n++;
}

static int site_line(const struct line_table *lt, struct lines *l, uint32_t site)
{
	const char *file;
	uint32_t line;
	if (!site || !lt_lookup(lt, (uint64_t)site - 1, &file, &line))
		return -1;
	return line_id(l, file, line);
}

/* A thread's position as rt_anchor.c tracks it. */
struct track {
	int line;
	char last[24];
	uint32_t *visits; /* by line id */
	size_t nvisits;
	struct {
		char kind[24];
		uint32_t n;
	} count[64]; /* kinds of the current visit */
	int ncount;
};

static uint32_t *visit_slot(struct track *t, int line)
{
	if ((size_t)line >= t->nvisits) {
		size_t n = (size_t)line + 64;
		t->visits = realloc(t->visits, n * sizeof *t->visits);
		if (!t->visits)
			abort();
		memset(t->visits + t->nvisits, 0, (n - t->nvisits) * sizeof *t->visits);
		t->nvisits = n;
	}
	return &t->visits[line];
}

static uint32_t *count_slot(struct track *t, const char *kind)
{
	for (int i = 0; i < t->ncount; i++)
		if (!strcmp(t->count[i].kind, kind))
			return &t->count[i].n;
	if (t->ncount == 64)
		return &t->count[63].n; /* no visit has 64 kinds of event */
	snprintf(t->count[t->ncount].kind, sizeof t->count[0].kind, "%s", kind);
	t->count[t->ncount].n = 0;
	return &t->count[t->ncount++].n;
}

static void track_event(struct track *t, int line, const char *kind)
{
	if (line != t->line) {
		t->line = line;
		t->ncount = 0;
		if (line >= 0)
			++*visit_slot(t, line);
	}
	++*count_slot(t, kind);
	snprintf(t->last, sizeof t->last, "%s", kind);
}

static void put_word(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ' ' ? '_' : *s, f);
}

bool portable_write(const char *path, const char *prog, const char *trace_path,
		    const uint8_t *data, size_t size, bool no_spurious, bool memory_all, char *err,
		    size_t cap)
{
	struct trace t;
	if (!trace_load(trace_path, &t, err, cap))
		return false;
	bool ok = false;
	struct lines lines = { 0 };
	struct track tr = { 0 };
	FILE *f = NULL;
	struct line_table *lt = NULL;
	if (t.dropped) {
		snprintf(err, cap, "the execution is longer than a trace keeps (%" PRIu64
				   " events dropped)", t.dropped);
		goto out;
	}
	if (!(lt = lt_load(prog, err, cap)))
		goto out;
	struct build_info b;
	if (!build_identify(prog, &b)) {
		snprintf(err, cap, "%s is not an ELF executable", prog);
		goto out;
	}
	char traits[256];
	build_traits(&b, traits, sizeof traits);
	if (!(f = fopen(path, "w"))) {
		snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	fprintf(f, MAGIC "\n# schedfuzz replay %s -- PROG: the same failing schedule on any build of "
		     "the same source\nbuild %s %s\ntraits %s\nfailure %s: %s\nflags %s\nmemory %s\ndata ",
		path, b.id, b.name, traits, t.failed ? t.fail_kind : "none", t.failed ? t.fail_msg : "",
		no_spurious ? "nospurious" : "-", memory_all ? "all" : "shared");
	for (size_t i = 0; i < size; i++)
		fprintf(f, "%02x", data[i]);
	fprintf(f, "%s\n", size ? "" : "-");

	for (size_t k = 0; k < t.ndec; k++) {
		const struct trace_decision *d = &t.dec[k];
		free(tr.visits);
		tr = (struct track){ .line = -1 };
		uint32_t seen = 0;
		for (size_t i = 0; i < t.n && seen < d->ord; i++) {
			const struct trace_rec *r = &t.rec[i];
			if (r->type != TR_EVENT || r->tid != d->tid)
				continue;
			seen++;
			if (r->site) /* the exit points have no site: no step in the source */
				track_event(&tr, site_line(lt, &lines, r->site), r->kind);
		}
		bool after = d->choice || !strcmp(d->kind, "exit") || !d->site;
		int line;
		const char *kind;
		uint32_t visit, nth;
		if (after) {
			line = tr.line;
			kind = tr.last;
			visit = line >= 0 ? *visit_slot(&tr, line) : 0;
			nth = *count_slot(&tr, kind);
		} else {
			line = site_line(lt, &lines, d->site);
			kind = d->kind;
			bool same = line == tr.line;
			visit = line < 0 ? 0 : *visit_slot(&tr, line) + !same;
			nth = (same ? *count_slot(&tr, kind) : 0) + 1;
		}
		if (line < 0 || seen < d->ord) {
			snprintf(err, cap, "decision %" PRIu32 " of thread T%d is in code without a source "
					   "line (offset 0x%" PRIx32 "): it cannot be anchored",
				 d->index, d->tid, d->site);
			goto out;
		}
		fprintf(f, "at %s %s thread=%d line=%s visit=%" PRIu32 " event=", d->choice ? "choice" : "pick",
			after ? "after" : "before", d->tid, lines.name[line], visit);
		put_word(f, kind);
		fprintf(f, "#%" PRIu32 " value=%" PRIu32 "\n", nth, d->value);
	}
	ok = true;
out:
	if (f && fclose(f) != 0 && ok) {
		snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
		ok = false;
	}
	if (!ok && f)
		unlink(path);
	free(tr.visits);
	for (size_t i = 0; i < lines.n; i++)
		free(lines.name[i]);
	free(lines.name);
	lt_free(lt);
	trace_free(&t);
	return ok;
}

/* ---- reading ---------------------------------------------------------------- */

bool portable_is(const char *path)
{
	FILE *f = fopen(path, "rb");
	char head[sizeof MAGIC] = { 0 };
	bool is = f && fread(head, 1, sizeof head - 1, f) == sizeof head - 1 && !strcmp(head, MAGIC);
	if (f)
		fclose(f);
	return is;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

void portable_free(struct portable *p)
{
	for (size_t i = 0; i < p->nat; i++)
		free(p->at[i].file);
	free(p->at);
	free(p->data);
	memset(p, 0, sizeof *p);
}

bool portable_read(const char *path, struct portable *p, char *err, size_t cap)
{
	memset(p, 0, sizeof *p);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, cap, "cannot read %s: %s", path, strerror(errno));
		return false;
	}
	char *line = NULL;
	size_t len = 0;
	unsigned lineno = 0;
	bool ok = true;
	while (ok && getline(&line, &len, f) > 0) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		char a[16], b[16], where[4096], kind[32];
		unsigned tid, visit, nth, value;
		if (lineno == 1) {
			ok = !strcmp(line, MAGIC);
		} else if (line[0] == '#' || !line[0]) {
			continue;
		} else if (!strncmp(line, "build ", 6)) {
			ok = sscanf(line, "build %79s %255s", p->made.id, p->made.name) == 2;
		} else if (!strncmp(line, "traits ", 7)) {
			ok = build_parse_traits(line + 7, &p->made);
		} else if (!strncmp(line, "failure ", 8)) {
			snprintf(p->failure, sizeof p->failure, "%s", line + 8);
		} else if (!strncmp(line, "flags ", 6)) {
			p->no_spurious = strstr(line + 6, "nospurious") != NULL;
		} else if (!strncmp(line, "memory ", 7)) {
			p->memory_all = !strcmp(line + 7, "all");
		} else if (!strncmp(line, "data ", 5)) {
			const char *h = line + 5;
			if (strcmp(h, "-") != 0) {
				size_t n = strlen(h) / 2;
				p->data = malloc(n + 1);
				for (size_t i = 0; ok && p->data && i < n; i++) {
					int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
					ok = hi >= 0 && lo >= 0;
					p->data[i] = (uint8_t)(hi << 4 | lo);
				}
				ok = ok && p->data && strlen(h) % 2 == 0;
				p->size = n;
			}
		} else if (sscanf(line, "at %15s %15s thread=%u line=%4095s visit=%u event=%31[^#]#%u value=%u",
				  a, b, &tid, where, &visit, kind, &nth, &value) == 8) {
			char *colon = strrchr(where, ':');
			ok = colon != NULL && (!strcmp(a, "pick") || !strcmp(a, "choice")) &&
			     (!strcmp(b, "before") || !strcmp(b, "after"));
			struct portable_at *na = ok ? realloc(p->at, (p->nat + 1) * sizeof *na) : NULL;
			if (!na) {
				ok = false;
				break;
			}
			p->at = na;
			*colon = 0;
			p->at[p->nat++] = (struct portable_at){
				.choice = !strcmp(a, "choice"), .after = !strcmp(b, "after"),
				.tid = tid, .file = strdup(where), .line = (uint32_t)strtoul(colon + 1, NULL, 10),
				.visit = visit, .nth = nth, .value = value,
			};
			snprintf(p->at[p->nat - 1].kind, sizeof p->at[0].kind, "%s", kind);
		} else {
			ok = false;
		}
	}
	free(line);
	fclose(f);
	if (!ok || !p->made.id[0]) {
		snprintf(err, cap, "%s: line %u is not a portable reproducer's", path, lineno);
		portable_free(p);
		return false;
	}
	return true;
}

bool portable_translate(const struct portable *p, const char *prog, const char *anchors_path,
			const char *input_path, char *err, size_t cap)
{
	struct line_table *lt = lt_load(prog, err, cap);
	if (!lt)
		return false;
	FILE *f = fopen(anchors_path, "w");
	if (!f) {
		snprintf(err, cap, "cannot write %s: %s", anchors_path, strerror(errno));
		lt_free(lt);
		return false;
	}
	fprintf(f, "schedfuzz-anchors 1\n");
	/* One id per distinct line, with its ranges in this binary. */
	uint32_t *ids = calloc(p->nat + 1, sizeof *ids);
	uint32_t nids = 0;
	enum { MAX_RANGES = 1024 };
	static uint64_t ranges[MAX_RANGES][2];
	size_t found = 0;
	for (size_t i = 0; i < p->nat; i++)
		found += lt_knows_file(lt, p->at[i].file);
	for (size_t i = 0; ids && found && i < p->nat; i++) {
		const struct portable_at *a = &p->at[i];
		size_t j = 0;
		for (; j < i; j++)
			if (!strcmp(p->at[j].file, a->file) && p->at[j].line == a->line)
				break;
		if (j < i) {
			ids[i] = ids[j];
			continue;
		}
		ids[i] = nids++;
		size_t n = lt_ranges(lt, a->file, a->line, ranges, MAX_RANGES);
		if (n == 0)
			fprintf(stderr, "schedfuzz: %s:%" PRIu32 " has no code in this binary: the "
					"decision anchored there is lost\n", a->file, a->line);
		for (size_t r = 0; r < n && r < MAX_RANGES; r++)
			fprintf(f, "range %" PRIu32 " %" PRIx64 " %" PRIx64 "\n", ids[i], ranges[r][0],
				ranges[r][1]);
	}
	for (size_t i = 0; ids && i < p->nat; i++) {
		const struct portable_at *a = &p->at[i];
		fprintf(f, "at %s %s %" PRIu32 " %" PRIu32 " %" PRIu32 " %s %" PRIu32 " %" PRIu32 "\n",
			a->choice ? "choice" : "pick", a->after ? "after" : "before", a->tid, ids[i],
			a->visit, a->kind, a->nth, a->value);
	}
	free(ids);
	lt_free(lt);
	bool ok = fclose(f) == 0;
	if (p->nat > 0 && !found) {
		snprintf(err, cap, "%s has no line information for %s (built with -g0?): the "
				   "portable reproducer's source lines cannot be found in its code",
			 prog, p->at[0].file);
		return false;
	}

	/* The input: an explicit genome without decisions (the default
	 * everywhere the anchors say nothing), then the data. */
	struct sf_plan plan = { .kind = SF_KIND_EXPLICIT,
				.flags = p->no_spurious ? SF_FLAG_NO_SPURIOUS : 0 };
	uint8_t genome[SF_GENOME_HEADER];
	sf_genome_encode(&plan, NULL, 0, genome, sizeof genome);
	FILE *in = ok ? fopen(input_path, "wb") : NULL;
	ok = in && fwrite(genome, 1, sizeof genome, in) == sizeof genome &&
	     (!p->size || fwrite(p->data, 1, p->size, in) == p->size);
	ok = in && fclose(in) == 0 && ok;
	if (!ok)
		snprintf(err, cap, "cannot write the translated input: %s", strerror(errno));
	return ok;
}

bool portable_build_stamp(const char *prog, uint8_t build[8])
{
	struct build_info b;
	if (!build_identify(prog, &b))
		return false;
	const char *h = b.id;
	if (!strncmp(h, "code-", 5))
		h += 5;
	for (int i = 0; i < 8; i++) {
		int hi = hexval(h[2 * i]), lo = hi >= 0 ? hexval(h[2 * i + 1]) : -1;
		if (hi < 0 || lo < 0)
			return false;
		build[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

void portable_say_other_build(const char *prog, const struct portable *p)
{
	struct build_info here;
	if (!build_identify(prog, &here)) {
		fprintf(stderr, "schedfuzz: this input did not fail on this binary; it was made for "
				"build %s (%s)\n", p->made.id, p->made.name);
		return;
	}
	if (!strcmp(here.id, p->made.id)) {
		fprintf(stderr, "schedfuzz: this input did not fail on this binary, the very build "
				"it was made for (%s): the program depends on something outside the "
				"schedule (time, randomness, uncontrolled threads)\n", here.id);
		return;
	}
	char diff[512];
	build_differences(&p->made, &here, diff, sizeof diff);
	fprintf(stderr, "schedfuzz: this input did not fail on this binary; it was made for build "
			"%s (%s), this is build %s (%s): %s\n",
		p->made.id, p->made.name, here.id, here.name, diff);
	fprintf(stderr, "schedfuzz: its failure there: %s\n", p->failure);
}

void portable_say_stamp(const char *prog, const uint8_t build[8], const char *input)
{
	uint8_t here[8];
	if (portable_build_stamp(prog, here) && !memcmp(here, build, 8))
		return; /* its own build: the replay's own words say why */
	char made[17];
	for (int i = 0; i < 8; i++)
		sprintf(made + 2 * i, "%02x", build[i]);
	struct build_info b;
	fprintf(stderr, "schedfuzz: this input did not fail on this binary; it was made for build "
			"%s..., this is build %s. A binary-exact input replays only on its own build: "
			"replay its portable form (%s.portable, written by `schedfuzz min`) instead\n",
		made, build_identify(prog, &b) ? b.id : "?", input);
}
