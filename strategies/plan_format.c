/* plan_format.c - the readable one-line form of a plan, printed in every
 * report and by `schedfuzz show`. It shows what the strategy will do, not
 * the raw words: change points as the events where they fire, priorities
 * of threads 0..7 as ranks (7 runs first). For example
 *   pct d=3 k=1000 cp=[113,870] prio=[2,0,1,7,6,5,4,3] seed=0x2a
 *   focus d=2 roles=[main/200,r1#0/9,r2#0/6] cp=[r1#0:5] prio=[2,1,0] seed=0x2a */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "priority.h"

struct out {
	char *buf;
	size_t cap;
	int len;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
	size_t at = (size_t)o->len < o->cap ? (size_t)o->len : o->cap;
	va_list ap;
	va_start(ap, fmt);
	o->len += vsnprintf(o->buf ? o->buf + at : NULL, o->cap - at, fmt, ap);
	va_end(ap);
}

static void put_var(struct out *o, uint32_t var)
{
	if (var < SF_VAR_AUTO_LIMIT)
		put(o, "shared#%" PRIu32, var);
	else if (var & SF_VAR_HEAP)
		put(o, "heap@0x%" PRIx32, var & ~SF_VAR_HEAP);
	else
		put(o, "global@0x%" PRIx32, var);
}

/* A FOCUS role: "main" or "r2#1", the second thread of routine 2. */
static void put_role(struct out *o, uint32_t word)
{
	uint32_t m = sf_focus_routine(word), i = sf_focus_instance(word);
	if (m == 0 && i == 0)
		put(o, "main");
	else
		put(o, "r%" PRIu32 "#%" PRIu32, m, i);
}

/* FOCUS: the roles' priorities as ranks (nroles-1 runs first). */
static void put_role_priorities(struct out *o, const struct sf_plan *plan)
{
	put(o, " prio=[");
	for (int r = 0; r < plan->nvars; r++) {
		int rank = 0;
		for (int u = 0; u < plan->nvars; u++)
			rank += sf_prio_role(plan, u) < sf_prio_role(plan, r);
		put(o, "%s%d", r ? "," : "", rank);
	}
	put(o, "]");
}

static void put_priorities(struct out *o, const struct sf_plan *plan)
{
	sf_prio p[SF_PRIO_SLOTS];
	for (int t = 0; t < SF_PRIO_SLOTS; t++)
		p[t] = sf_prio_initial(plan, t);
	put(o, " prio=[");
	for (int t = 0; t < SF_PRIO_SLOTS; t++) {
		int rank = 0;
		for (int u = 0; u < SF_PRIO_SLOTS; u++)
			rank += p[u] < p[t] || (p[u] == p[t] && u > t);
		put(o, "%s%d", t ? "," : "", rank);
	}
	put(o, "]");
}

static void put_changes(struct out *o, const struct sf_plan *plan)
{
	struct sf_change c[SF_MAX_CP];
	int n = sf_plan_changes(plan, c);
	put(o, " cp=[");
	for (int i = 0; i < n; i++) {
		put(o, "%s", i ? "," : "");
		if (plan->kind == SF_KIND_PCTVB) {
			put_var(o, plan->var[c[i].stream]);
			put(o, "#");
		} else if (plan->kind == SF_KIND_FOCUS) {
			put_role(o, plan->var[c[i].stream]);
			put(o, ":");
		}
		put(o, "%" PRIu64, c[i].at);
	}
	put(o, "]");
}

int sf_plan_format(const struct sf_plan *plan, char *buf, size_t cap)
{
	struct out o = { buf, buf ? cap : 0, 0 };
	if (buf && cap)
		buf[0] = 0;
	put(&o, "%s", sf_kind_name(plan->kind));
	switch (plan->kind) {
	case SF_KIND_RANDOM:
		put(&o, " seed=0x%" PRIx64, plan->seed);
		break;
	case SF_KIND_EXPLICIT:
		put(&o, " decisions=[");
		for (uint32_t i = 0; i < plan->ndecisions; i++) {
			struct sf_decision d = sf_plan_decision(plan, i);
			put(&o, "%s%" PRIu32 ":%u", i ? "," : "", d.index, d.value);
		}
		put(&o, "]");
		break;
	case SF_KIND_PCT:
	case SF_KIND_RPRO:
	case SF_KIND_PCTVB:
		put(&o, " d=%u", plan->depth);
		if (plan->kind == SF_KIND_RPRO)
			put(&o, " r=%u", plan->radius);
		if (plan->flags & SF_FLAG_LOCKS)
			put(&o, " locks");
		if (plan->flags & SF_FLAG_TB)
			put(&o, " tb");
		if (plan->kind == SF_KIND_PCTVB) {
			put(&o, " v=%u vars=[", plan->nvars);
			for (int v = 0; v < plan->nvars; v++) {
				put(&o, "%s", v ? "," : "");
				put_var(&o, plan->var[v]);
				put(&o, "/%" PRIu32, plan->var_acc[v]);
			}
			put(&o, "]");
		} else {
			put(&o, " k=%" PRIu32, plan->k);
		}
		put_changes(&o, plan);
		put_priorities(&o, plan);
		put(&o, " seed=0x%" PRIx64, plan->seed);
		break;
	case SF_KIND_FOCUS:
		put(&o, " d=%u roles=[", plan->depth);
		for (int r = 0; r < plan->nvars; r++) {
			put(&o, "%s", r ? "," : "");
			put_role(&o, plan->var[r]);
			put(&o, "/%" PRIu32, plan->var_acc[r]);
		}
		put(&o, "]");
		put_changes(&o, plan);
		put_role_priorities(&o, plan);
		put(&o, " seed=0x%" PRIx64, plan->seed);
		break;
	case SF_KIND_COUNT:
		break;
	}
	if (plan->flags & SF_FLAG_NO_SPURIOUS)
		put(&o, " nospurious");
	return o.len;
}
