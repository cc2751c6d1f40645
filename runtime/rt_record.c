/* rt_record.c - SCHEDFUZZ_RECORD: the executed schedule as an explicit
 * genome, the decisions that departed from the default, which is all the
 * explicit strategy needs to replay it. An observer of the execution. */
#include <stdlib.h>

#include "rt_internal.h"
#include "rt_observer.h"

static struct {
	struct rt_departures kept;
	int fd; /* opened before the program runs (rt_outfile.c), -1 until then */
} rec = { .fd = -1 };

static bool record_on(void)
{
	return rt.cfg.record_path != NULL;
}

static void record_begin(void)
{
	rec.kept.n = 0;
	if (rt.cfg.record_path)
		rt_outfile_open(rt.cfg.record_path, &rec.fd);
}

void rt_departures_add(struct rt_departures *l, const struct rt_decision *d)
{
	if (!d->departs)
		return;
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 256;
		struct sf_decision *p = realloc(l->dec, cap * sizeof *p);
		if (!p)
			return;
		l->dec = p;
		l->cap = cap;
	}
	l->dec[l->n].index = d->index;
	l->dec[l->n].value = (uint16_t)d->value;
	l->n++;
}

static void record_decision(const struct rt_decision *d)
{
	rt_departures_add(&rec.kept, d);
}

static void record_end(enum rt_fail_kind fail)
{
	(void)fail;
	if (!rt.cfg.record_path)
		return;
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .seed = rt.plan.seed,
			     .flags = rt.plan.flags & SF_FLAG_NO_SPURIOUS };
	size_t need = sf_genome_encode(&p, rec.kept.dec, rec.kept.n, NULL, 0);
	uint8_t *buf = malloc(need);
	FILE *f = buf ? rt_outfile_rewrite(rt.cfg.record_path, &rec.fd, "wb") : NULL;
	if (f) {
		sf_genome_encode(&p, rec.kept.dec, rec.kept.n, buf, need);
		fwrite(buf, 1, need, f);
		fclose(f);
	}
	free(buf);
}

const struct rt_observer rt_record_observer = {
	.name = "record",
	.on = record_on,
	.begin = record_begin,
	.decision = record_decision,
	.end = record_end,
};
