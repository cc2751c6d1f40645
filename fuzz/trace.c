/* trace.c - reading a trace file back (trace.h), and naming its records. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static void unword(char *s)
{
	for (; *s; s++)
		if (*s == '_')
			*s = ' ';
}

static void parse_ctx(struct trace_rec *r, const char *ctx)
{
	r->nctx = 0;
	if (!strcmp(ctx, "-"))
		return;
	for (const char *p = ctx; *p && r->nctx < TRACE_CTX; p++) {
		char *end;
		r->ctx[r->nctx++] = (uint32_t)strtoul(p, &end, 16);
		if (*end != ',')
			break;
		p = end;
	}
}

static void parse_var(struct trace_rec *r, const char *var)
{
	r->var_kind = 0;
	r->var_a = r->var_b = 0;
	if ((var[0] == 'g' || var[0] == 'h' || var[0] == 'm') && var[1] == ':') {
		char *end;
		r->var_kind = var[0];
		r->var_a = (uint32_t)strtoul(var + 2, &end, 16);
		if (*end == '+')
			r->var_b = (uint32_t)strtoul(end + 1, NULL, 10);
	}
}

static void parse_where(struct trace_rec *r, const char *site, const char *ctx, const char *var,
			const char *obj)
{
	r->site = (uint32_t)strtoul(site, NULL, 16);
	parse_ctx(r, ctx);
	parse_var(r, var);
	snprintf(r->obj, sizeof r->obj, "%s", strcmp(obj, "-") ? obj : "");
}

static bool add(struct trace *t, const struct trace_rec *r, size_t *cap)
{
	if (t->n == *cap) {
		size_t n = *cap ? *cap * 2 : 1024;
		struct trace_rec *p = realloc(t->rec, n * sizeof *p);
		if (!p)
			return false;
		t->rec = p;
		*cap = n;
	}
	t->rec[t->n++] = *r;
	if (r->tid + 1 > t->nthreads)
		t->nthreads = r->tid + 1;
	return true;
}

bool trace_load(const char *path, struct trace *t, char *err, size_t cap)
{
	memset(t, 0, sizeof *t);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, cap, "cannot read the trace %s", path);
		return false;
	}
	char *line = NULL;
	size_t len = 0, rcap = 0;
	unsigned lineno = 0;
	bool ok = true;
	while (ok && getline(&line, &len, f) > 0) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		struct trace_rec r = { 0 };
		char a[64], b[64], c[64], d[64], e[64], flags[16];
		unsigned long long step;
		unsigned u1, u2, u3;
		int tid, n = 0;
		if (lineno == 1) {
			ok = !strcmp(line, "schedfuzz-trace 1");
		} else if (!strncmp(line, "plan ", 5)) {
			snprintf(t->plan, sizeof t->plan, "%s", line + 5);
		} else if (sscanf(line, "ev %llu %d %15s %23s %63s %63s %63s %63s %u%n", &step, &tid, flags,
				  r.kind, a, b, c, d, &r.size, &n) == 9) {
			r.type = TR_EVENT;
			r.step = step;
			r.tid = tid;
			r.preempt = strchr(flags, 'p') != NULL;
			r.waited = strchr(flags, 'b') != NULL;
			r.timed_out = strchr(flags, 't') != NULL;
			r.spurious = strchr(flags, 'w') != NULL;
			unword(r.kind);
			parse_where(&r, a, b, c, d);
			ok = add(t, &r, &rcap);
		} else if (sscanf(line, "block %llu %d %23s %63s %63s %63s %63s", &step, &tid, r.kind, a,
				  b, c, d) == 7) {
			r.type = TR_BLOCK;
			r.step = step;
			r.tid = tid;
			unword(r.kind);
			parse_where(&r, a, b, c, d);
			ok = add(t, &r, &rcap);
		} else if (sscanf(line, "state %d %23s %63s %63s %63s %63s", &tid, r.kind, a, b, c, d) == 6) {
			r.type = TR_STATE;
			r.tid = tid;
			unword(r.kind);
			parse_where(&r, a, b, c, d);
			ok = add(t, &r, &rcap);
		} else if (sscanf(line, "fail %47s %63s %n", t->fail_kind, e, &n) == 2 && n > 0) {
			t->failed = true;
			unword(t->fail_kind);
			t->fail_site = (uint32_t)strtoul(e, NULL, 16);
			snprintf(t->fail_msg, sizeof t->fail_msg, "%s", line + n);
		} else if (sscanf(line, "decision %u %d %u %23s %63s %u %15s", &u1, &tid, &u2, r.kind, a,
				  &u3, flags) == 7) {
			struct trace_decision *nd = realloc(t->dec, (t->ndec + 1) * sizeof *nd);
			ok = nd != NULL;
			if (ok) {
				t->dec = nd;
				struct trace_decision *dd = &t->dec[t->ndec++];
				*dd = (struct trace_decision){ .index = u1, .tid = tid, .ord = u2,
								.site = (uint32_t)strtoul(a, NULL, 16),
								.value = u3,
								.choice = !strcmp(flags, "choice") };
				unword(r.kind);
				snprintf(dd->kind, sizeof dd->kind, "%s", r.kind);
			}
		} else if (sscanf(line,
				  "result fail=%47s steps=%" SCNu64 " decisions=%" SCNu64
				  " preemptions=%" SCNu64 " threads=%d fingerprint=%" SCNx64
				  " dropped=%" SCNu64,
				  t->result_fail, &t->steps, &t->decisions, &t->preemptions, &tid,
				  &t->fingerprint, &t->dropped) == 7) {
			unword(t->result_fail);
			t->has_result = true;
			if (tid > t->nthreads)
				t->nthreads = tid;
		} else {
			ok = false;
		}
	}
	free(line);
	fclose(f);
	if (!ok) {
		snprintf(err, cap, "%s: line %u is not a trace record", path, lineno);
		trace_free(t);
		return false;
	}
	if (!t->has_result) {
		snprintf(err, cap, "%s: the trace ends before the execution did", path);
		trace_free(t);
		return false;
	}
	return true;
}

void trace_free(struct trace *t)
{
	free(t->rec);
	t->rec = NULL;
	t->n = 0;
	free(t->dec);
	t->dec = NULL;
	t->ndec = 0;
}

static bool is_memory(const char *kind)
{
	return !strcmp(kind, "read") || !strcmp(kind, "write") || !strncmp(kind, "atomic ", 7);
}

void trace_describe(const struct trace_rec *r, struct names *nm, char *out, size_t cap)
{
	char var[320] = "";
	if (r->var_kind)
		names_var(nm, r->var_kind, r->var_a, r->var_b, var, sizeof var);
	if (r->type == TR_STATE && (!strcmp(r->kind, "running") || !strcmp(r->kind, "runnable"))) {
		snprintf(out, cap, "%s", r->kind);
		return;
	}
	const char *pre = r->type == TR_STATE ? "waits: " : "";
	if (is_memory(r->kind))
		snprintf(out, cap, "%s%s %s", pre, r->kind, var[0] ? var : "memory");
	else if (r->obj[0] && var[0] && strncmp(var, "heap", 4) && strncmp(var, "memory", 6))
		snprintf(out, cap, "%s%s %s (%s)", pre, r->kind, r->obj, var);
	else if (r->obj[0])
		snprintf(out, cap, "%s%s %s", pre, r->kind, r->obj);
	else
		snprintf(out, cap, "%s%s", pre, r->kind);
}

const struct trace_rec *trace_end_state(const struct trace *t, int tid)
{
	for (size_t i = t->n; i-- > 0 && t->rec[i].type == TR_STATE;)
		if (t->rec[i].tid == tid)
			return &t->rec[i];
	return NULL;
}
