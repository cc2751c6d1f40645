#!/usr/bin/env bash
# cc_inline.sh: schedfuzz-cc compiles the access hooks' fast path inline
# (fuzz/cc_inline.c): in a compile-and-link command and with -c (where
# make's dependency file still names the object), not in position-
# independent code or with SCHEDFUZZ_INLINE=0, where the hooks are called;
# and both builds explore the same schedules: the same first failure for
# the same seed, under PCT and the random walk.
. "$(dirname "$0")/lib.sh"
cat >"$WORK/prog.c" <<'C'
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
static long total;
/* Private work on a heap buffer, then an unprotected update of total. */
static void *work(void *arg)
{
	long *buf = calloc(256, sizeof *buf), s = 0;
	for (long i = 0; i < 4096; i++) {
		buf[i & 255] += i;
		s += buf[(i * 7) & 255];
	}
	free(buf);
	long t = total;
	total = t + (s != 0);
	return arg;
}
int main(int argc, char **argv)
{
	(void)argv;
	total = argc - 1; /* main's write: the threads' updates are then points */
	pthread_t a, b;
	pthread_create(&a, NULL, work, NULL);
	pthread_create(&b, NULL, work, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(total == 2);
	return 0;
}
C
cd "$WORK" || fail "no scratch directory"
# calls PROGRAM: the access hooks that work() calls, one per line.
calls() {
	objdump -d --no-show-raw-insn "$1" | awk '/^[0-9a-f]+ <work>:/,/^$/' |
		sed -n 's/.*call.*<\(__tsan_[a-z_0-9]*\|__schedfuzz_access_slow_[0-9a-f]*\)>.*/\1/p'
}
"$SF_BIN/schedfuzz-cc" -O1 prog.c -o inline || fail "cannot build inline"
SCHEDFUZZ_INLINE=0 "$SF_BIN/schedfuzz-cc" -O1 prog.c -o called || fail "cannot build with calls"
calls inline | grep -q '^__tsan_\(unaligned_\)\?\(read\|write\)' && fail "inline build calls the access hooks"
calls inline | grep -q '^__schedfuzz_access_slow_' || fail "inline build has no slow path call"
calls called | grep -q '^__tsan_read' || fail "SCHEDFUZZ_INLINE=0 build does not call the hooks"

"$SF_BIN/schedfuzz-cc" -O1 -MD -c prog.c -o obj.o || fail "cannot compile with -c"
head -c 4 obj.o | grep -q ELF || fail "obj.o is not an object"
grep -q '^obj.o:' obj.d || fail "dependency file names $(head -n 1 obj.d), not obj.o"
"$SF_BIN/schedfuzz-cc" obj.o -o from_obj || fail "cannot link obj.o"
calls from_obj | grep -q '^__schedfuzz_access_slow_' || fail "-c build is not inline"

"$SF_BIN/schedfuzz-cc" -O1 -fPIC -c prog.c -o pic.o || fail "cannot compile with -fPIC"
"$SF_BIN/schedfuzz-cc" pic.o -o pic || fail "cannot link pic.o"
calls pic | grep -q '^__tsan_read' || fail "-fPIC build should call the hooks"
./pic >/dev/null 2>&1 || true

for strategy in pct:d=3 random; do
	for build in inline called; do
		"$SCHEDFUZZ" run -n 3000 --seed 1 --no-guide --strategy "$strategy" -o "out_$build" \
			-- "./$build" >/dev/null 2>"log_$build"
		sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed: .*/\1/p' "log_$build" |
			head -n 1 >"first_$build"
		rm -rf "out_$build"
	done
	[ -s first_inline ] || fail "$strategy: the lost update was not found inline"
	cmp -s first_inline first_called ||
		fail "$strategy: first failure at schedule $(cat first_inline) inline, $(cat first_called) with calls"
	echo "$strategy: first failure at schedule $(cat first_inline) in both builds"
done
echo "PASS"
