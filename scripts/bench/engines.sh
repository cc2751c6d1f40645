#!/usr/bin/env bash
# engines.sh [TRIALS] [CAP_S] - time to bug of the magic-guarded
# data-plus-schedule harness (tests/engines/vault_harness.c: a lost update
# behind a memcmp'd 4-byte word) under each engine, for scripts/bench.sh:
#   engines_libfuzzer_s      libFuzzer, default mode (the runtime's
#                            comparison interceptors feed its hooks)
#   engines_libfuzzer_asan_s libFuzzer, ASan mode (ASan's interceptors do)
#   engines_afl_cmplog_s     afl-fuzz -c 0 over an AFL_LLVM_CMPLOG=1 build
#                            made through afl-clang-fast
#   engines_afl_plain_s      afl-fuzz without CmpLog, for contrast
#   engines_afl_laf_s        afl-fuzz over an AFL_LLVM_LAF_ALL=1 build
# Each figure is the median wall time to the first crash over TRIALS
# campaigns (seeds 1..TRIALS, default 3), each capped at CAP_S seconds
# (default 120; a campaign that hits the cap counts as CAP_S and the line
# says how many found the bug), with the executions it took. All start
# from account_harness's seed genomes with the word "none" before the data.
# Campaigns run one at a time, each on its own; the machine's load is in
# every figure alike.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
trials=${1:-3}
cap=${2:-120}
bin=$top/build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-engines.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$top/tests/engines/vault_harness.c
dict=$top/seeds/schedfuzz.dict
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1

mkdir "$work/seeds"
for f in "$top"/seeds/harnesses/account_harness/*; do
	{ head -c 96 "$f"; printf none; tail -c +97 "$f"; } >"$work/seeds/$(basename "$f")"
done
"$bin/schedfuzz-cc" -O1 -g -fsanitize=fuzzer "$src" -o "$work/lf" 2>/dev/null
"$bin/schedfuzz-cc" -O1 -g -fsanitize=fuzzer,address "$src" -o "$work/lf_asan" 2>/dev/null
afl_build() { # afl_build OUT [ENV...]
	local out=$1
	shift
	env "$@" SCHEDFUZZ_ENGINE=afl SCHEDFUZZ_CLANG=afl-clang-fast \
		"$bin/schedfuzz-cc" -O1 -g -fsanitize=fuzzer "$src" -o "$out" >/dev/null 2>&1
}
afl_build "$work/afl_cmplog" AFL_LLVM_CMPLOG=1
afl_build "$work/afl_plain"
afl_build "$work/afl_laf" AFL_LLVM_LAF_ALL=1

now() { date +%s.%N; }
# One campaign: prints "SECONDS EXECUTIONS FOUND".
libfuzzer_trial() { # libfuzzer_trial PROG SEED
	local dir=$work/lf-$RANDOM-$2 t0 t1 rc=0 execs
	rm -rf "$dir" && cp -r "$work/seeds" "$dir"
	t0=$(now)
	"$1" -seed="$2" -max_total_time="$cap" -dict="$dict" -artifact_prefix="$dir/" "$dir" \
		>"$dir.log" 2>&1 || rc=$?
	t1=$(now)
	execs=$(grep -o '^#[0-9]*' "$dir.log" | tail -1 | tr -d '#')
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') ${execs:-0} $([ $rc -ne 0 ] && echo 1 || echo 0)"
}
afl_trial() { # afl_trial PROG SEED [AFL_ARGS...]
	local prog=$1 seed=$2 dir=$work/afl-$RANDOM-$2 t0 t1 execs found=0
	shift 2
	t0=$(now)
	AFL_BENCH_UNTIL_CRASH=1 timeout $((cap + 30)) afl-fuzz -s "$seed" -i "$work/seeds" -o "$dir" -x "$dict" \
		-V "$cap" "$@" -- "$prog" >"$dir.log" 2>&1 || true
	t1=$(now)
	execs=$(sed -n 's/^execs_done *: //p' "$dir/default/fuzzer_stats" 2>/dev/null)
	ls "$dir/default/crashes"/id:* >/dev/null 2>&1 && found=1
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') ${execs:-0} $found"
}
report() { # report NAME: reads "SECONDS EXECUTIONS FOUND" lines
	sort -n | awk -v name="$1" -v cap="$cap" '
		{ t[NR] = $3 ? $1 : cap; e[NR] = $2; f += $3 }
		END {
			m = int((NR + 1) / 2)
			printf "%s: %.1f (found %d/%d, median executions %d, cap %d s)\n", name, t[m], f, NR, e[m], cap
		}'
}

for s in $(seq 1 "$trials"); do libfuzzer_trial "$work/lf" "$s"; done | report engines_libfuzzer_s
for s in $(seq 1 "$trials"); do libfuzzer_trial "$work/lf_asan" "$s"; done | report engines_libfuzzer_asan_s
for s in $(seq 1 "$trials"); do afl_trial "$work/afl_cmplog" "$s" -c 0; done | report engines_afl_cmplog_s
for s in $(seq 1 "$trials"); do afl_trial "$work/afl_plain" "$s"; done | report engines_afl_plain_s
for s in $(seq 1 "$trials"); do afl_trial "$work/afl_laf" "$s"; done | report engines_afl_laf_s
