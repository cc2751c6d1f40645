#!/usr/bin/env bash
# cc_conformance.sh c|c++: schedfuzz-cc (schedfuzz-c++) is clang-14
# (clang++-14) plus instrumentation. Each command line runs through both,
# in scratch directories of their own holding the same small sources, and
# must give the same exit status, the same files under the same names and
# of the same kinds (dependency files with the same targets and
# prerequisites), the same stdout (and stderr for what only prints), the
# same file:line in the diagnostics of a failure, nothing in the wrapper's
# TMPDIR afterwards, and executables that run alike. Objects and
# executables of ours must also be instrumented, and shared objects must
# not carry the runtime.
. "$(dirname "$0")/lib.sh"
lang=${1:?c or c++}
if [ "$lang" = c++ ]; then
	REF=${SF_CLANGXX:-clang++-14} OURS=$SF_BIN/schedfuzz-c++ x=cpp xlang=c++
else
	REF=${SF_CLANG:-clang-14} OURS=$SF_BIN/schedfuzz-cc x=c xlang=c
fi
command -v "$REF" >/dev/null || fail "$REF not found"

src=$WORK/src
mkdir -p "$src/sub" "$src/nest/deeper"
cat >"$src/hdr.h" <<'C'
#define GREETING "sum"
C
cat >"$src/ok.$x" <<'C'
#include <pthread.h>
#include <stdio.h>
#include "hdr.h"
int other(void);
static int total;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *add(void *arg)
{
	pthread_mutex_lock(&m);
	total += (int)(long)arg;
	pthread_mutex_unlock(&m);
	return 0;
}
int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, add, (void *)1L);
	pthread_create(&b, 0, add, (void *)2L);
	pthread_join(a, 0);
	pthread_join(b, 0);
	printf("%s %d %s\n", GREETING, total, MSG);
	return total + other() == 10 ? 0 : 1;
}
C
sed -i '1i #ifndef MSG\n#define MSG "none"\n#endif' "$src/ok.$x"
cat >"$src/other.$x" <<'C'
int other(void) { return 7; }
C
cat >"$src/bad.$x" <<'C'
int fine(void) { return 1; }

int broken(void) { return missing_name; }
C
cat >"$src/badinc.$x" <<'C'
#include "no_such_header.h"
int x;
C
cat >"$src/lib.$x" <<'C'
#ifdef __cplusplus
extern "C"
#endif
int lib_value(int v) { return v * 3; }
C
cat >"$src/uselib.$x" <<'C'
#include <stdio.h>
#ifdef __cplusplus
extern "C"
#endif
int lib_value(int v);
int main(void) { printf("lib %d\n", lib_value(14)); return lib_value(14) == 42 ? 0 : 1; }
C
# Response files: clang expands them, and the wrapper must see inside to
# know a compile from a link or a shared object. clang 14 reads a nested
# one relative to the working directory; quotes and backslashes group words.
printf -- '-c ok.%s other.%s\n' $x $x >"$src/compile.rsp"
printf -- 'ok.%s other.%s -o prog\n' $x $x >"$src/link.rsp"
printf -- '-shared -fPIC lib.%s -o libviarsp.so\n' $x >"$src/shared.rsp"
printf -- '-E\n' >"$src/preprocess.rsp"
printf -- "-c @nest/deeper/inner.rsp '-DMSG=\"two words\"'\n" >"$src/nest/outer.rsp"
printf -- '-DEXTRA=a\\ b ok.%s -o quoted.o\n' $x >"$src/nest/deeper/inner.rsp"
cp -r "$src" "$WORK/pristine"

checked=0
# kinds DIR: "name<TAB>kind" of each file in DIR, kinds as `file` says,
# less what must differ: the build id, debug info (the wrapper adds line
# tables to every compile) and the ELF OS/ABI, GNU in any object that
# -fsanitize=thread instruments (its module constructor is in a section
# kept with SHF_GNU_RETAIN), SYSV otherwise; linkers take both.
kinds() {
	(cd "$1" && find . -type f | sort | while read -r f; do
		printf '%s\t%s\n' "$f" "$(file -b "$f" | sed -e 's/, BuildID\[[a-z0-9]*\]=[0-9a-f]*//' \
			-e 's/, with debug_info//' \
			-e 's|version 1 (GNU/Linux)|version 1 (SYSV)|')"
	done)
}
# deps FILE: a make dependency file as "target: prerequisite" pairs, sorted.
deps() {
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$1" | awk -F': ' 'NF > 1 {
		n = split($1, t, " "); m = split($2, p, " ");
		for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print t[i] ": " p[j] }' | sort
}
# errors FILE: the file:line of each error clang reported, and the
# driver's own errors.
errors() {
	grep -o '^clang[^ ]*: error: .*' "$1" | sort
	grep -o '^[^ :]*:[0-9]*:[0-9]*: \(fatal \)\?error' "$1" | sort
	grep -o "no such file or directory: '[^']*'" "$1" | sort
	grep -o 'undefined reference to `[^'"'"']*' "$1" | sort -u
}

# check NAME HOW COMMAND: COMMAND (a shell line, CC the compiler) in
# ref/NAME and ours/NAME; HOW says what else to compare: "out" stdout,
# "info" stdout and stderr, "fail" a nonzero status, "###" nothing more.
check() {
	local name=$1 how=$2 cmd=$3 side dir
	for side in ref ours; do
		dir=$WORK/$side/$name
		mkdir -p "$WORK/$side" && cp -r "$WORK/pristine" "$dir"
		mkdir -p "$WORK/tmp.$side"
		if [ $side = ref ]; then CC=$REF; else CC=$OURS; fi
		(cd "$dir" && CC=$CC TMPDIR=$WORK/tmp.$side eval "$cmd" <"$dir/ok.$x" \
			>"$WORK/$side.$name.out" 2>"$WORK/$side.$name.err")
		echo $? >"$WORK/$side.$name.status"
	done
	local r=$WORK/ref/$name o=$WORK/ours/$name
	[ -z "$(ls -A "$WORK/tmp.ours")" ] || fail "$name: left in TMPDIR: $(ls "$WORK/tmp.ours")"
	cmp -s "$WORK/ref.$name.status" "$WORK/ours.$name.status" ||
		fail "$name: exit status $(cat "$WORK/ours.$name.status"), clang's $(cat "$WORK/ref.$name.status"): $(head -c 600 "$WORK/ours.$name.err")"
	diff <(kinds "$r") <(kinds "$o") >"$WORK/$name.kinds" ||
		fail "$name: files differ (< clang, > ours): $(cat "$WORK/$name.kinds")"
	local f
	for f in $(cd "$r" && find . -name '*.d' -type f); do
		diff <(deps "$r/$f") <(deps "$o/$f") >/dev/null ||
			fail "$name: $f: clang's $(deps "$r/$f" | tr '\n' ' ') ours $(deps "$o/$f" | tr '\n' ' ')"
	done
	local st
	st=$(cat "$WORK/ref.$name.status")
	case $how in
	out | info)
		cmp -s "$WORK/ref.$name.out" "$WORK/ours.$name.out" ||
			fail "$name: stdout differs: $(diff "$WORK/ref.$name.out" "$WORK/ours.$name.out" | head -20)"
		[ "$how" = out ] || cmp -s "$WORK/ref.$name.err" "$WORK/ours.$name.err" ||
			fail "$name: stderr differs: $(diff "$WORK/ref.$name.err" "$WORK/ours.$name.err" | head -20)"
		;;
	fail)
		[ "$st" != 0 ] || fail "$name: expected to fail"
		[ -n "$(errors "$WORK/ref.$name.err")" ] || fail "$name: no diagnostic from clang to compare"
		diff <(errors "$WORK/ref.$name.err") <(errors "$WORK/ours.$name.err") >/dev/null ||
			fail "$name: diagnostics differ: clang $(errors "$WORK/ref.$name.err" | tr '\n' ' '), ours $(head -c 600 "$WORK/ours.$name.err")"
		;;
	'###')
		# The commands clang would run differ by design (ours carry the
		# instrumentation), so only their presence is compared.
		grep -q -- '"-cc1"' "$WORK/ours.$name.err" || fail "$name: no -cc1 job printed"
		;;
	esac
	[ "$how" = fail ] || [ "$st" = 0 ] || fail "$name: clang itself failed: $(head -c 400 "$WORK/ref.$name.err")"
	# What ours built: instrumented objects and executables that run as
	# clang's do; shared objects without the runtime.
	for f in $(cd "$o" && find . -type f -newer "$WORK/pristine/ok.$x"); do
		case $(file -b "$o/$f") in
		ELF*relocatable*)
			nm "$o/$f" | grep -q ' U __tsan_init$' || fail "$name: $f is not instrumented" ;;
		ELF*shared\ object*)
			if nm -D --defined-only "$o/$f" | grep -q ' T pthread_create$'; then
				fail "$name: $f carries the runtime"
			fi ;;
		ELF*executable*)
			nm "$o/$f" | grep -q ' T __wrap_main$' || fail "$name: $f has no runtime"
			local rs os
			(cd "$r" && LD_LIBRARY_PATH=. "./$f" >"$WORK/ref.$name.run" 2>&1)
			rs=$?
			(cd "$o" && LD_LIBRARY_PATH=. "./$f" >"$WORK/ours.$name.run" 2>&1)
			os=$?
			[ $rs = $os ] && cmp -s "$WORK/ref.$name.run" "$WORK/ours.$name.run" ||
				fail "$name: ./$f ran differently: status $os (clang's $rs): $(head -5 "$WORK/ours.$name.run")"
			;;
		esac
	done
	checked=$((checked + 1))
}

# Compiling: -c with and without -o, several sources, a source that fails
# among them, -S, -fsyntax-only.
check c_default '' "\$CC -c ok.$x"
check c_output '' "\$CC -c ok.$x -o sub/named.o"
check c_output_noext '' "\$CC -c ok.$x -o sub/noext"
check c_sources '' "\$CC -O1 -c ok.$x other.$x sub/../lib.$x"
check c_sources_one_fails fail "\$CC -c ok.$x bad.$x other.$x"
check c_pic '' "\$CC -fPIC -c lib.$x"
check asm '' "\$CC -S ok.$x"
check asm_output '' "\$CC -S -O2 ok.$x -o sub/ok.asm"
check syntax_only '' "\$CC -fsyntax-only ok.$x"
# Preprocessing and dependencies.
check preprocess out "\$CC -E ok.$x"
check preprocess_output '' "\$CC -E ok.$x -o ok.i"
check deps_m out "\$CC -M ok.$x"
check deps_mm out "\$CC -MM ok.$x other.$x"
check deps_m_mf '' "\$CC -M -MF only.d ok.$x"
check deps_md '' "\$CC -c -MD ok.$x"
check deps_mmd_output '' "\$CC -c -MMD ok.$x -o sub/x.o"
check deps_md_sources '' "\$CC -c -MD -MP ok.$x other.$x"
check deps_mf_mt '' "\$CC -c -MD -MF sub/my.d -MT custom ok.$x"
check deps_mq '' "\$CC -c -MMD -MQ 'a\$b' -MT plain ok.$x"
check deps_link '' "\$CC -MD ok.$x other.$x -o prog"
# Standard input.
check stdin_c '' "\$CC -x $xlang -c -"
check stdin_e out "\$CC -x $xlang -E -"
check stdin_link '' "\$CC -x $xlang - other.$x -o prog"
check stdin_without_x fail "\$CC -c -"
# Linking: executables, a shared object loaded by one, objects linked.
check link_aout '' "\$CC ok.$x other.$x"
check link_output '' "\$CC -O1 ok.$x other.$x -o prog"
check link_objects '' "\$CC -c ok.$x other.$x && \$CC ok.o other.o -o prog"
check shared_loaded '' "\$CC -shared -fPIC lib.$x -o liblib.so && \$CC uselib.$x -L. -llib -o prog"
# Meson's default (b_lundef) and its -z defs twin: undefined symbols are
# refused, and the hooks of our instrumentation may still be undefined.
check shared_no_undefined '' "\$CC -shared -fPIC -Wl,--no-undefined lib.$x -o liblib.so && \$CC uselib.$x -L. -llib -o prog"
check shared_z_defs '' "\$CC -shared -fPIC -Wl,-O1,-z,defs lib.$x -o liblib.so"
check shared_xlinker '' "\$CC -shared -fPIC -Xlinker --no-undefined lib.$x -o liblib.so"
check relocatable '' "\$CC -c ok.$x other.$x && \$CC -r ok.o other.o -o both.o"
# Response files.
check rsp_compile '' "\$CC @compile.rsp"
check rsp_link '' "\$CC @link.rsp"
check rsp_shared '' "\$CC @shared.rsp"
check rsp_preprocess out "\$CC @preprocess.rsp ok.$x"
check rsp_nested '' "\$CC @nest/outer.rsp"
check rsp_missing fail "\$CC -c @no_such.rsp"
# What only prints.
for q in -print-prog-name=ld -print-file-name=libc.so -print-search-dirs -print-libgcc-file-name \
	-print-resource-dir -print-target-triple --version -dumpversion -dumpmachine -v --help; do
	check "info$q" info "\$CC $q"
done
check info_version_with_source info "\$CC --version ok.$x"
check verbose_compile '' "\$CC -v -c ok.$x"
check hash_hash_hash '###' "\$CC -### ok.$x -o prog"
check no_input fail "\$CC"
# Failures: the same status, no output left, the same file:line.
check fail_syntax fail "\$CC -c bad.$x"
check fail_syntax_output fail "\$CC -c -MD bad.$x -o sub/bad.o"
check fail_syntax_link fail "\$CC bad.$x other.$x -o prog"
check fail_missing_source fail "\$CC -c no_such.$x"
check fail_missing_header fail "\$CC -E badinc.$x"
check fail_link fail "\$CC ok.$x -o prog"
echo "$lang: $checked command lines give clang's files, kinds, output and status"
