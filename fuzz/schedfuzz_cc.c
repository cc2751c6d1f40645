/* schedfuzz_cc.c - schedfuzz-cc and schedfuzz-c++: drop-in compiler
 * wrappers that build a program for controlled scheduling.
 *
 * Compiling adds ThreadSanitizer instrumentation (only the compiler's
 * hooks: the sanitizer runtime is never linked) and line tables. Linking an
 * executable adds our runtime, whole, so that it interposes the pthread API
 * even for calls that come from shared libraries, and wraps main() (and
 * LLVMFuzzerTestOneInput when -fsanitize=fuzzer builds a libFuzzer
 * harness). Everything else on the command line passes through untouched,
 * so the wrappers work as CC/CXX for make, CMake and configure scripts.
 *
 * A harness is a program whose main() comes from an engine: one built with
 * -fsanitize=fuzzer (or linked with AFL++'s libAFLDriver.a, as OSS-Fuzz's
 * $LIB_FUZZING_ENGINE names it). SCHEDFUZZ_ENGINE picks the engine:
 *   libfuzzer   libFuzzer (what -fsanitize=fuzzer alone means);
 *   afl         afl-fuzz: AFL++'s runtime (forkserver, shared-memory test
 *               cases) and edge coverage through sanitizer-coverage's
 *               trace-pc-guard, which that runtime implements; our
 *               interleaving coverage joins its map. A main() program is
 *               forked per test case; a harness runs in persistent mode
 *               (fuzz/driver_afl.c replaces libAFLDriver.a);
 *   standalone  no engine: a main() program as it is; a harness gets a
 *               main() that runs it over files (fuzz/driver_standalone.c).
 * For afl and standalone, -fsanitize=fuzzer and fuzzer-no-link are taken
 * off the command line: libFuzzer is not linked, nor its counters added.
 *
 * Sanitizers (-fsanitize=..., or SCHEDFUZZ_SANITIZER=address|undefined|...):
 *   address    the ASan mode: clang cannot combine the TSan instrumentation
 *              with ASan, so memory accesses reach the runtime through
 *              SanitizerCoverage's trace-loads,trace-stores callbacks and
 *              atomics through the TSan pass run for atomics alone; ASan's
 *              own runtime is linked and ours (libschedfuzz_rt_asan.a) chains
 *              to its interceptors;
 *   undefined  UBSan, in either mode; beside the TSan instrumentation its
 *              standalone runtime is linked, since TSan's (which would hold
 *              it) is not;
 *   leak       LeakSanitizer: the ASan mode, whose runtime holds it (LSan's
 *              standalone runtime cannot be linked beside ours: both
 *              define pthread_create); leaks are reported the same way,
 *              and ASan's memory errors too;
 *   memory     rejected: MemorySanitizer needs its own thread interceptors
 *              and every library instrumented.
 *
 * As a CMake launcher (see fuzz/cmake/schedfuzzConfig.cmake.in) it is run as
 * "schedfuzz-cc --launch=ENGINE COMPILER ARGS...".
 *
 * Environment: SCHEDFUZZ_CLANG / SCHEDFUZZ_CLANGXX pick the compilers,
 * SCHEDFUZZ_LIBDIR the directory holding libschedfuzz_rt.a,
 * SCHEDFUZZ_FUZZER_LIB libFuzzer's archive, SCHEDFUZZ_AFL_RT AFL++'s
 * afl-compiler-rt.o, SCHEDFUZZ_CLANG_RT_DIR clang's runtime directory (for
 * UBSan's), SCHEDFUZZ_SANITIZER sanitizers to add, SCHEDFUZZ_INLINE=0 calls
 * the access hooks instead of compiling their fast path inline
 * (cc_inline.c), SCHEDFUZZ_CC_VERBOSE=1 prints the commands that run. */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cc_args.h"
#include "cc_inline.h"

#ifndef SCHEDFUZZ_DEFAULT_CLANG
#define SCHEDFUZZ_DEFAULT_CLANG "clang-14"
#endif
#ifndef SCHEDFUZZ_DEFAULT_CLANGXX
#define SCHEDFUZZ_DEFAULT_CLANGXX "clang++-14"
#endif
#ifndef SCHEDFUZZ_DEFAULT_FUZZER_LIB
#define SCHEDFUZZ_DEFAULT_FUZZER_LIB ""
#endif
#ifndef SCHEDFUZZ_DEFAULT_CLANG_RT_DIR
#define SCHEDFUZZ_DEFAULT_CLANG_RT_DIR ""
#endif
#ifndef SCHEDFUZZ_DEFAULT_AFL_RT
#define SCHEDFUZZ_DEFAULT_AFL_RT "/usr/lib/afl/afl-compiler-rt.o"
#endif

static char *fmt(const char *f, const char *a)
{
	char *s;
	if (asprintf(&s, f, a) < 0)
		exit(1);
	return s;
}

/* The directory with our runtime: beside the wrapper as bin/../lib/schedfuzz,
 * which holds for the build tree and for an installed tree alike. */
static const char *libdir(void)
{
	const char *env = getenv("SCHEDFUZZ_LIBDIR");
	if (env && *env)
		return env;
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	if (n <= 0) {
		fprintf(stderr, "schedfuzz-cc: cannot find itself (/proc/self/exe)\n");
		exit(1);
	}
	path[n] = 0;
	char *dir = dirname(path);
	static char out[PATH_MAX + 32];
	snprintf(out, sizeof out, "%s/../lib/schedfuzz", dir);
	return out;
}

/* An -fsanitize= list without fuzzer and fuzzer-no-link, or NULL when
 * nothing is left of it. */
static char *without_fuzzer(const char *arg)
{
	char *copy = strdup(arg + 11), *save = NULL, *out = malloc(strlen(arg) + 1);
	if (!copy || !out)
		exit(1);
	strcpy(out, "-fsanitize=");
	bool any = false;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "fuzzer") || !strcmp(tok, "fuzzer-no-link"))
			continue;
		if (any)
			strcat(out, ",");
		strcat(out, tok);
		any = true;
	}
	free(copy);
	if (!any) {
		free(out);
		return NULL;
	}
	return out;
}

/* AFL++'s driver for libFuzzer-style harnesses, as OSS-Fuzz passes it. */
static bool is_afl_driver(const char *arg)
{
	const char *base = strrchr(arg, '/');
	return !strcmp(base ? base + 1 : arg, "libAFLDriver.a");
}

/* Sanitizers named on the command line, merged over every -fsanitize=. */
struct sanitizers {
	bool fuzzer, fuzzer_no_link, address, leak, memory, undefined, other;
};

/* UBSan's checks, as -fsanitize= names them one by one or in groups. */
static bool is_ubsan_check(const char *name)
{
	static const char *const checks[] = {
		"undefined", "integer", "nullability", "implicit-conversion", "alignment", "bool",
		"builtin", "bounds", "array-bounds", "enum", "float-cast-overflow",
		"float-divide-by-zero", "function", "implicit-unsigned-integer-truncation",
		"implicit-signed-integer-truncation", "implicit-integer-sign-change",
		"integer-divide-by-zero", "nonnull-attribute", "null", "nullability-arg",
		"nullability-assign", "nullability-return", "object-size", "pointer-overflow",
		"return", "returns-nonnull-attribute", "shift", "shift-base", "shift-exponent",
		"signed-integer-overflow", "unreachable", "unsigned-integer-overflow",
		"unsigned-shift-base", "vla-bound", "vptr", "local-bounds",
	};
	for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
		if (!strcmp(name, checks[i]))
			return true;
	return false;
}

static void scan_sanitizers(const char *list, struct sanitizers *s)
{
	char *copy = strdup(list), *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "fuzzer"))
			s->fuzzer = true;
		else if (!strcmp(tok, "fuzzer-no-link"))
			s->fuzzer_no_link = true;
		else if (!strcmp(tok, "address"))
			s->address = true;
		else if (!strcmp(tok, "memory"))
			s->memory = true;
		else if (!strcmp(tok, "leak"))
			s->leak = true;
		else if (is_ubsan_check(tok))
			s->undefined = true;
		else if (strcmp(tok, "thread") != 0)
			s->other = true;
	}
	free(copy);
}

static bool link_libfuzzer(struct cc_words *c)
{
	const char *fz = getenv("SCHEDFUZZ_FUZZER_LIB");
	if (!fz || !*fz)
		fz = SCHEDFUZZ_DEFAULT_FUZZER_LIB;
	if (!*fz || access(fz, R_OK) != 0) {
		fprintf(stderr, "schedfuzz-cc: libFuzzer not found%s%s (install libclang-rt-14-dev "
				"or set SCHEDFUZZ_FUZZER_LIB)\n",
			*fz ? " at " : "", fz);
		return false;
	}
	cc_words_add(c, "-Wl,--whole-archive");
	cc_words_add(c, fz);
	cc_words_add(c, "-Wl,--no-whole-archive");
	cc_words_add(c, "-lstdc++");
	cc_words_add(c, "-lm");
	return true;
}

/* A sanitizer's runtime archives from clang's directory, whole (NAME as in
 * libclang_rt.NAME-x86_64.a, WHO for the error), the C++ part too for a
 * C++ link; with its dynamic list when its interceptors must be seen by
 * shared libraries. */
static bool link_clang_runtime(struct cc_words *c, bool cxx, const char *name, const char *who,
			       bool dynamic_list)
{
	const char *dir = getenv("SCHEDFUZZ_CLANG_RT_DIR");
	if (!dir || !*dir)
		dir = SCHEDFUZZ_DEFAULT_CLANG_RT_DIR;
	char *stem = fmt(fmt("%s/libclang_rt.%%s", dir), name);
	char *rt = fmt("%s-x86_64.a", stem);
	char *rt_cxx = fmt("%s_cxx-x86_64.a", stem);
	if (access(rt, R_OK) != 0 || (cxx && access(rt_cxx, R_OK) != 0)) {
		fprintf(stderr, "schedfuzz-cc: %s's runtime not found at %s (install "
				"libclang-rt-14-dev or set SCHEDFUZZ_CLANG_RT_DIR)\n",
			who, rt);
		return false;
	}
	cc_words_add(c, "-Wl,--whole-archive");
	cc_words_add(c, rt);
	if (cxx)
		cc_words_add(c, rt_cxx);
	cc_words_add(c, "-Wl,--no-whole-archive");
	if (dynamic_list) {
		cc_words_add(c, fmt("-Wl,--dynamic-list=%s.syms", rt));
		if (cxx)
			cc_words_add(c, fmt("-Wl,--dynamic-list=%s.syms", rt_cxx));
	}
	cc_words_add(c, "-lrt");
	cc_words_add(c, "-lm");
	return true;
}

/* UBSan's standalone runtime, beside the TSan instrumentation (whose own
 * runtime, which would carry UBSan's, is never linked). */
static bool link_ubsan_runtime(struct cc_words *c, bool cxx)
{
	return link_clang_runtime(c, cxx, "ubsan_standalone", "UBSan", false);
}

/* ASan's runtime, after ours: its interceptors are weak definitions of
 * the names ours interpose, and of two weak definitions the linker keeps
 * the first, so ours must come first; the program's own (strong) still
 * wins over both, as over libc.so. clang would put ASan's first. */
static bool link_asan_runtime(struct cc_words *c, bool cxx)
{
	return link_clang_runtime(c, cxx, "asan", "ASan", true);
}

static bool link_afl_runtime(struct cc_words *c)
{
	const char *art = getenv("SCHEDFUZZ_AFL_RT");
	if (!art || !*art)
		art = SCHEDFUZZ_DEFAULT_AFL_RT;
	if (access(art, R_OK) != 0) {
		fprintf(stderr, "schedfuzz-cc: AFL++'s runtime not found at %s (install afl++ or set "
				"SCHEDFUZZ_AFL_RT)\n",
			art);
		return false;
	}
	cc_words_add(c, art);
	return true;
}

/* AFL++'s compiler wrappers (afl-clang-fast, afl-cc, ...), which run clang
 * with AFL++'s own passes. */
static bool is_afl_compiler(const char *compiler)
{
	const char *base = strrchr(compiler, '/');
	return !strncmp(base ? base + 1 : compiler, "afl-", 4);
}

/* AFL++'s wrappers make the edges with a pass of their own that writes the
 * map inline, and take -fsanitize-coverage= off the command line. Both go
 * against us: the TSan pass runs after theirs, so every edge became two or
 * three memory accesses (scheduling points and interleaving features on
 * AFL++'s map and guards), and the ASan mode lost trace-loads,trace-stores,
 * so no memory access was a scheduling point. In their llvmnative mode
 * they keep the flag and ask clang's own SanitizerCoverage for the edges,
 * one call each, which the TSan pass leaves alone; CmpLog and laf-intel
 * work the same in it. */
static void afl_native_edges(const char *compiler)
{
	if (!is_afl_compiler(compiler))
		return;
	const char *mode = getenv("AFL_LLVM_INSTRUMENT");
	if (mode && (!strncasecmp(mode, "llvmnative", 10) || !strncasecmp(mode, "llvm-native", 11)))
		return;
	if (mode && *mode)
		fprintf(stderr, "schedfuzz-cc: AFL_LLVM_INSTRUMENT=%s replaced by llvmnative: AFL++'s "
				"own edge passes hide or disturb schedfuzz's instrumentation\n",
			mode);
	setenv("AFL_LLVM_INSTRUMENT", "llvmnative", 1);
}

/* The wrapper's own options: clang's --help and --version pass through
 * (build systems ask the compiler for them), so ours have names of their own. */
static bool own_option(const char *a, const char *self, const char *compiler)
{
	if (!strcmp(a, "--schedfuzz-version")) {
		printf("%s (schedfuzz %s), compiling with %s\n", self, SCHEDFUZZ_VERSION, compiler);
		return true;
	}
	if (!strcmp(a, "--schedfuzz-help")) {
		printf("usage: %s [clang options] FILES...\n"
		       "\n"
		       "Builds a program for controlled scheduling: every option passes to\n"
		       "%s, with ThreadSanitizer's instrumentation (not its runtime) and\n"
		       "schedfuzz's runtime added. --help and --version are clang's.\n"
		       "\n"
		       "  -fsanitize=fuzzer          a libFuzzer harness (LLVMFuzzerTestOneInput)\n"
		       "  -fsanitize=address         the ASan mode; undefined adds UBSan\n"
		       "  --schedfuzz-help           this text\n"
		       "  --schedfuzz-version        schedfuzz's version\n"
		       "\n"
		       "environment:\n"
		       "  SCHEDFUZZ_ENGINE=libfuzzer|afl|standalone   the engine of a harness\n"
		       "  SCHEDFUZZ_SANITIZER=address|undefined       a sanitizer, flags unchanged\n"
		       "  SCHEDFUZZ_CLANG, SCHEDFUZZ_CLANGXX          the compiler to run\n"
		       "  SCHEDFUZZ_INLINE=0                          call the access hooks, not\n"
		       "                                              their fast path inline\n"
		       "  SCHEDFUZZ_CC_VERBOSE=1                      print the command it runs\n",
		       self, compiler);
		return true;
	}
	return false;
}

int main(int argc, char **argv)
{
	bool cxx = strstr(basename(argv[0]), "++") != NULL;
	const char *compiler = getenv(cxx ? "SCHEDFUZZ_CLANGXX" : "SCHEDFUZZ_CLANG");
	if (!compiler || !*compiler)
		compiler = cxx ? SCHEDFUZZ_DEFAULT_CLANGXX : SCHEDFUZZ_DEFAULT_CLANG;
	if (argc == 2 && own_option(argv[1], basename(argv[0]), compiler))
		return 0;

	/* As a CMake compiler or linker launcher (schedfuzz_add_harness):
	 * "--launch=ENGINE COMPILER ARGS...". The project's compiler says C
	 * or C++; it is used itself only if it is a clang (or AFL++'s
	 * afl-clang-fast). */
	if (argc >= 3 && !strncmp(argv[1], "--launch", 8)) {
		if (argv[1][8] == '=')
			setenv("SCHEDFUZZ_ENGINE", argv[1] + 9, 1);
		char *given = strdup(argv[2]), *base = basename(given);
		cxx = strstr(base, "++") != NULL;
		if (!strncmp(base, "clang", 5) || !strncmp(base, "afl-clang", 9))
			compiler = argv[2];
		else if (cxx != (strstr(basename(argv[0]), "++") != NULL))
			compiler = cxx ? SCHEDFUZZ_DEFAULT_CLANGXX : SCHEDFUZZ_DEFAULT_CLANG;
		argv[2] = argv[0];
		argv += 2;
		argc -= 2;
	}

	/* The command is classified as clang will read it, response files
	 * expanded; it runs with them as they are, clang reading them. */
	struct cc_words seen = { 0 };
	cc_expand_response_files(argc, argv, &seen);
	bool link = true, shared = false, has_g = false, has_input = false, info_only = seen.n == 1;
	bool afl_driver = false, preprocess = false, language = false;
	struct sanitizers san = { 0 };
	for (int i = 1; i < seen.n; i++) {
		const char *a = seen.v[i];
		if (!strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM"))
			preprocess = true;
		else if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-fsyntax-only"))
			link = false;
		else if (!strcmp(a, "-shared") || !strcmp(a, "-r") || !strcmp(a, "-Wl,-r"))
			shared = true; /* no runtime in a shared object or a partial link */
		else if (!strncmp(a, "-g", 2))
			has_g = true;
		else if (!strncmp(a, "-fsanitize=", 11))
			scan_sanitizers(a + 11, &san);
		else if (!strcmp(a, "--version") || !strncmp(a, "-print-", 7) ||
			 !strncmp(a, "--print-", 8) || !strcmp(a, "-dumpversion") ||
			 !strcmp(a, "-dumpmachine"))
			info_only = true; /* clang prints and stops, whatever else is there */
		else if (is_afl_driver(a))
			afl_driver = true;
		else if (!strncmp(a, "-x", 2))
			language = true;
		else if (a[0] != '-' || !strcmp(a, "-"))
			has_input = true;
		if (cc_takes_value(a))
			i++;
	}
	/* What only prints, and preprocessing (-E, -M, -MM), is clang's
	 * alone: nothing is compiled, and the instrumentation's flags would
	 * show in the output (-mcx16 defines a macro). */
	if (info_only || preprocess || !has_input) {
		argv[0] = (char *)compiler; /* clang takes its mode from its name */
		execvp(compiler, argv);
		fprintf(stderr, "schedfuzz-cc: cannot run %s: %s (run scripts/setup.sh, or set %s)\n",
			compiler, strerror(errno), cxx ? "SCHEDFUZZ_CLANGXX" : "SCHEDFUZZ_CLANG");
		return 1;
	}
	/* SCHEDFUZZ_SANITIZER asks for sanitizers without touching a build's
	 * flags, as if "-fsanitize=LIST" were one more argument. */
	const char *env_san = getenv("SCHEDFUZZ_SANITIZER");
	char *env_san_flag = NULL;
	if (env_san && *env_san) {
		env_san_flag = fmt("-fsanitize=%s", env_san);
		scan_sanitizers(env_san, &san);
	}
	if (san.memory) {
		fprintf(stderr, "schedfuzz-cc: -fsanitize=memory is not supported: MemorySanitizer needs "
				"its own thread interceptors and every library instrumented (use "
				"-fsanitize=address)\n");
		return 1;
	}
	bool asan = san.address || san.leak;

	enum { DEFAULT, LIBFUZZER, AFL, STANDALONE } engine = DEFAULT;
	const char *engine_name = getenv("SCHEDFUZZ_ENGINE");
	if (engine_name && *engine_name) {
		if (!strcmp(engine_name, "afl")) {
			engine = AFL;
		} else if (!strcmp(engine_name, "libfuzzer")) {
			engine = LIBFUZZER;
		} else if (!strcmp(engine_name, "standalone")) {
			engine = STANDALONE;
		} else {
			fprintf(stderr, "schedfuzz-cc: SCHEDFUZZ_ENGINE=%s: expected afl, libfuzzer or "
					"standalone\n", engine_name);
			return 1;
		}
	}
	if (engine == DEFAULT && afl_driver)
		engine = AFL;
	bool harness = san.fuzzer || afl_driver || engine == LIBFUZZER;
	bool no_libfuzzer = engine == AFL || engine == STANDALONE;

	/* A word the engine takes off the command line (-fsanitize=fuzzer,
	 * libAFLDriver.a) may be inside a response file: then the command runs
	 * with the files' words in their place. */
	bool rewrite = afl_driver || (no_libfuzzer && (san.fuzzer || san.fuzzer_no_link));
	char **words = rewrite ? seen.v : argv;
	int nwords = rewrite ? seen.n : argc;
	struct cc_words c = { 0 };
	cc_words_add(&c, compiler);
	for (int i = 1; i < nwords; i++) {
		const char *a = words[i];
		if (no_libfuzzer && !strncmp(a, "-fsanitize=", 11)) {
			char *rest = without_fuzzer(a);
			if (rest)
				cc_words_add(&c, rest);
		} else if (!is_afl_driver(a)) {
			cc_words_add(&c, a);
		}
	}
	if (engine == LIBFUZZER && !san.fuzzer)
		cc_words_add(&c, "-fsanitize=fuzzer");
	if (env_san_flag && !info_only && has_input)
		cc_words_add(&c, env_san_flag);
	if (san.leak && !san.address && !info_only && has_input)
		cc_words_add(&c, "-fsanitize=address"); /* LeakSanitizer is ASan's */
	/* Whether libFuzzer's own coverage (its counters) is compiled in. */
	bool libfuzzer_cov = !no_libfuzzer && (san.fuzzer || san.fuzzer_no_link || engine == LIBFUZZER);

	if (!info_only && has_input) {
		cc_words_add(&c, "-Wno-unused-command-line-argument");
		afl_native_edges(compiler);
		if (asan) {
			/* The TSan pass, past the driver's check, for atomics and
			 * function entries only: the driver refuses the two together
			 * because of their runtimes, and ours is the only one. */
			cc_words_add(&c, "-Xclang");
			cc_words_add(&c, "-fsanitize=thread");
			cc_words_add(&c, "-mllvm");
			cc_words_add(&c, "-tsan-instrument-memory-accesses=0");
			cc_words_add(&c, "-mllvm");
			cc_words_add(&c, "-tsan-instrument-memintrinsics=0"); /* ASan checks those */
			/* A load and a store callback before every access; the
			 * callbacks need a coverage kind to ride on: the engine's
			 * edges, or one flag per function, the cheapest there is. */
			if (engine == AFL)
				cc_words_add(&c, "-fsanitize-coverage=trace-pc-guard,trace-loads,trace-stores");
			else if (libfuzzer_cov)
				cc_words_add(&c, "-fsanitize-coverage=trace-loads,trace-stores");
			else
				cc_words_add(&c, "-fsanitize-coverage=func,inline-bool-flag,trace-loads,trace-stores");
		} else {
			/* Instrumentation only: the sanitizer runtime is ours, linked below. */
			cc_words_add(&c, "-fsanitize=thread");
			cc_words_add(&c, "-fno-sanitize-link-runtime");
			/* TSan drops the read of "x = x + 1" when a write to x follows
			 * in the same block: for race detection the write covers it,
			 * but for us the read is where a lost update begins, a
			 * scheduling point, a change point for PCTVB and half of a MAP
			 * pattern. */
			cc_words_add(&c, "-mllvm");
			cc_words_add(&c, "-tsan-instrument-read-before-write=1");
			/* Volatile accesses through their own hooks: a volatile on
			 * the thread's own stack is shared on purpose (a queue node
			 * another thread clears), unlike the rest of the stack. */
			cc_words_add(&c, "-mllvm");
			cc_words_add(&c, "-tsan-distinguish-volatile=1");
			if (engine == AFL)
				cc_words_add(&c, "-fsanitize-coverage=trace-pc-guard"); /* edges, into AFL++'s map */
		}
		if (!has_g)
			cc_words_add(&c, "-gline-tables-only");
		/* libFuzzer's stack-depth tracing writes a thread-local variable
		 * only when the stack went deeper than ever before in the
		 * process: an event that exists in one process and not in
		 * another, which would shift every later decision of a replay. */
		cc_words_add(&c, "-fno-sanitize-coverage=stack-depth");
#if defined(__x86_64__)
		cc_words_add(&c, "-mcx16"); /* 128-bit atomics reach our hooks, not libatomic */
#endif
		/* A shared object's instrumented code calls hooks that only the
		 * executable links (one runtime a process): a request to refuse
		 * undefined symbols (Meson's default, b_lundef) is lifted, as
		 * Meson lifts it itself for its sanitizer builds. */
		if (link && shared && cc_forbids_undefined(&seen))
			cc_words_add(&c, "-Wl,-z,undefs");
		if (link && !shared) {
			const char *dir = libdir();
			char *rt = fmt(asan ? "%s/libschedfuzz_rt_asan.a" : "%s/libschedfuzz_rt.a", dir);
			if (access(rt, R_OK) != 0) {
				fprintf(stderr, "schedfuzz-cc: runtime not found at %s (set SCHEDFUZZ_LIBDIR)\n",
					rt);
				return 1;
			}
			if (asan)
				cc_words_add(&c, "-fno-sanitize-link-runtime"); /* linked below, after ours */
			if (language) /* -x LANG applies to every later input: ours are not LANG */
				cc_words_add(&c, "-xnone");
			cc_words_add(&c, "-Wl,--whole-archive");
			cc_words_add(&c, rt);
			cc_words_add(&c, "-Wl,--no-whole-archive");
			cc_words_add(&c, "-Wl,--wrap=main");
			if (harness) {
				cc_words_add(&c, "-Wl,--wrap=LLVMFuzzerTestOneInput");
				if (engine == AFL)
					cc_words_add(&c, fmt("%s/libschedfuzz_driver_afl.a", dir));
				else if (engine == STANDALONE)
					cc_words_add(&c, fmt("%s/libschedfuzz_driver_standalone.a", dir));
				else if (!link_libfuzzer(&c))
					return 1;
			}
			if (asan && !link_asan_runtime(&c, cxx))
				return 1;
			if (engine == AFL && !link_afl_runtime(&c))
				return 1;
			if (san.undefined && !asan && !link_ubsan_runtime(&c, cxx))
				return 1;
			cc_words_add(&c, "-ldl");
			cc_words_add(&c, "-lpthread");
		}
	}

	/* The default mode's hooks: their fast path inline where the
	 * compiler can take it (cc_inline.c). */
	if (!asan && !info_only && has_input) {
		int status = cc_inline_run(c.v, c.n, fmt("%s/schedfuzz_inline.bc", libdir()));
		if (status >= 0)
			return status;
	}
	if (getenv("SCHEDFUZZ_CC_VERBOSE")) {
		for (int i = 0; i < c.n; i++)
			fprintf(stderr, "%s%s", i ? " " : "", c.v[i]);
		fprintf(stderr, "\n");
	}
	execvp(compiler, c.v);
	fprintf(stderr, "schedfuzz-cc: cannot run %s: %s (run scripts/setup.sh, or set %s)\n", compiler,
		strerror(errno), cxx ? "SCHEDFUZZ_CLANGXX" : "SCHEDFUZZ_CLANG");
	return 1;
}
