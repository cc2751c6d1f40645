/* spec.c - parsing "--strategy SPEC" and pinning it into plans. */
#include "spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool number(const char *s, size_t len, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (errno || *end || buf[0] == '-' || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static bool fail(char *err, size_t cap, const char *fmt, const char *a, int alen)
{
	snprintf(err, cap, fmt, alen, a);
	return false;
}

bool sf_spec_parse(const char *text, struct sf_spec *spec, char *err, size_t errcap)
{
	memset(spec, 0, sizeof *spec);
	const char *colon = strchr(text, ':');
	size_t klen = colon ? (size_t)(colon - text) : strlen(text);
	int kind = -1;
	for (int k = 0; k < SF_KIND_COUNT; k++) {
		const char *name = sf_kind_name((enum sf_kind)k);
		if (strlen(name) == klen && strncmp(text, name, klen) == 0)
			kind = k;
	}
	if (kind < 0)
		return fail(err, errcap,
			    "unknown strategy '%.*s' (random, explicit, pct, rpro, pctvb, focus; "
			    "systematic, for run only: dfs, icb, dpor, dpor+hapset)",
			    text,
			    (int)klen);
	spec->kind = (enum sf_kind)kind;
	bool prio = sf_kind_has_priorities(spec->kind);
	if (!colon)
		return true;

	for (const char *p = colon + 1;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		size_t nlen = eq ? (size_t)(eq - p) : len;
		const char *val = eq ? eq + 1 : NULL;
		size_t vlen = eq ? len - nlen - 1 : 0;
		uint64_t v = 0;
#define IS(name) (nlen == sizeof(name) - 1 && strncmp(p, name, nlen) == 0)
		if (!prio)
			return fail(err, errcap, "strategy %.*s takes no parameters", text, (int)klen);
		if (IS("d") && val) {
			if (!number(val, vlen, 1, SF_MAX_DEPTH, &v))
				return fail(err, errcap, "d=%.*s: the depth is a number from 1 to 8", val,
					    (int)vlen);
			spec->depth = (uint8_t)v;
			spec->given |= SF_SPEC_DEPTH;
		} else if (IS("r") && val && spec->kind == SF_KIND_RPRO) {
			if (!number(val, vlen, 1, 65535, &v))
				return fail(err, errcap, "r=%.*s: the radius is a number from 1 to 65535",
					    val, (int)vlen);
			spec->radius = (uint16_t)v;
			spec->given |= SF_SPEC_RADIUS;
		} else if (IS("v") && val && spec->kind == SF_KIND_PCTVB) {
			if (!number(val, vlen, 1, SF_MAX_VARS, &v))
				return fail(err, errcap, "v=%.*s: the variable bound is a number from 1 to 4",
					    val, (int)vlen);
			spec->nvars = (uint8_t)v;
			spec->given |= SF_SPEC_NVARS;
		} else if (IS("k") && val && spec->kind != SF_KIND_PCTVB && spec->kind != SF_KIND_FOCUS) {
			if (!number(val, vlen, 1, UINT32_MAX, &v))
				return fail(err, errcap, "k=%.*s: k is a number from 1 to 4294967295", val,
					    (int)vlen);
			spec->k = (uint32_t)v;
			spec->given |= SF_SPEC_K;
		} else if (IS("locks") && !val && spec->kind != SF_KIND_PCTVB &&
			   spec->kind != SF_KIND_FOCUS) {
			spec->flags |= SF_FLAG_LOCKS;
			spec->given |= SF_SPEC_FLAGS;
		} else if (IS("tb") && !val && spec->kind != SF_KIND_FOCUS) {
			spec->flags |= SF_FLAG_TB;
			spec->given |= SF_SPEC_FLAGS;
		} else if (IS("notb") && !val && spec->kind != SF_KIND_FOCUS) {
			spec->flags &= (uint8_t)~SF_FLAG_TB;
			spec->given |= SF_SPEC_FLAGS;
		} else {
			return fail(err, errcap, "'%.*s' is not a parameter of this strategy", p, (int)len);
		}
#undef IS
		if (!comma)
			break;
		p = comma + 1;
	}
	return true;
}

void sf_spec_pin(const struct sf_spec *spec, struct sf_plan *plan)
{
	plan->kind = spec->kind;
	if (spec->given & SF_SPEC_DEPTH)
		plan->depth = spec->depth;
	if (spec->given & SF_SPEC_RADIUS)
		plan->radius = spec->radius;
	if (spec->given & SF_SPEC_NVARS)
		plan->nvars = spec->nvars;
	if (spec->given & SF_SPEC_K)
		plan->k = spec->k;
	if (spec->given & SF_SPEC_FLAGS)
		plan->flags = spec->flags;
}

void sf_spec_complete(struct sf_spec *spec)
{
	if (!(spec->given & SF_SPEC_DEPTH))
		spec->depth = spec->kind == SF_KIND_PCTVB ? 2 : 3;
	if (!(spec->given & SF_SPEC_RADIUS))
		spec->radius = 20;
	if (!(spec->given & SF_SPEC_NVARS))
		spec->nvars = 1;
	if (!(spec->given & SF_SPEC_FLAGS))
		spec->flags = 0;
	spec->given |= SF_SPEC_DEPTH | SF_SPEC_RADIUS | SF_SPEC_NVARS | SF_SPEC_FLAGS;
}
