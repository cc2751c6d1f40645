#!/usr/bin/env bash
# weak_interposers.sh RT_ARCHIVE RT_ASAN_ARCHIVE SRCDIR: a program's own
# definition of a name the runtime interposes wins, as over libc.so.
# - In both runtimes every libc/libpthread name is a weak definition, and
#   none of the runtime's own symbols (rt_*, __tsan_*, ...) or its
#   undefined references became weak.
# - No runtime file calls an interposed system call for its own work
#   (rt_libc.h renames those calls to libc's), and the files that run on a
#   controlled thread copy with libc's memcpy, not the program's hook.
# - A program with globals named send and receive and one with its own
#   write build with schedfuzz-cc and schedfuzz-c++, run 2,000 schedules
#   with no failure, and reach their own definitions (they assert it); in
#   the ASan mode too (200 schedules: a schedule costs ten times more),
#   where the runtime's interposers must also beat ASan's weak ones.
# - The runtime's own global names are reserved (__schedfuzz_*): a program
#   that defines rt, rt_init, cov_begin and the driver's read_whole_file
#   links, as a main() program and as a harness, and keeps its own.
. "$(dirname "$0")/../integration/lib.sh"
rt=$1 rt_asan=$2 src=$3
own='^(rt|__tsan_|__sanitizer_|__schedfuzz|schedfuzz_|sf_|sx_|cov_|strat_|__wrap_|LLVMFuzzer|__asan_|__lsan_|__afl_)'
# Weak on purpose before this change: hooks of engines and sanitizers.
weak_own='^(LLVMFuzzerCustomMutator|__lsan_is_turned_off|__sanitizer_acquire_crash_state|__sanitizer_print_stack_trace|__sanitizer_set_death_callback)$'

for a in "$rt" "$rt_asan"; do
	nm -g --defined-only "$a" 2>/dev/null | awk 'NF==3 {print $2, $3}' | sort -u -k2 >"$WORK/defs"
	awk '{print $2}' "$WORK/defs" | grep -Ev "$own" >"$WORK/interposed"
	[ "$(wc -l <"$WORK/interposed")" -gt 120 ] || fail "only $(wc -l <"$WORK/interposed") interposed names in $a"
	for n in send write read poll select kill alarm wait system pthread_create pthread_mutex_lock \
		thrd_create mtx_lock cnd_wait sem_wait nanosleep sigwait fork; do
		grep -qx "$n" "$WORK/interposed" || fail "$n is not among the interposed names of $a"
	done
	strong=$(awk '$1 != "W" {print $2}' "$WORK/defs" | grep -Ev "$own")
	[ -z "$strong" ] || fail "strong interposers in $a: $strong"
	weak_ours=$(awk '$1 == "W" {print $2}' "$WORK/defs" | grep -E "$own" | grep -Ev "$weak_own")
	[ -z "$weak_ours" ] || fail "runtime symbols made weak in $a: $weak_ours"
	weak_refs=$(nm -g --undefined-only "$a" 2>/dev/null | awk '$1 == "w" || $1 == "v" {print $2}' |
		grep -xFf "$WORK/interposed")
	[ -z "$weak_refs" ] || fail "weak undefined references to interposed names in $a: $weak_refs"
done
nm -g --defined-only "$rt" 2>/dev/null | awk 'NF==3 {print $3}' | grep -Ev "$own" | sort -u >"$WORK/interposed"

# The runtime's own calls: relocations against an interposed system call
# in a runtime object. Allocation, copies and comparisons are left to
# whoever defines them (docs/runtime.md).
mkdir "$WORK/objs"
(cd "$WORK/objs" && ar x "$rt") || fail "cannot unpack $rt"
syscalls=$(grep -Evx 'malloc|free|calloc|realloc|memalign|aligned_alloc|posix_memalign|valloc|pvalloc|_Znwm|_Znam|memcpy|memmove|memset|memcmp|bcmp|memmem|strcmp|strncmp|strcasecmp|strncasecmp|strstr|strcasestr' "$WORK/interposed")
for o in "$WORK"/objs/rt_*.o; do
	calls=$(objdump -r "$o" | awk '{print $3}' | sed 's/[-+]0x.*//' | sort -u | grep -xF "$syscalls")
	[ -z "$calls" ] || fail "$(basename "$o") calls interposed names for the runtime's own work: $calls"
done
# Copies by the code that runs on a program's thread while it is
# controlled (the scheduler, the ownership shadow, the race detector) go to
# libc's own (rt_memcpy): the program's memcpy is the hook, which would
# record the runtime's copy as the program's access and re-enter them.
for o in "$WORK"/objs/rt_race_*.o "$WORK"/objs/rt_sched.o "$WORK"/objs/rt_own*.o; do
	calls=$(objdump -r "$o" | awk '{print $3}' | sed 's/[-+]0x.*//' | sort -u | grep -xE 'memcpy|memmove|memset')
	[ -z "$calls" ] || fail "$(basename "$o") calls the program's $calls (a struct copy or initialiser?): use rt_memcpy/rt_memset"
done

# build_and_run WRAPPER MODE RUNS PROGRAM: built, RUNS schedules, no failure.
build_and_run() {
	local wrapper=$1 mode=$2 runs=$3 p=$4 flags=()
	[ "$wrapper" = schedfuzz-c++ ] && flags=(-x c++)
	[ "$mode" = asan ] && flags+=(-fsanitize=address)
	"$SF_BIN/$wrapper" -O1 "${flags[@]}" "$src/$p.c" -x none -o "$WORK/$p" 2>"$WORK/cc.err" ||
		fail "$wrapper $mode $p.c: $(head -5 "$WORK/cc.err")"
	"$SCHEDFUZZ" run -n "$runs" --seed 1 -o "$WORK/out" -- "$WORK/$p" >"$WORK/run.out" 2>"$WORK/run.err"
	local st=$?
	[ $st -eq 0 ] || { cat "$WORK/run.err"; fail "$wrapper $mode $p: exit $st"; }
	grep -q "no failure in $runs schedules" "$WORK/run.err" || fail "$wrapper $mode $p: no summary"
	# Outside schedfuzz too: the program's write counted every call.
	if [ "$p" = own_write ]; then
		"$WORK/own_write" >"$WORK/own.out" || fail "$wrapper $mode own_write failed on its own"
		[ "$(sort "$WORK/own.out" | tr '\n' ' ')" = "one three two " ] ||
			fail "$wrapper $mode own_write printed $(cat "$WORK/own.out")"
	fi
}
for wrapper in schedfuzz-cc schedfuzz-c++; do
	for p in global_send own_write; do
		build_and_run "$wrapper" default 2000 "$p"
		build_and_run "$wrapper" asan 200 "$p"
	done
	build_and_run "$wrapper" default 300 runtime_names
	build_and_run "$wrapper" asan 30 runtime_names
done
# The runtime's own names are reserved ones: none it defines for itself
# is left for a program's name to clash with, and a harness defining the
# standalone driver's names links beside the driver too.
for a in "$rt" "$rt_asan"; do
	left=$(nm -g --defined-only "$a" 2>/dev/null | awk 'NF==3 && $2 != "W" && $2 != "V" {print $3}' |
		grep -Ev '^(_|schedfuzz_|LLVMFuzzer|main$)' | sort -u | tr '\n' ' ')
	[ -z "$left" ] || fail "names of the runtime's own a program could clash with in $a: $left"
done
SCHEDFUZZ_ENGINE=standalone "$SF_BIN/schedfuzz-cc" -O1 -DHARNESS -fsanitize=fuzzer "$src/runtime_names.c" \
	-o "$WORK/names_harness" 2>"$WORK/cc.err" || fail "runtime_names harness: $(head -5 "$WORK/cc.err")"
printf 'x' >"$WORK/one_input"
"$WORK/names_harness" "$WORK/one_input" >/dev/null 2>&1 || fail "runtime_names harness failed on its own"

# In the ASan mode the runtime's interposers, not ASan's, serve a program
# that defines none: a deadlock is a deadlock report, not a hang.
"$SF_BIN/schedfuzz-cc" -O1 -fsanitize=address "$src/../bugs/two_lock_deadlock.c" -o "$WORK/deadlock" ||
	fail "cannot build two_lock_deadlock in the ASan mode"
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$WORK/deadlock" >/dev/null 2>"$WORK/dl.err"
grep -q "^==schedfuzz== ERROR: deadlock" "$WORK/dl.err" || fail "no deadlock report in the ASan mode"
echo "interposers weak, the runtime's own calls libc's, its own names reserved; send/receive globals, an own write, 0 failures in 2000 schedules each (200 in the ASan mode; the runtime's names 300 and 30), C and C++"
