#!/usr/bin/env bash
# afl_cmplog.sh CMPLOG FIXED_CMPLOG SEEDS DICT: AFL++'s CmpLog with a
# schedfuzz build (AFL_LLVM_CMPLOG=1, SCHEDFUZZ_CLANG=afl-clang-fast): afl-fuzz
# learns vault_harness's magic word from the logged comparison ("op:its"
# in the queue), then finds the lost update behind it, which needs the
# interleaving too; the crash replays. The fixed twin saves no crash.
# SEEDS are genomes followed by data (account_harness's): each gets the
# word "none" in front of its data.
. "$(dirname "$0")/../integration/lib.sh"
buggy=$1 fixed=$2 seeds=$3 dict=$4
command -v afl-fuzz >/dev/null || fail "afl-fuzz not found (scripts/setup.sh installs afl++)"
nm "$buggy" | grep -q ' __cmplog_ins_hook4' || fail "$buggy has no CmpLog instrumentation"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
mkdir "$WORK/seeds"
for f in "$seeds"/*; do
	{ head -c 96 "$f"; printf none; tail -c +97 "$f"; } >"$WORK/seeds/$(basename "$f")"
done
fuzz() { # fuzz OUT PROG EXECS
	AFL_BENCH_UNTIL_CRASH=1 timeout 300 afl-fuzz -s 1 -i "$WORK/seeds" -o "$1" -x "$dict" -E "$3" \
		-c 0 -- "$2" >"$1.log" 2>&1 || { tail -20 "$1.log"; fail "afl-fuzz failed on $2"; }
}
fuzz "$WORK/bug" "$buggy" 300000
learned=$(grep -l 'Vlt!' "$WORK/bug/default/queue"/id:*its* 2>/dev/null | head -1)
[ -n "$learned" ] || fail "CmpLog's input-to-state stage never wrote the magic word"
echo "magic word learned by CmpLog: $(basename "$learned")"
crash=$(ls "$WORK/bug/default/crashes"/id:* 2>/dev/null | head -1)
[ -n "$crash" ] || fail "no crash in 300000 executions"
"$SCHEDFUZZ" replay "$crash" -- "$buggy" >"$WORK/replay" 2>&1
[ $? -eq 1 ] && grep -q '==schedfuzz== ERROR: assertion failure' "$WORK/replay" ||
	{ tail -20 "$WORK/replay"; fail "the crash did not replay"; }
grep -q '^==schedfuzz== interleaving' "$WORK/replay" || fail "no interleaving in the report"
echo "lost update found: $(basename "$crash"), replays"
fuzz "$WORK/fixed" "$fixed" 5000
saved=$(ls "$WORK/fixed/default/crashes" | grep -c id: || true)
[ "$saved" -eq 0 ] || fail "the fixed twin crashed $saved times"
echo "fixed twin: 5000 executions, no crash"
