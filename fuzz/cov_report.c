/* cov_report.c - `schedfuzz cov [--json] CORPUS -- PROG [ARGS...]`.
 *
 * Replays every input of the corpus (oldest first, by modification time
 * then name: the order a campaign found them) in a fresh process with
 * SCHEDFUZZ_COV_DUMP set, merges the dumps (cov_collect.c), and prints the
 * HaPSet pairs with their sites, MAP coverage against MAP's estimate TC,
 * breakdowns per pattern and per variable, and how coverage grew with the
 * corpus. Inputs that fail still count: their interleavings were covered. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cov_collect.h"
#include "cov_report.h"
#include "names.h"
#include "program.h"

/* ---- the corpus ------------------------------------------------------------------ */

struct input {
	char *path;
	struct timespec mtime;
};

static int by_age(const void *a, const void *b)
{
	const struct input *x = a, *y = b;
	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* The regular files of dir (or dir itself, when it is a file); -1 on error. */
static int list_inputs(const char *dir, struct input **out)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", dir, strerror(errno));
		return -1;
	}
	struct input *in = NULL;
	int n = 0, cap = 0;
	if (S_ISREG(st.st_mode)) {
		in = malloc(sizeof *in);
		in[0] = (struct input){ strdup(dir), st.st_mtim };
		*out = in;
		return 1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "schedfuzz: cannot read %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (struct dirent *e; (e = readdir(d));) {
		char *path;
		if (e->d_name[0] == '.' || asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			continue;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			in = realloc(in, (size_t)cap * sizeof *in);
		}
		in[n++] = (struct input){ path, st.st_mtim };
	}
	closedir(d);
	qsort(in, (size_t)n, sizeof *in, by_age);
	*out = in;
	return n;
}

/* ---- printing ---------------------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static const char tc_method[] =
	"estimated: every combination of the read and write sites seen on each variable "
	"(patterns 1-8) and on each ordered pair of variables (patterns 9-17), feasible or "
	"not, so it over-counts and the coverage is a lower bound";

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* MAP per pattern: covered instances and TC's share. */
struct map_summary {
	double total, by[COV_MAP_PATTERNS + 1];
	uint32_t covered[COV_MAP_PATTERNS + 1];
};

static void summarize(const struct cc_corpus *c, struct map_summary *m)
{
	memset(m, 0, sizeof *m);
	m->total = cc_map_total(c, m->by);
	for (uint32_t i = 0; i < c->nfeatures; i++)
		if (c->features[i].kind == COV_MAP)
			m->covered[c->features[i].pattern]++;
}

static void print_text(const struct cc_corpus *c, struct names *nm, const char *corpus)
{
	struct map_summary m;
	summarize(c, &m);

	printf("corpus: %s, %u inputs replayed (%u failed)\n", corpus, c->inputs, c->failures);
	printf("hapset_pairs: %u\n", c->hapset_pairs);
	char a[400], b[400];
	for (uint32_t i = 0; i < c->nfeatures; i++) {
		const struct cc_feature *f = &c->features[i];
		if (f->kind != COV_HAPSET)
			continue;
		names_site(nm, f->site[0], a, sizeof a);
		names_site(nm, f->site[1], b, sizeof b);
		printf("  %s -> %s\n", a, b);
	}
	printf("map_covered: %u\n", c->map_covered);
	printf("map_total_estimate: %.0f\n", m.total);
	printf("map_coverage: %.4f\n", ratio(c->map_covered, m.total));
	printf("  (TC %s)\n", tc_method);
	printf("by pattern:\n");
	for (int p = 1; p <= COV_MAP_PATTERNS; p++)
		printf("  %2d  %-28s %5u / %.0f\n", p, cov_map_pattern_text(p), m.covered[p], m.by[p]);
	printf("by variable (x of the pattern):\n");
	for (uint32_t v = 0; v < c->nvars; v++) {
		uint32_t n = 0;
		for (int p = 1; p <= COV_MAP_PATTERNS; p++)
			n += c->vars[v].covered[p];
		names_var(nm, c->vars[v].kind, c->vars[v].a, c->vars[v].b, a, sizeof a);
		printf("  %-40s reads %u, writes %u: %u / %.0f\n", a, c->vars[v].reads,
		       c->vars[v].writes, n, cc_var_total(c, v));
	}
	printf("growth (inputs: map covered / estimate, hapset pairs):\n");
	for (uint32_t g = 0; g < c->ngrowth; g++)
		printf("  %6u: %u / %.0f (%.4f), %u\n", c->growth[g].inputs, c->growth[g].map_covered,
		       c->growth[g].map_total, ratio(c->growth[g].map_covered, c->growth[g].map_total),
		       c->growth[g].hapset_pairs);
}

static void print_json(const struct cc_corpus *c, struct names *nm, const char *corpus)
{
	struct map_summary m;
	summarize(c, &m);
	char s[400];
	printf("{\n  \"corpus\": ");
	json_string(stdout, corpus);
	printf(",\n  \"inputs\": %u,\n  \"failed_inputs\": %u,\n", c->inputs, c->failures);
	printf("  \"hapset_pairs\": %u,\n  \"map_covered\": %u,\n", c->hapset_pairs, c->map_covered);
	printf("  \"map_total_estimate\": %.0f,\n  \"map_coverage\": %.6f,\n", m.total,
	       ratio(c->map_covered, m.total));
	printf("  \"map_total_method\": ");
	json_string(stdout, tc_method);
	printf(",\n  \"pairs\": [");
	bool first = true;
	for (uint32_t i = 0; i < c->nfeatures; i++) {
		const struct cc_feature *f = &c->features[i];
		if (f->kind != COV_HAPSET)
			continue;
		printf("%s\n    {\"from\": ", first ? "" : ",");
		names_site(nm, f->site[0], s, sizeof s);
		json_string(stdout, s);
		printf(", \"to\": ");
		names_site(nm, f->site[1], s, sizeof s);
		json_string(stdout, s);
		for (int k = 0; k < 2; k++) {
			printf(", \"%s_context\": [", k ? "to" : "from");
			for (int j = 0; j < f->nctx[k]; j++) {
				names_site(nm, f->ctx[k][j], s, sizeof s);
				printf("%s", j ? ", " : "");
				json_string(stdout, s);
			}
			printf("]");
		}
		printf("}");
		first = false;
	}
	printf("%s],\n  \"patterns\": [", first ? "" : "\n  ");
	for (int p = 1; p <= COV_MAP_PATTERNS; p++)
		printf("%s\n    {\"id\": %d, \"steps\": \"%s\", \"covered\": %u, \"total_estimate\": %.0f}",
		       p > 1 ? "," : "", p, cov_map_pattern_text(p), m.covered[p], m.by[p]);
	printf("\n  ],\n  \"variables\": [");
	for (uint32_t v = 0; v < c->nvars; v++) {
		uint32_t n = 0;
		printf("%s\n    {\"name\": ", v ? "," : "");
		names_var(nm, c->vars[v].kind, c->vars[v].a, c->vars[v].b, s, sizeof s);
		json_string(stdout, s);
		printf(", \"read_sites\": %u, \"write_sites\": %u, \"covered_by_pattern\": {",
		       c->vars[v].reads, c->vars[v].writes);
		bool any = false;
		for (int p = 1; p <= COV_MAP_PATTERNS; p++) {
			n += c->vars[v].covered[p];
			if (c->vars[v].covered[p]) {
				printf("%s\"%d\": %u", any ? ", " : "", p, c->vars[v].covered[p]);
				any = true;
			}
		}
		printf("}, \"covered\": %u, \"total_estimate\": %.0f}", n, cc_var_total(c, v));
	}
	printf("%s],\n  \"growth\": [", c->nvars ? "\n  " : "");
	for (uint32_t g = 0; g < c->ngrowth; g++)
		printf("%s\n    {\"inputs\": %u, \"hapset_pairs\": %u, \"map_covered\": %u, "
		       "\"map_total_estimate\": %.0f}",
		       g ? "," : "", c->growth[g].inputs, c->growth[g].hapset_pairs,
		       c->growth[g].map_covered, c->growth[g].map_total);
	printf("%s]\n}\n", c->ngrowth ? "\n  " : "");
}

/* ---- the command -------------------------------------------------------------------- */

static bool power_of_two(uint32_t n)
{
	return n && !(n & (n - 1));
}

int cmd_cov(int argc, char **argv)
{
	bool json = false;
	unsigned timeout = 30;
	const char *corpus = NULL;
	int i;
	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--timeout")) {
			i = program_option_value(argc, argv, i);
			timeout = program_timeout(argv[i - 1], argv[i]);
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "schedfuzz cov: unknown option '%s'\n", argv[i]);
			return SETUP;
		} else if (!corpus) {
			corpus = argv[i];
		} else {
			fprintf(stderr, "schedfuzz cov: one CORPUS only\n");
			return SETUP;
		}
	}
	if (!corpus || i + 1 >= argc) {
		fprintf(stderr, "usage: schedfuzz cov [--json] [--timeout SEC] CORPUS -- PROG [ARGS...]\n");
		return SETUP;
	}
	char **prog = argv + i + 1;
	char *path = program_check(prog);
	if (!path)
		return SETUP;
	struct input *in = NULL;
	int n = list_inputs(corpus, &in);
	if (n <= 0) {
		if (n == 0)
			fprintf(stderr, "schedfuzz: no inputs in %s\n", corpus);
		free(path);
		return SETUP;
	}

	char dump[] = "/tmp/schedfuzz-cov-XXXXXX";
	int fd = mkstemp(dump);
	if (fd < 0) {
		fprintf(stderr, "schedfuzz: cannot create a temporary file: %s\n", strerror(errno));
		free(path);
		return SETUP;
	}
	close(fd);
	setenv("SCHEDFUZZ_COV_DUMP", dump, 1);
	unsetenv("SCHEDFUZZ_RUNS");

	struct cc_corpus c = { 0 };
	int status = OK;
	for (int k = 0; k < n && status == OK; k++) {
		truncate(dump, 0);
		setenv("SCHEDFUZZ_INPUT", in[k].path, 1);
		int st = program_run(path, prog, true, timeout);
		if (st < 0 || (WIFEXITED(st) && WEXITSTATUS(st) == RUNTIME_SETUP_ERROR)) {
			fprintf(stderr, "schedfuzz: %s could not run %s (try schedfuzz replay)\n", prog[0],
				in[k].path);
			status = SETUP;
			break;
		}
		c.inputs++;
		c.failures += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		FILE *f = fopen(dump, "r");
		if (f) {
			cc_merge_dump(&c, f);
			fclose(f);
		}
		if (power_of_two(c.inputs) || k == n - 1)
			cc_note_growth(&c);
	}
	unlink(dump);

	if (status == OK) {
		bool symbolized;
		struct names *nm = names_open(path, &symbolized);
		if (!symbolized)
			fprintf(stderr, "schedfuzz: note: llvm-symbolizer not found (set "
					"SCHEDFUZZ_SYMBOLIZER); sites are shown as offsets\n");
		if (json)
			print_json(&c, nm, corpus);
		else
			print_text(&c, nm, corpus);
		names_close(nm);
	}
	cc_free(&c);
	for (int k = 0; k < n; k++)
		free(in[k].path);
	free(in);
	free(path);
	return status;
}
