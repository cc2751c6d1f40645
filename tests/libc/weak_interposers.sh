#!/usr/bin/env bash
# weak_interposers.sh RT_ARCHIVE RT_ASAN_ARCHIVE SRCDIR: a program's own
# definition of a name the runtime interposes wins, as over libc.so.
# - In the default runtime every libc/libpthread name is a weak definition,
#   and none of the runtime's own symbols (rt_*, __tsan_*, ...) or its
#   undefined references became weak; in the ASan one they stay strong.
# - No runtime file calls an interposed system call for its own work
#   (rt_libc.h renames those calls to libc's).
# - A program with globals named send and receive, and one with its own
#   write, build with schedfuzz-cc and schedfuzz-c++, run 2,000 schedules
#   with no failure, and reach their own definitions (they assert it).
. "$(dirname "$0")/../integration/lib.sh"
rt=$1 rt_asan=$2 src=$3
own='^(rt|__tsan_|__sanitizer_|__schedfuzz|schedfuzz_|sf_|sx_|cov_|strat_|__wrap_|LLVMFuzzer|__asan_|__lsan_|__afl_)'
# Weak on purpose before this change: hooks of engines and sanitizers.
weak_own='^(LLVMFuzzerCustomMutator|__lsan_is_turned_off|__sanitizer_acquire_crash_state|__sanitizer_print_stack_trace|__sanitizer_set_death_callback)$'

nm -g --defined-only "$rt" 2>/dev/null | awk 'NF==3 {print $2, $3}' | sort -u -k2 >"$WORK/defs"
awk '{print $2}' "$WORK/defs" | grep -Ev "$own" >"$WORK/interposed"
[ "$(wc -l <"$WORK/interposed")" -gt 150 ] || fail "only $(wc -l <"$WORK/interposed") interposed names found"
for n in send write read poll select kill alarm wait system pthread_create pthread_mutex_lock \
	thrd_create mtx_lock cnd_wait sem_wait nanosleep sigwait fork malloc memcpy; do
	grep -qx "$n" "$WORK/interposed" || fail "$n is not among the interposed names"
done
strong=$(awk '$1 != "W" {print $2}' "$WORK/defs" | grep -Ev "$own")
[ -z "$strong" ] || fail "strong interposers in $rt: $strong"
weak_ours=$(awk '$1 == "W" {print $2}' "$WORK/defs" | grep -E "$own" | grep -Ev "$weak_own")
[ -z "$weak_ours" ] || fail "runtime symbols made weak: $weak_ours"
weak_refs=$(nm -g --undefined-only "$rt" 2>/dev/null | awk '$1 == "w" || $1 == "v" {print $2}' |
	grep -xFf "$WORK/interposed")
[ -z "$weak_refs" ] || fail "weak undefined references to interposed names: $weak_refs"
asan_weak=$(nm -g --defined-only "$rt_asan" 2>/dev/null | awk '$2 == "W" {print $3}' | grep -xFf "$WORK/interposed")
[ -z "$asan_weak" ] || fail "weak interposers beside ASan (ASan's weak interceptors would win): $asan_weak"

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

for wrapper in schedfuzz-cc schedfuzz-c++; do
	lang=()
	[ "$wrapper" = schedfuzz-c++ ] && lang=(-x c++)
	for p in global_send own_write; do
		"$SF_BIN/$wrapper" -O1 "${lang[@]}" "$src/$p.c" -x none -o "$WORK/$p" 2>"$WORK/cc.err" ||
			fail "$wrapper $p.c: $(head -5 "$WORK/cc.err")"
		"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$WORK/$p" >"$WORK/run.out" 2>"$WORK/run.err"
		st=$?
		[ $st -eq 0 ] || { cat "$WORK/run.err"; fail "$wrapper $p: exit $st"; }
		grep -q "no failure in 2000 schedules" "$WORK/run.err" || fail "$wrapper $p: no summary"
	done
	# Outside schedfuzz too: the program's write counted every call.
	"$WORK/own_write" >"$WORK/own.out" || fail "$wrapper own_write failed on its own"
	[ "$(cat "$WORK/own.out" | sort | tr '\n' ' ')" = "one three two " ] || fail "own_write printed $(cat "$WORK/own.out")"
done
echo "interposers weak, the runtime's own calls libc's; send/receive globals and an own write: 0 failures in 2000 schedules each, C and C++"
