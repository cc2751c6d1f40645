/* trace_html.c - the interleaving as a self-contained HTML page: threads
 * as columns, events in order down the page, preemptions highlighted, and
 * each event's stack on hover (its title). No script and no external file:
 * the page opens anywhere, attached to a bug report. */
#include <errno.h>
#include <string.h>

#include "trace.h"

static const char style[] =
	"body{font:13px/1.35 system-ui,sans-serif;margin:16px;color:#222;background:#fff}"
	"h1{font-size:18px;margin:0 0 6px}h1.fail{color:#b00020}"
	".meta{color:#444;margin:2px 0}.meta code{background:#f3f3f3;padding:1px 4px}"
	".legend span{display:inline-block;padding:1px 8px;margin-right:8px;border-radius:3px}"
	"table{border-collapse:collapse;margin-top:10px}"
	"th{position:sticky;top:0;background:#333;color:#fff;padding:4px 8px;text-align:left}"
	"td{border-bottom:1px solid #e6e6e6;padding:2px 6px;vertical-align:top;white-space:nowrap}"
	"td.step{color:#777;text-align:right;font-variant-numeric:tabular-nums}"
	"td.site{color:#555;font-family:monospace}"
	"td.lane{min-width:150px}"
	".ev{padding:2px 6px;border-radius:3px;cursor:default}"
	".mem{background:#9cc3f5}.sync{background:#a6dba0}.life{background:#d9d9d9}"
	".waits{background:#f4a6a6}.end{background:#f4a6a6;font-weight:bold}"
	"tr.pre td{background:#ffcf8f}tr.pre td.step::before{content:'\\25B6  '}"
	"tr.last td{border-top:2px solid #b00020}";

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char *css_class(const struct trace_rec *r)
{
	if (r->type == TR_BLOCK)
		return "waits";
	if (r->type == TR_STATE)
		return "end";
	if (r->var_kind && !r->obj[0])
		return "mem";
	if (!strcmp(r->kind, "start") || !strcmp(r->kind, "exit") || !strcmp(r->kind, "create") ||
	    !strcmp(r->kind, "yield") || !strcmp(r->kind, "sleep"))
		return "life";
	return "sync";
}

/* The hover text: what happened, where, and the calls that led there. */
static void stack(FILE *f, const struct trace_rec *r, struct names *nm, const char *what)
{
	char s[512];
	esc(f, what);
	names_site(nm, r->site, s, sizeof s);
	fputs("&#10;at ", f);
	esc(f, s);
	for (int i = 0; i < r->nctx; i++) {
		names_site(nm, r->ctx[i], s, sizeof s);
		fputs("&#10;called from ", f);
		esc(f, s);
	}
}

static void lane_cell(FILE *f, const struct trace_rec *r, struct names *nm, const char *text)
{
	fprintf(f, "<td class=\"lane\"><span class=\"ev %s\" title=\"", css_class(r));
	stack(f, r, nm, text);
	fputs("\">", f);
	esc(f, text);
	fputs("</span></td>", f);
}

int trace_write_html(const char *path, const struct trace *t, struct names *nm,
		     const char *title, const char *replay_command)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>schedfuzz: ", f);
	esc(f, title);
	fprintf(f, "</title><style>%s</style></head><body>\n", style);
	if (t->failed) {
		fputs("<h1 class=\"fail\">", f);
		esc(f, t->fail_kind);
		fputs(": ", f);
		esc(f, t->fail_msg);
		if (t->fail_site) {
			fputs(" at ", f);
			esc(f, names_where(nm, t->fail_site));
		}
		fputs("</h1>\n", f);
	} else {
		fputs("<h1>no failure</h1>\n", f);
	}
	fputs("<p class=\"meta\">input <code>", f);
	esc(f, title);
	fprintf(f, "</code> &middot; %llu steps &middot; %llu preemptions &middot; %llu decisions</p>\n",
		(unsigned long long)t->steps, (unsigned long long)t->preemptions,
		(unsigned long long)t->decisions);
	fputs("<p class=\"meta\">schedule <code>", f);
	esc(f, t->plan);
	fputs("</code></p>\n<p class=\"meta\">replay <code>", f);
	esc(f, replay_command);
	fputs("</code></p>\n", f);
	if (t->dropped)
		fprintf(f, "<p class=\"meta\">the first %llu events are not shown</p>\n",
			(unsigned long long)t->dropped);
	fputs("<p class=\"legend\"><span class=\"mem\">memory access</span><span class=\"sync\">"
	      "synchronisation</span><span class=\"life\">thread start, exit, create</span>"
	      "<span class=\"waits\">must wait</span><span style=\"background:#ffcf8f\">"
	      "&#9654; preemption</span> hover an event for its stack</p>\n",
	      f);

	fputs("<table><thead><tr><th>step</th>", f);
	for (int i = 0; i < t->nthreads; i++)
		fprintf(f, "<th>T%d</th>", i);
	fputs("<th>site</th></tr></thead><tbody>\n", f);
	char text[512], site[512];
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_rec *r = &t->rec[i];
		if (r->type == TR_STATE)
			continue;
		char d[480];
		trace_describe(r, nm, d, sizeof d);
		if (r->type == TR_BLOCK)
			snprintf(text, sizeof text, "waits to %s", d);
		else
			snprintf(text, sizeof text, "%s%s%s%s", r->waited ? "(after waiting) " : "",
				 r->timed_out ? "(timed out) " : "",
				 r->spurious ? "(returned without a signal: a spurious wakeup) " : "", d);
		fprintf(f, "<tr%s><td class=\"step\">", r->preempt ? " class=\"pre\"" : "");
		if (r->type == TR_EVENT)
			fprintf(f, "%llu", (unsigned long long)r->step);
		fputs("</td>", f);
		for (int tid = 0; tid < t->nthreads; tid++) {
			if (tid == r->tid)
				lane_cell(f, r, nm, text);
			else
				fputs("<td class=\"lane\"></td>", f);
		}
		names_site(nm, r->site, site, sizeof site);
		fputs("<td class=\"site\">", f);
		esc(f, site);
		fputs("</td></tr>\n", f);
	}
	if (t->failed) {
		fputs("<tr class=\"last\"><td class=\"step\">end</td>", f);
		for (int tid = 0; tid < t->nthreads; tid++) {
			const struct trace_rec *st = trace_end_state(t, tid);
			if (!st) {
				fputs("<td class=\"lane\">finished</td>", f);
				continue;
			}
			trace_describe(st, nm, text, sizeof text);
			lane_cell(f, st, nm, text);
		}
		fputs("<td></td></tr>\n", f);
	}
	fputs("</tbody></table>\n</body></html>\n", f);
	if (fclose(f) != 0) {
		fprintf(stderr, "schedfuzz: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}
