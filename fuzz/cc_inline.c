/* cc_inline.c - schedfuzz-cc's compile in two steps, with the access
 * checks inline.
 *
 * Every load and store of the program calls a hook (__tsan_read4, ...),
 * and on memory the thread owns the hook only checks the shadow and
 * returns. The call itself costs as much as the check: the program's
 * registers are saved around it and its loops cannot keep values in them.
 * So each source is compiled to LLVM bitcode with the command's own
 * options (the TSan pass included); llvm-link adds the runtime's fast path
 * (rt_inline.c, schedfuzz_inline.bc), whose definitions of the hooks it
 * makes internal to that module; opt inlines them (always-inline alone:
 * the module was optimised in the first step); and clang compiles the
 * result to the object without optimising it again. Only the slow path
 * stays a call. (clang 14's -mlink-builtin-bitcode would link, but not
 * for bitcode input.) The
 * objects hold the same scheduling points as before; they are only
 * cheaper to pass (docs/cost.md). The bitcode, and the objects of a
 * compile-and-link, are written in a private directory (cc_scratch.c):
 * only clang's own outputs appear, under clang's names.
 *
 * Commands it leaves alone run as before, with the hooks called:
 * position-independent code (the inline check reads the runtime's
 * thread-local state with the executable's TLS model), LTO, assembly,
 * preprocessing and other outputs, response files, files clang names
 * after the output (coverage notes, stack usage), a compiler of another
 * LLVM version than the bitcode's or without llvm-link and opt beside it,
 * and
 * SCHEDFUZZ_INLINE=0. */
#define _GNU_SOURCE
#include "cc_inline.h"
#include "cc_scratch.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* SCHEDFUZZ_DEFAULT_CLANG, SCHEDFUZZ_DEFAULT_CLANGXX and
 * SCHEDFUZZ_CLANG_MAJOR come from the build (fuzz/CMakeLists.txt). */

bool cc_takes_value(const char *a)
{
	static const char *const with_value[] = {
		"-o", "-x", "-I", "-L", "-MF", "-MT", "-MQ", "-include", "-isystem", "-D", "-U",
		"-Xlinker", "-idirafter", "-iquote", "-imacros", "-l", "-mllvm", "-Xclang",
		"-Xassembler", "-Xpreprocessor", "-target", "-z", "-u", "-T", "-e", "-isysroot",
		"-iprefix", "-iwithprefix", "-iwithprefixbefore", "-imultilib", "--param", "-MJ",
		"-arch", "-include-pch", "-B", "--sysroot", "-resource-dir", "-ivfsoverlay",
		"-iwithsysroot", "-isystem-after", "-cxx-isystem", "-working-directory", "-A", "-F",
		"-iframework", "-framework", "-Xanalyzer", "-Xopenmp-target", "-Xcuda-ptxas",
		"-Xcuda-fatbinary", "-Xarch_host", "-Xarch_device", "-serialize-diagnostics",
		"-dependency-file", "-dependency-dot", "--output",
	};
	for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
		if (!strcmp(a, with_value[i]))
			return true;
	return false;
}

static bool has_prefix(const char *a, const char *p) { return !strncmp(a, p, strlen(p)); }

/* A file clang compiles from C or C++, by its name. */
static bool is_source(const char *a)
{
	static const char *const ext[] = { "c", "cc", "cp", "cpp", "cxx", "c++", "C", "CPP", "i", "ii" };
	const char *dot = strrchr(a, '.');
	if (!dot || strchr(dot, '/'))
		return false;
	for (size_t i = 0; i < sizeof ext / sizeof *ext; i++)
		if (!strcmp(dot + 1, ext[i]))
			return true;
	return false;
}

/* An option this path does not handle: another kind of output, code for
 * a shared object, whole-program or split builds. */
static bool declines(const char *a)
{
	static const char *const exact[] = { "-fPIC", "-fpic", "-shared", "-S", "-E", "-M", "-MM",
					     "-fsyntax-only", "-emit-llvm", "-x", "-", "-###",
					     "-gsplit-dwarf" };
	for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
		if (!strcmp(a, exact[i]))
			return true;
	/* Files clang names after the output, which the first step writes
	 * elsewhere: coverage notes, stack usage, time traces, records. */
	static const char *const beside_output[] = { "--coverage", "-ftest-coverage", "-fprofile-arcs",
						     "-fstack-usage", "-ftime-trace",
						     "-fsave-optimization-record", "-MJ", "-fdump-" };
	for (size_t i = 0; i < sizeof beside_output / sizeof *beside_output; i++)
		if (has_prefix(a, beside_output[i]))
			return true;
	/* Joined values (-ofile, -MFfile): the separate forms are enough. */
	if ((has_prefix(a, "-o") && a[2]) || (has_prefix(a, "-x") && a[2]) || has_prefix(a, "--output") ||
	    ((has_prefix(a, "-MF") || has_prefix(a, "-MT") || has_prefix(a, "-MQ")) && a[3]))
		return true;
	return a[0] == '@' || has_prefix(a, "-flto") || has_prefix(a, "-save-temps") ||
	       has_prefix(a, "-fembed-bitcode");
}

/* Options the last step (bitcode to object) needs: optimisation,
 * target and code generation. Instrumenting ones stay out of it: the
 * first step ran those passes, and they must not see the hooks' code. */
static int codegen_words(char **argv, int i, int argc)
{
	const char *a = argv[i];
	if (!strcmp(a, "-mllvm") || !strcmp(a, "-target") || !strcmp(a, "-Xassembler"))
		return i + 1 < argc ? 2 : 0;
	static const char *const instrumenting[] = {
		"-fsanitize", "-fno-sanitize", "-fprofile", "-fno-profile", "-fcs-profile",
		"-fpass-plugin", "-fplugin", "-fcoverage", "-fno-coverage",
		"-fsave-optimization-record",
	};
	if (has_prefix(a, "-f")) {
		for (size_t k = 0; k < sizeof instrumenting / sizeof *instrumenting; k++)
			if (has_prefix(a, instrumenting[k]))
				return 0;
		return 1;
	}
	return has_prefix(a, "-O") || has_prefix(a, "-g") || has_prefix(a, "-m") ||
			       has_prefix(a, "-Wa,") || has_prefix(a, "--target=") || !strcmp(a, "-w")
		       ? 1
		       : 0;
}

void cc_words_add(struct cc_words *w, const char *a)
{
	if (w->n + 2 > w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->v = realloc(w->v, (size_t)w->cap * sizeof *w->v);
		if (!w->v) {
			fprintf(stderr, "schedfuzz-cc: out of memory\n");
			exit(1);
		}
	}
	w->v[w->n++] = (char *)a;
	w->v[w->n] = NULL;
}

/* Runs a command to its end: its exit status (128 + the signal that
 * ended it, 127 if it did not start). */
static int run(char **v)
{
	if (getenv("SCHEDFUZZ_CC_VERBOSE")) {
		for (int i = 0; v[i]; i++)
			fprintf(stderr, "%s%s", i ? " " : "", v[i]);
		fprintf(stderr, "\n");
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		execvp(v[0], v);
		fprintf(stderr, "schedfuzz-cc: cannot run %s: %s\n", v[0], strerror(errno));
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Whether the compiler reads the bitcode's LLVM version: the one schedfuzz
 * was built with, or one that says it has the same major version. */
static bool same_llvm(const char *compiler)
{
	if (!strcmp(compiler, SCHEDFUZZ_DEFAULT_CLANG) || !strcmp(compiler, SCHEDFUZZ_DEFAULT_CLANGXX))
		return true;
	const char *base = strrchr(compiler, '/');
	if (has_prefix(base ? base + 1 : compiler, "afl-"))
		return false; /* AFL++'s wrappers add passes of their own to every step */
	char *cmd;
	if (strchr(compiler, '\'') || asprintf(&cmd, "'%s' -dumpversion 2>/dev/null", compiler) < 0)
		return false;
	FILE *p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return false;
	int major = 0;
	bool ok = fscanf(p, "%d", &major) == 1;
	return pclose(p) == 0 && ok && major == SCHEDFUZZ_CLANG_MAJOR;
}

/* An LLVM tool (llvm-link, opt) of the compiler's own LLVM: beside the
 * clang it runs (/usr/bin/clang-14 is /usr/lib/llvm-14/bin/clang), else
 * TOOL-MAJOR or TOOL on the PATH; NULL if there is none. */
static char *find_llvm_tool(const char *compiler, const char *tool)
{
	char *path = NULL;
	if (strchr(compiler, '/')) {
		path = realpath(compiler, NULL);
	} else {
		const char *dirs = getenv("PATH");
		char *copy = strdup(dirs ? dirs : "/usr/bin"), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d && !path; d = strtok_r(NULL, ":", &save)) {
			char *cand;
			if (asprintf(&cand, "%s/%s", d, compiler) < 0)
				exit(1);
			if (access(cand, X_OK) == 0)
				path = realpath(cand, NULL);
			free(cand);
		}
		free(copy);
	}
	char *out;
	if (path) {
		if (asprintf(&out, "%s/%s", dirname(path), tool) < 0)
			exit(1);
		free(path);
		if (access(out, X_OK) == 0)
			return out;
		free(out);
	}
	for (int versioned = 1; versioned >= 0; versioned--) {
		char *name, *probe;
		if ((versioned ? asprintf(&name, "%s-%d", tool, SCHEDFUZZ_CLANG_MAJOR)
			       : asprintf(&name, "%s", tool)) < 0 ||
		    asprintf(&probe, "command -v %s >/dev/null 2>&1", name) < 0)
			exit(1);
		int found = system(probe) == 0;
		free(probe);
		if (found)
			return name;
		free(name);
	}
	return NULL;
}

/* The object clang writes for a source compiled with -c and no -o: the
 * source's name without its directory and extension, with ".o", in the
 * working directory. */
static char *default_object(const char *src)
{
	char *copy = strdup(src), *base = basename(copy), *out;
	char *dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = 0;
	if (asprintf(&out, "%s.o", base) < 0)
		exit(1);
	free(copy);
	return out;
}

/* The dependency file clang writes for -MD or -MMD without -MF: the
 * output's name with ".d" for its extension, or without -o the source's
 * stem with ".d" in the working directory. */
static char *default_depfile(const char *out, const char *src)
{
	char *name;
	if (out) {
		const char *slash = strrchr(out, '/'), *file = slash ? slash + 1 : out;
		const char *dot = strrchr(file, '.');
		int keep = dot ? (int)(dot - out) : (int)strlen(out);
		if (asprintf(&name, "%.*s.d", keep, out) < 0)
			exit(1);
		return name;
	}
	char *obj = default_object(src);
	obj[strlen(obj) - 1] = 'd';
	return obj;
}

/* What the steps after the first need, the same for every source: the
 * LLVM tools, the hooks' bitcode, the command's code generation options
 * (codegen_words) behind the compiler, and the private directory. */
struct steps {
	char *link, *opt;
	const char *bitcode, *scratch;
	struct cc_words codegen;
};

/* Steps two to four: the hooks' fast path linked into the bitcode bc and
 * inlined (only that: the module was optimised in step one), then the
 * result compiled to the object obj. Intermediates stay in the scratch
 * directory; clang itself writes obj, as it writes any output. */
static int to_object(const struct steps *st, const char *bc, const char *obj)
{
	char *linked, *inlined;
	if (asprintf(&linked, "%s.linked.bc", bc) < 0 || asprintf(&inlined, "%s.inlined.bc", bc) < 0)
		exit(1);
	char *link[] = { st->link, (char *)bc, "--internalize", "--only-needed", (char *)st->bitcode,
			 "-o", linked, NULL };
	char *opt[] = { st->opt, "-passes=always-inline,globaldce", linked, "-o", inlined, NULL };
	int status = run(link);
	if (status == 0)
		status = run(opt);
	if (status == 0) {
		struct cc_words w = { 0 };
		for (int i = 0; i < st->codegen.n; i++)
			cc_words_add(&w, st->codegen.v[i]);
		const char *tail[] = { "-Wno-unused-command-line-argument", "-c", "-x", "ir", inlined,
				       "-Xclang", "-disable-llvm-passes", "-o", obj };
		for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
			cc_words_add(&w, tail[i]);
		status = run(w.v);
		free(w.v);
	}
	unlink(linked);
	unlink(inlined);
	free(linked);
	free(inlined);
	return status;
}

/* A later step failed (it should not): the command as it was, with
 * the hooks called. */
static int fall_back(char **argv)
{
	fprintf(stderr, "schedfuzz-cc: could not inline the access checks; compiling with calls "
			"(SCHEDFUZZ_INLINE=0 skips the attempt)\n");
	return run(argv);
}

/* What a -c command asks of dependency files. */
struct deps {
	bool make;		/* -MD or -MMD */
	bool named;		/* -MF */
	bool targeted;		/* -MT or -MQ */
};

/* The compile of the source at argv[src] alone, as clang runs it for a -c
 * command: every option but -o, the other sources left out, the output at
 * to; the dependency file and its target named as clang names them for
 * the command itself, since the output is not where clang would derive
 * them from. */
static char **one_source(char **argv, int argc, int src, const char *obj, const char *out,
			 const struct deps *d, const char *to, bool bitcode)
{
	struct cc_words w = { 0 };
	for (int i = 0; i < argc; i++) {
		if (i > 0 && !strcmp(argv[i], "-o")) {
			i++;
			continue;
		}
		if (i > 0 && cc_takes_value(argv[i])) {
			cc_words_add(&w, argv[i]);
			if (++i < argc)
				cc_words_add(&w, argv[i]);
			continue;
		}
		if (i == src || i == 0 || argv[i][0] == '-' || !is_source(argv[i]))
			cc_words_add(&w, argv[i]);
	}
	if (d->make && !d->named) {
		cc_words_add(&w, "-MF");
		cc_words_add(&w, default_depfile(out, argv[src]));
	}
	if (d->make && !d->targeted) {
		cc_words_add(&w, "-MQ"); /* clang quotes its default target as -MQ does */
		cc_words_add(&w, obj);
	}
	if (bitcode)
		cc_words_add(&w, "-emit-llvm");
	cc_words_add(&w, "-o");
	cc_words_add(&w, to);
	return w.v;
}

/* -c: each source, in the order given, to bitcode in the scratch
 * directory and then to the object clang would write (out, or the
 * source's stem with .o). As with clang, a source that fails does not
 * stop the others; the status is the first failure's. */
static int compile_only(char **argv, int argc, const char *out, const struct deps *d,
			const struct steps *st)
{
	int first_failure = 0, made = 0;
	for (int i = 1; i < argc; i++) {
		if (cc_takes_value(argv[i])) {
			i++;
			continue;
		}
		if (argv[i][0] == '-' || !is_source(argv[i]))
			continue;
		char *obj = out ? strdup(out) : default_object(argv[i]), *bc;
		if (asprintf(&bc, "%s/%d.bc", st->scratch, made++) < 0)
			exit(1);
		int status = run(one_source(argv, argc, i, obj, out, d, bc, true));
		if (status == 0 && to_object(st, bc, obj) != 0) {
			fprintf(stderr, "schedfuzz-cc: could not inline the access checks; compiling "
					"with calls (SCHEDFUZZ_INLINE=0 skips the attempt)\n");
			status = run(one_source(argv, argc, i, obj, out, d, obj, false));
		}
		unlink(bc);
		if (status != 0 && first_failure == 0)
			first_failure = status;
		free(bc);
		free(obj);
	}
	return first_failure;
}

/* Sources on a link command: each compiled to an object in the scratch
 * directory, in two steps, then the link with those objects in the
 * sources' places. */
static int compile_and_link(char **argv, int argc, const struct steps *st)
{
	struct cc_words link = { 0 };
	int status = 0, made = 0;
	for (int i = 0; i < argc && status == 0; i++) {
		if (i > 0 && cc_takes_value(argv[i])) {
			cc_words_add(&link, argv[i]);
			if (++i < argc)
				cc_words_add(&link, argv[i]);
			continue;
		}
		if (i == 0 || argv[i][0] == '-' || !is_source(argv[i])) {
			cc_words_add(&link, argv[i]);
			continue;
		}
		char *obj, *bc;
		if (asprintf(&obj, "%s/%d.o", st->scratch, made) < 0 ||
		    asprintf(&bc, "%s/%d.bc", st->scratch, made++) < 0)
			exit(1);
		cc_words_add(&link, obj);
		const struct deps none = { 0 };
		char **cc = one_source(argv, argc, i, obj, NULL, &none, bc, true);
		/* -c after the command's own words: its link-only ones (-l, -L,
		 * objects) are then unused, and said so by nobody. */
		struct cc_words w = { 0 };
		for (int k = 0; cc[k]; k++)
			cc_words_add(&w, cc[k]);
		cc_words_add(&w, "-c");
		status = run(w.v);
		free(w.v);
		free(cc);
		if (status == 0 && to_object(st, bc, obj) != 0)
			status = -1;
		unlink(bc);
		free(bc);
	}
	if (status == 0)
		status = run(link.v);
	else if (status == -1)
		status = fall_back(argv);
	free(link.v);
	return status;
}

int cc_inline_run(char **argv, int argc, const char *bitcode)
{
	const char *env = getenv("SCHEDFUZZ_INLINE");
	if ((env && !strcmp(env, "0")) || access(bitcode, R_OK) != 0)
		return -1;
	bool compile = false, deps = false;
	struct deps d = { 0 };
	int sources = 0, others = 0;
	const char *out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (declines(a))
			return -1;
		if (!strcmp(a, "-c"))
			compile = true;
		else if (has_prefix(a, "-M"))
			deps = true;
		if (!strcmp(a, "-MD") || !strcmp(a, "-MMD"))
			d.make = true;
		else if (!strcmp(a, "-MF"))
			d.named = true;
		else if (!strcmp(a, "-MT") || !strcmp(a, "-MQ"))
			d.targeted = true;
		if (!strcmp(a, "-o") && i + 1 < argc)
			out = argv[i + 1];
		if (cc_takes_value(a))
			i++;
		else if (a[0] != '-' && is_source(a))
			sources++;
		else if (a[0] != '-')
			others++;
	}
	/* Left to clang as it is: what it would refuse or write elsewhere
	 * (-o with several sources, one dependency file for several), and
	 * dependency files of a link. */
	if (sources == 0 || (out && !strcmp(out, "-")) ||
	    (compile && (others || (sources > 1 && (out || d.named)))) || (!compile && deps) ||
	    !same_llvm(argv[0]))
		return -1;
	struct steps st = { find_llvm_tool(argv[0], "llvm-link"), find_llvm_tool(argv[0], "opt"),
			    bitcode, NULL, { 0 } };
	cc_words_add(&st.codegen, argv[0]);
	for (int i = 1; i < argc; i++) {
		int k = codegen_words(argv, i, argc);
		for (int j = 0; j < k; j++)
			cc_words_add(&st.codegen, argv[i + j]);
		if (k == 0 && cc_takes_value(argv[i]))
			i++;
		else if (k > 1)
			i += k - 1;
	}
	int status = -1;
	if (st.link && st.opt && (st.scratch = cc_scratch_dir()))
		status = compile ? compile_only(argv, argc, out, &d, &st) : compile_and_link(argv, argc, &st);
	free(st.link);
	free(st.opt);
	free(st.codegen.v);
	return status;
}
