#!/usr/bin/env bash
# asan_engines.sh AFL_PROG LF_PROG MUTATOR SEEDS: the ASan mode under both
# fuzzers. afl-fuzz (with the genome-aware mutator) and libFuzzer each find
# a memory zoo bug, ASan's report names the program's threads, the input is
# saved as a crash, and `schedfuzz
# replay` of the crash gives the same ASan diagnosis as our failure.
. "$(dirname "$0")/lib.sh"
afl_prog=$1 lf_prog=$2 mutator=$3 seeds=$4
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_BENCH_UNTIL_CRASH=1 AFL_FAST_CAL=1
want="^==schedfuzz== ERROR: sanitizer report: AddressSanitizer: heap-use-after-free"

# A fixed -t, far above any execution's time: with none, afl-fuzz derives
# one from the seeds (20 ms here, twice a fast execution), and on a busy
# machine executions past it count as timeouts, never as crashes or new
# paths, so the search a seed makes depended on the load (seed 1 on one
# CPU: no crash in 4,000 executions; with -t, the crash at the same
# execution on one CPU or two). -E bounds the search by executions (the
# crash comes at 390 to 860 with seeds 1 to 5), timeout only guards.
AFL_CUSTOM_MUTATOR_LIBRARY=$mutator timeout 300 afl-fuzz -s 1 -t 10000 -E 4000 -i "$seeds" \
	-o "$WORK/afl" -- "$afl_prog" >"$WORK/afl.log" 2>&1
crash=$(ls "$WORK"/afl/default/crashes/id:* 2>/dev/null | head -n 1)
[ -n "$crash" ] || { tail -5 "$WORK/afl.log"; fail "afl-fuzz saved no crash in 4,000 executions"; }
"$SCHEDFUZZ" replay "$crash" -- "$afl_prog" >/dev/null 2>"$WORK/afl-replay"
[ $? -eq 1 ] || fail "afl-fuzz's crash did not replay"
grep -q "$want" "$WORK/afl-replay" || { tail -5 "$WORK/afl-replay"; fail "afl replay: no ASan report"; }
echo "afl-fuzz: $(grep -m1 '^==schedfuzz== ERROR' "$WORK/afl-replay")"

mkdir "$WORK/corpus"
cp "$seeds"/* "$WORK/corpus/"
"$lf_prog" -runs=20000 -seed=1 -artifact_prefix="$WORK/lf-" "$WORK/corpus" >"$WORK/lf.log" 2>&1
grep -q "$want" "$WORK/lf.log" || { tail -5 "$WORK/lf.log"; fail "libFuzzer: no ASan report"; }
# ASan knows the program's threads (our pthread_create chains to its
# interceptor): the stale read is by a created thread, the free by another
# (in one libFuzzer process ASan numbers threads on across executions).
grep -Eq "^READ of size [0-9]+ at 0x[0-9a-f]+ thread T[1-9][0-9]*$" "$WORK/lf.log" ||
	fail "ASan's report does not name the reading thread"
grep -Eq "^freed by thread T[1-9][0-9]* here:" "$WORK/lf.log" || fail "ASan's report does not name the freeing thread"
grep -q "^Thread T[1-9][0-9]* created by T0 here:" "$WORK/lf.log" || fail "ASan's report has no thread creation"
crash=$(ls "$WORK"/lf-crash-* 2>/dev/null | head -n 1)
[ -n "$crash" ] || fail "libFuzzer saved no crash"
"$SCHEDFUZZ" replay "$crash" -- "$lf_prog" >/dev/null 2>"$WORK/lf-replay"
[ $? -eq 1 ] || fail "libFuzzer's crash did not replay"
diff <(grep '^==schedfuzz== ERROR' "$WORK/lf.log") <(grep '^==schedfuzz== ERROR' "$WORK/lf-replay") ||
	fail "libFuzzer replay reported something else"
echo "libFuzzer: $(grep -m1 '^==schedfuzz== ERROR' "$WORK/lf-replay")"
