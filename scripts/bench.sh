#!/usr/bin/env bash
# bench.sh [--quick] [ZOO OPTIONS] - measures the runtime's costs and how
# well schedfuzz finds bugs, printing one "name: value" line per figure
# (targets in the README). With zoo options (--program NAME, --engine E,
# --strategy S, --coverage C, --budget N, --trials T, ...; see
# scripts/bench/zoo.sh) only the zoo benchmark runs, restricted to them.
# Otherwise:
#   hook_ns    a memory-access hook that does not switch threads (ns)
#   switch_us  one thread switch under control (us)
#   exec_ratio controlled executions/s of a two-thread libFuzzer harness
#              divided by the same harness built natively, run side by side
#              (interleaving coverage on, as libFuzzer runs it by default)
#   cov_exec_ratio  the same harness with SCHEDFUZZ_COVERAGE=both divided by
#              SCHEDFUZZ_COVERAGE=none: what computing HaPSet and MAP costs
#   asan_zoo_found, asan_exec_ratio  the ASan mode (scripts/bench/asan.sh):
#              the memory-error zoo found and replayed, and the harness in
#              the ASan mode against the same harness with plain ASan
#   liveness_false_alarms, liveness_found, liveness_asm_lock_max_schedule_s
#              the liveness probes (scripts/bench/liveness.sh): correct
#              programs that spin, churn threads or run long, 20,000
#              schedules of the portfolio and 3,000 per pinned strategy
#              each, with no report; a bug behind exit() found; the
#              slowest schedule of a spin lock written in inline assembly
#   blocking_false_alarms, blocking_found, blocking_worst_over_native_s
#              the blocking probes (scripts/bench/blocking.sh): pipes,
#              sockets, eventfd, C++20 futex waits and OpenMP, 5,000
#              schedules per correct program, each program's native time
#              beside its mean and longest schedule under control
# then the real-program figures (scripts/bench/real_programs.sh: a
# compressor, a hash build, a thread pool and a private loop, natively and
# under control side by side: real_*_slowdown, real_*_points, ...), then
#   lifecycle_worst_over_native_s, lifecycle_schedule_failures
#              the lifecycle probes (scripts/bench/lifecycle.sh): one
#              schedule of each cancel, signal, timer, fork and thread
#              creation program against its native run
# then the strategy table (scripts/bench/strategies.sh): for each zoo bug
# and strategy, the probability per schedule over 10,000 schedules (1,000
# with --quick), beside PCT's lower bound; the coverage ablation
# (scripts/bench/coverage_ablation.sh: afl-fuzz with each kind of feedback,
# 10 campaigns per cell); and coverage growing over a campaign's corpus
# (scripts/bench/coverage_growth.sh); and afl-fuzz over every zoo program
# for up to 5 minutes each (1 with --quick), every saved crash replayed
# (scripts/bench/afl_zoo.sh: afl_zoo_found, afl_zoo_replayed); the
# systematic strategies over the zoo, DPOR, DPOR+HaPSet and ICB c=2 side by
# side (scripts/bench/search.sh: executions to the first bug and in total,
# search_found_*, search_complete_*, search_total_*); then the
# scalable families (scripts/bench/families.sh, docs/many-threads.md):
# schedules to the first bug at 2 to 100 threads, guided, unguided and
# pct:d=3 side by side, families_*; last the
# zoo benchmark (scripts/bench/zoo.sh): native stress, every strategy under
# schedfuzz run, afl-fuzz and libFuzzer with and without coverage, N
# trials each, into a results folder (CSV, report.md, PNG plots):
# zoo_found, zoo_fixed_false_alarms.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
quick=0
if [ "${1:-}" = "--quick" ]; then
	quick=1
	shift
fi
"$top/scripts/build.sh" >/dev/null
if [ $# -gt 0 ]; then
	exec "$top/scripts/bench/zoo.sh" "$@"
fi
bin=$top/build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
clang=$(command -v clang-14 || command -v clang)
. "$top/scripts/bench/timing.sh"

if [ $quick -eq 1 ]; then iters=5000000 rounds=20000 runs=20000; else iters=50000000 rounds=200000 runs=100000; fi

"$bin/schedfuzz-cc" -O1 "$top/scripts/bench/hook.c" -o "$work/hook_sf"
"$clang" -O1 "$top/scripts/bench/hook.c" -o "$work/hook_native"
"$bin/schedfuzz-cc" -O1 "$top/scripts/bench/switch.c" -o "$work/switch_sf"
"$bin/schedfuzz-cc" -O1 -fsanitize=fuzzer "$top/tests/integration/harness.c" -o "$work/harness_sf"
"$clang" -O1 -fsanitize=fuzzer "$top/tests/integration/harness.c" -o "$work/harness_native"

# One hook per iteration (a volatile store); the native loop is the
# baseline. The loop is far longer than the default hang bound, so the
# bound is lifted. The best of three runs each: on a shared
# machine one run measures the neighbours too.
best() { sort -g | head -n 1; }
sf=$(for _ in 1 2 3; do SCHEDFUZZ_MAX_STEPS=1000000000000 "$work/hook_sf" "$iters"; done | best)
native=$(for _ in 1 2 3; do "$work/hook_native" "$iters"; done | best)
echo "hook_ns: $(awk -v a="$sf" -v b="$native" 'BEGIN { printf "%.2f", a - b }')"

# The explicit strategy's default policy switches only when a thread blocks,
# so each round is exactly two switches.
echo "switch_us: $(SCHEDFUZZ_MAX_STEPS=1000000000000 SCHEDFUZZ_STRATEGY=explicit "$work/switch_sf" "$rounds")"

exec_rates "" "$work/harness_native" "$work/harness_sf" "$runs" "$work/rates"
mkdir -p "$work/c3" "$work/c4"
t_none=$(SCHEDFUZZ_COVERAGE=none elapsed "$work/harness_sf" -runs="$runs" -seed=1 "$work/c3")
t_both=$(SCHEDFUZZ_COVERAGE=both elapsed "$work/harness_sf" -runs="$runs" -seed=1 "$work/c4")
echo "cov_exec_ratio: $(awk -v a="$t_none" -v b="$t_both" 'BEGIN { printf "%.2f", a / b }')"
"$top/scripts/bench/asan.sh" "$runs"
if [ $quick -eq 1 ]; then
	"$top/scripts/bench/liveness.sh" --quick
else
	"$top/scripts/bench/liveness.sh"
fi
if [ $quick -eq 1 ]; then
	"$top/scripts/bench/blocking.sh" --quick
else
	"$top/scripts/bench/blocking.sh"
fi

if [ $quick -eq 1 ]; then
	"$top/scripts/bench/real_programs.sh" --quick
else
	"$top/scripts/bench/real_programs.sh"
fi
if [ $quick -eq 1 ]; then
	"$top/scripts/bench/lifecycle.sh" --quick
else
	"$top/scripts/bench/lifecycle.sh"
fi

if [ $quick -eq 1 ]; then table_runs=1000; else table_runs=10000; fi
"$top/scripts/bench/strategies.sh" "$table_runs"

if [ $quick -eq 1 ]; then ablation_execs=500 growth_execs=2000; else ablation_execs=2000 growth_execs=5000; fi
"$top/scripts/bench/coverage_ablation.sh" 10 "$ablation_execs"
"$top/scripts/bench/coverage_growth.sh" "$growth_execs"
if [ $quick -eq 1 ]; then afl_seconds=60; else afl_seconds=300; fi
"$top/scripts/bench/afl_zoo.sh" "$afl_seconds"
# Time to bug of a magic-guarded data-plus-schedule harness under default
# libFuzzer, ASan libFuzzer and afl-fuzz with CmpLog (engines_*_s).
if [ $quick -eq 1 ]; then engines_trials=1 engines_cap=60; else engines_trials=3 engines_cap=120; fi
"$top/scripts/bench/engines.sh" "$engines_trials" "$engines_cap"
if [ $quick -eq 1 ]; then search_budget=1000; else search_budget=5000; fi
"$top/scripts/bench/search.sh" "$search_budget"
if [ $quick -eq 1 ]; then
	"$top/scripts/bench/families.sh" --quick
else
	"$top/scripts/bench/families.sh"
fi
if [ $quick -eq 1 ]; then
	"$top/scripts/bench/zoo.sh" --trials 1 --budget 2000 --strategy "portfolio random" \
		--native-runs 200 --family-budget 1000
else
	"$top/scripts/bench/zoo.sh"
fi
