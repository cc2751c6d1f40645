#!/usr/bin/env bash
# real_programs.sh [--quick] - what a schedule costs on real-sized programs
# (scripts/bench/workloads/), for scripts/bench.sh. Each workload is built
# natively (clang -O2) and with schedfuzz-cc -O2 and timed in this one run,
# side by side: SCHEDULES schedules of each of the random walk, PCT (d=3),
# RPRO (d=4, r=5) and PCTVB (d=3, v=2), run from genomes (SCHEDFUZZ_INPUT=
# GENOME, the program's one process, as a native run is; `schedfuzz
# replay` of the same genome, untimed, counts its points), each right
# after a native run of its own, so that the two see the same machine (a
# shared machine's load comes and goes by the second). Each figure as wall time
# and as CPU time (user+sys, children included), medians over the pairs:
# a neighbour's burst slows one pair, not the figure. Per workload:
#   real_W_native_ms, real_W_schedule_ms   wall ms per native run / schedule
#   real_W_slowdown, real_W_cpu_slowdown   schedule over its native run
#   real_W_schedules_per_s
#   real_W_points, real_W_preemptions      scheduling points and preemptions
#                                          per schedule (means)
#   real_W_handoffs STRATEGY               with strace: that schedule's
#                                          points, preemptions, futex calls
#   real_W_slowdown_by_strategy            the slowdown of each strategy's
#                                          schedules alone (the walk switches
#                                          at more points, the others at few)
#   real_W_guided_schedule_ms, real_W_guided_slowdown   a guided run's wall
#                                          time per schedule (`schedfuzz run
#                                          -n GUIDED --seed 1`, the default
#                                          settings: the portfolio, mutants
#                                          and reversals, coverage), over the
#                                          median of NATIVE native runs made
#                                          right after it
# then
#   real_private_hook_ns      CPU ns per memory access on the "not shared, go
#                             on" path: private_loop (three instrumented
#                             accesses per iteration) under control minus
#                             native, one process each, the best of three
#   real_private_loop_ratio   CPU time of a PCT schedule of private_loop (every
#                             operation a private heap access) under the
#                             default settings over SCHEDFUZZ_MEMORY=0, the
#                             same binary, where the check passes every
#                             access on one cell (target <= 1.5); the median
#                             of five pairs, run alternately
#   real_private_loop_all_ratio   the same with SCHEDFUZZ_MEMORY=2 (every
#                             access a point, the model before ownership)
#   real_compressor_race_found_at the schedule at which the planted race on
#                             the compressor's job queue is found (seed 1,
#                             1,000 schedules at most; target: found)
# and libFuzzer on a threaded zoo harness (tests/bugs/queue_harness.c, its
# fixed build, so that no run stops at a crash), built four ways and run
# for EXECS inputs each (200,000; 12,000 with --quick) with seed 1:
#   real_libfuzzer_exec_ratio       default mode over plain libFuzzer (>= 0.6)
#   real_libfuzzer_asan_exec_ratio  ASan mode over plain ASan libFuzzer (>= 0.7)
#   real_libfuzzer_asan_vs_default  ASan mode's exec/s over the default
#                                   mode's (>= 0.5: within 2x)
#   real_libfuzzer_rss_growth, real_libfuzzer_asan_rss_growth   peak RSS
#                                   after EXECS inputs over after EXECS/20,
#                                   minus 1 (< 0.10), with the ASan options
#                                   the OSS-Fuzz build writes (scripts/oss-fuzz)
#   real_libfuzzer_sf_pool_off_execs_per_s, _sf_asan_pool_off_   the
#                                   default and ASan modes with
#                                   SCHEDFUZZ_THREAD_POOL=0: every thread on
#                                   a kernel thread of its own, as before
#                                   docs/cost.md's "Kernel threads kept
#                                   across inputs", and their RSS growth
#   real_libfuzzer_cpu_ratio        CPU time (user+sys) of plain libFuzzer
#                                   over the default mode's, the same inputs
#                                   (wall time is noise on a loaded machine)
#   real_libfuzzer_exec_ratio_coverage_none, _both   the default mode's
#                                   exec/s over plain libFuzzer's with
#                                   SCHEDFUZZ_COVERAGE=none and =both (no
#                                   reads-from), and the inputs libFuzzer kept
#   real_libfuzzer_syscalls_per_exec  with strace, plain libFuzzer and the
#                                   default mode, EXECS/20 inputs: system calls
#                                   per execution and the largest kinds
#   real_libfuzzer_churn_asan_rss_kb_per_exec  plain ASan libFuzzer on a
#                                   harness that only creates and joins two
#                                   threads (workloads/thread_churn.c): the
#                                   memory ASan keeps per thread it saw
#                                   (quarantine off: its filling is not it)
# Targets are printed beside the figures (docs/cost.md).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
quick=0
[ "${1:-}" = "--quick" ] && quick=1
bin=${SF_BIN:-$top/build/bin}
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-real.XXXXXX")
trap 'rm -rf "$work"' EXIT
clang=$(command -v clang-14 || command -v clang)
src=$top/scripts/bench/workloads
if [ $quick -eq 1 ]; then
	native_runs=3 schedules=3 guided=10 execs=12000
else
	native_runs=10 schedules=10 guided=40 execs=200000
fi

# timed FILE CMD...: CMD's wall, user and system seconds to FILE, to the
# millisecond (bash's time: /usr/bin/time's are hundredths, a third of a
# 30 ms native run); CMD's output discarded, its errors on stderr.
timed() {
	local out=$1 TIMEFORMAT='%3R %3U %3S'
	shift
	{ time "$@" >/dev/null 2>&3; } 3>&2 2>"$out" || true
}
# measure CMD...: "WALL_S CPU_S" of CMD, its output discarded.
measure() {
	timed "$work/time" "$@" 2>/dev/null
	awk '{ printf "%.4f %.4f", $1, $2 + $3 }' "$work/time"
}

# median: the median of the numbers on stdin, one a line.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# schedules_of NAME NATIVE BINARY ARGS...: one line per schedule in
# $work/pairs, "STRATEGY SCHEDULE_WALL_S SCHEDULE_CPU_S NATIVE_WALL_S
# NATIVE_CPU_S POINTS PREEMPTIONS", SCHEDULES schedules of each of the
# random walk, PCT, RPRO and PCTVB, run from genomes drawn with seeds 1,
# 2, ..., each after a native run. With strace at hand, also one line
# per strategy on stderr with the futex calls of its first schedule
# (real_W_handoffs): a strategy that does not preempt at a point must not
# pay a futex round trip there, so they follow the switches, not the
# points.
schedules_of() {
	local name=$1 nat=$2 b=$3 s i line fx w c nw nc
	shift 3
	: >"$work/pairs"
	for s in random pct:d=3 rpro:d=4,r=5 pctvb:d=3,v=2; do
		for i in $(seq "$schedules"); do
			"$bin/schedfuzz" genome --strategy "$s" --seed "$i" -o "$work/genome" >/dev/null 2>&1
			read -r nw nc <<<"$(measure "$nat" "$@")"
			read -r w c <<<"$(SCHEDFUZZ_INPUT="$work/genome" measure "$b" "$@")"
			"$bin/schedfuzz" replay --events 1 "$work/genome" -- "$b" "$@" >/dev/null 2>"$work/replay"
			line=$(sed -n 's/^==schedfuzz== \([0-9]*\) steps, \([0-9]*\) preemption.*/\1 \2/p' "$work/replay")
			[ -n "$line" ] || continue
			echo "${s%%:*} $w $c $nw $nc $line" >>"$work/pairs"
			if [ "$i" = 1 ] && command -v strace >/dev/null; then
				strace -f -c -e trace=futex -o "$work/strace" "$bin/schedfuzz" replay --events 1 \
					"$work/genome" -- "$b" "$@" >/dev/null 2>&1 || true
				fx=$(awk '$NF == "futex" { print $4 }' "$work/strace")
				echo "real_${name}_handoffs ${s%%:*}: ${line% *} points, ${line#* } preemptions, ${fx:-0} futex calls" >&2
			fi
		done
	done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# workload NAME TARGET ARGS...: the figures of one workload.
workload() {
	local name=$1 target=$2 i
	shift 2
	"$clang" -O2 -pthread "$src/$name.c" -o "$work/${name}_native"
	"$bin/schedfuzz-cc" -O2 "$src/$name.c" -o "$work/${name}_sf"
	schedules_of "$name" "$work/${name}_native" "$work/${name}_sf" "$@" 2>"$work/handoffs"
	local p="$work/pairs" nat_w sf_w
	nat_w=$(awk '{ print $4 }' "$p" | median)
	sf_w=$(awk '{ print $2 }' "$p" | median)
	echo "real_${name}_native_ms: $(awk -v t="$nat_w" 'BEGIN { printf "%.1f", t * 1000 }')"
	echo "real_${name}_schedule_ms: $(awk -v t="$sf_w" 'BEGIN { printf "%.1f", t * 1000 }')"
	echo "real_${name}_slowdown: $(awk '$4 > 0 { print $2 / $4 }' "$p" | median |
		awk '{ printf "%.2f", $1 }')${target:+ (target <= $target)}"
	echo "real_${name}_cpu_slowdown: $(awk '$5 > 0 { print $3 / $5 }' "$p" | median |
		awk '{ printf "%.2f", $1 }')"
	echo "real_${name}_schedules_per_s: $(awk -v t="$sf_w" 'BEGIN { printf "%.1f", (t > 0 ? 1 / t : 0) }')"
	local by="" k
	for k in random pct rpro pctvb; do
		grep -q "^$k " "$p" || continue
		by="$by${by:+, }$k $(awk -v k="$k" '$1 == k && $4 > 0 { print $2 / $4 }' "$p" | median |
			awk '{ printf "%.2f", $1 }')"
	done
	echo "real_${name}_slowdown_by_strategy: $by"
	cat "$work/handoffs"
	echo "real_${name}_points: $(awk '{ t += $6 } END { print (NR ? int(t / NR) : 0) }' "$p")"
	echo "real_${name}_preemptions: $(awk '{ t += $7 } END { print (NR ? int(t / NR) : 0) }' "$p")"
	rm -rf "$work/guided"
	timed "$work/time" "$bin/schedfuzz" run -n "$guided" --seed 1 -o "$work/guided" -- \
		"$work/${name}_sf" "$@" 2>/dev/null
	local g after
	g=$(awk -v n="$guided" '{ print $1 / n }' "$work/time")
	after=$(for i in $(seq "$native_runs"); do
		measure "$work/${name}_native" "$@" | awk '{ print $1 }'
	done | median)
	echo "real_${name}_guided_schedule_ms: $(awk -v t="$g" 'BEGIN { printf "%.1f", t * 1000 }') ($guided schedules)"
	echo "real_${name}_guided_slowdown: $(ratio "$g" "$after")"
}

workload compressor 3
workload hashbuild ""
workload threadpool ""

# The hook's own limit: one binary, three settings, CPU time of the same
# schedules (a fork per schedule each).
"$bin/schedfuzz-cc" -O2 "$src/private_loop.c" -o "$work/private_loop"
"$clang" -O2 -pthread "$src/private_loop.c" -o "$work/private_loop_native"
best() { # best CPU seconds of three runs of CMD...
	local i c b=""
	for i in 1 2 3; do
		read -r _ c <<<"$(measure "$@")"
		b=$(awk -v a="$b" -v c="$c" 'BEGIN { print (a == "" || c < a) ? c : a }')
	done
	echo "$b"
}
iters=20000000
c_sf=$(best "$work/private_loop" "$iters")
c_nat=$(best "$work/private_loop_native" "$iters")
echo "real_private_hook_ns: $(awk -v a="$c_sf" -v b="$c_nat" -v n="$iters" \
	'BEGIN { printf "%.2f", (a - b) * 1e9 / (n * 2 * 3) }') (target: a few ns)"
# pct_cpu ARGS...: CPU seconds of one PCT schedule of private_loop (seed 1).
"$bin/schedfuzz" genome --strategy pct:d=3 --seed 1 -o "$work/pct_genome" >/dev/null 2>&1
pct_cpu() {
	local c
	read -r _ c <<<"$(measure "$bin/schedfuzz" replay --events 1 "$work/pct_genome" -- "$work/private_loop" "$@")"
	echo "$c"
}
echo "real_private_loop_ratio: $(for i in 1 2 3 4 5; do
	c1=$(pct_cpu)
	c0=$(SCHEDFUZZ_MEMORY=0 pct_cpu)
	ratio "$c1" "$c0"
	echo
done | median | awk '{ printf "%.2f", $1 }') (target <= 1.5)"
# The model before ownership: a tenth of the loop, scaled up.
c0=$(SCHEDFUZZ_MEMORY=0 pct_cpu)
c2=$(SCHEDFUZZ_MEMORY=2 pct_cpu 2000000)
echo "real_private_loop_all_ratio: $(awk -v a="$c2" -v b="$c0" 'BEGIN { printf "%.1f", (b > 0 ? a * 10 / b : 0) }')"

# The planted race on the job queue, small blocks as the test runs it
# (the portfolio, PCTVB's plans included).
"$bin/schedfuzz-cc" -O1 -DQUEUE_RACE -DINPUT_KIB=64 -DBLOCK_KIB=8 "$src/compressor.c" -o "$work/race"
"$bin/schedfuzz" run -n 1000 --seed 1 -o "$work/race-out" -- "$work/race" >/dev/null 2>"$work/race.log" || true
at=$(sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed: .*/\1/p' "$work/race.log" | head -n 1)
echo "real_compressor_race_found_at: ${at:-not found} (target <= 1000)"
# libFuzzer, four builds of one harness, side by side.
h=$top/tests/bugs/queue_harness.c
"$clang" -O1 -DFIXED -fsanitize=fuzzer "$h" -o "$work/lf_plain" -lpthread
"$clang" -O1 -DFIXED -fsanitize=address,fuzzer "$h" -o "$work/lf_plain_asan" -lpthread
"$bin/schedfuzz-cc" -O1 -DFIXED -fsanitize=fuzzer "$h" -o "$work/lf_sf"
"$bin/schedfuzz-cc" -O1 -DFIXED -fsanitize=address,fuzzer "$h" -o "$work/lf_sf_asan"
# The allocator options that scripts/oss-fuzz/build.sh writes to [asan].
asan_options=quarantine_size_mb=32
# fuzz BINARY RUNS: "SECONDS PEAK_RSS_KB CPU_S" of one campaign from an
# empty corpus.
fuzz() {
	rm -rf "$work/corpus"
	mkdir "$work/corpus"
	ASAN_OPTIONS=$asan_options /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$1" -runs="$2" \
		-seed=1 "$work/corpus" >/dev/null 2>&1 || true
	awk '{ printf "%s %s %.3f", $1, $2, $3 + $4 }' "$work/time"
}
declare -A rate rss_small rss_big cpu
for b in lf_plain lf_sf lf_plain_asan lf_sf_asan; do
	read -r _ rss_small[$b] _ <<<"$(fuzz "$work/$b" $((execs / 20)))"
	read -r t rss_big[$b] cpu[$b] <<<"$(fuzz "$work/$b" "$execs")"
	rate[$b]=$(awk -v t="$t" -v n="$execs" 'BEGIN { printf "%.0f", n / t }')
	echo "real_libfuzzer_${b#lf_}_execs_per_s: ${rate[$b]} ($(find "$work/corpus" -type f | wc -l) inputs kept)"
done
for b in lf_sf lf_sf_asan; do
	read -r _ small _ <<<"$(SCHEDFUZZ_THREAD_POOL=0 fuzz "$work/$b" $((execs / 20)))"
	read -r t big _ <<<"$(SCHEDFUZZ_THREAD_POOL=0 fuzz "$work/$b" "$execs")"
	echo "real_libfuzzer_${b#lf_}_pool_off_execs_per_s: $(awk -v t="$t" -v n="$execs" \
		'BEGIN { printf "%.0f", n / t }') (pool on: ${rate[$b]}; RSS growth $(awk -v a="$big" \
		-v b="$small" 'BEGIN { printf "%.2f", (b > 0 ? a / b - 1 : 0) }'))"
done
echo "real_libfuzzer_exec_ratio: $(ratio "${rate[lf_sf]}" "${rate[lf_plain]}") (target >= 0.6)"
echo "real_libfuzzer_cpu_ratio: $(ratio "${cpu[lf_plain]}" "${cpu[lf_sf]}")"
# The default mode by the features it gives libFuzzer (SCHEDFUZZ_COVERAGE),
# the same inputs: libFuzzer keeps every input with a new feature (a file
# written, and entropic's bookkeeping over the whole corpus per new
# feature), so the exec/s follows how many inputs each kind keeps.
for kind in none both; do
	read -r t _ _ <<<"$(SCHEDFUZZ_COVERAGE=$kind fuzz "$work/lf_sf" "$execs")"
	echo "real_libfuzzer_exec_ratio_coverage_$kind: $(ratio "$(awk -v t="$t" -v n="$execs" \
		'BEGIN { printf "%.0f", n / t }')" "${rate[lf_plain]}") ($(find "$work/corpus" -type f | wc -l) inputs kept)"
done
# syscalls BINARY: "PER_EXEC (kind n, ...)" over EXECS/20 inputs.
syscalls() {
	local n=$((execs / 20))
	rm -rf "$work/corpus"
	mkdir "$work/corpus"
	strace -f -c -o "$work/strace" "$1" -runs="$n" -seed=1 "$work/corpus" >/dev/null 2>&1 || true
	local total
	total=$(awk '$NF == "total" { print $4 }' "$work/strace")
	echo "$(awk -v t="$total" -v n="$n" 'BEGIN { printf "%.1f", t / n }') ($(awk -v n="$n" \
		'$1 ~ /^[0-9.]+$/ && $NF != "total" { printf "%s %.1f\n", $NF, $4 / n }' "$work/strace" |
		sort -k2 -n -r | head -n 5 | paste -s -d, - | sed 's/,/, /g'))"
}
if command -v strace >/dev/null; then
	echo "real_libfuzzer_syscalls_per_exec: plain $(syscalls "$work/lf_plain"), default mode $(syscalls "$work/lf_sf")"
fi
echo "real_libfuzzer_asan_exec_ratio: $(ratio "${rate[lf_sf_asan]}" "${rate[lf_plain_asan]}") (target >= 0.7)"
echo "real_libfuzzer_asan_vs_default: $(ratio "${rate[lf_sf_asan]}" "${rate[lf_sf]}") (target >= 0.5)"
for b in lf_sf lf_sf_asan lf_plain lf_plain_asan; do
	g=$(awk -v a="${rss_big[$b]}" -v b="${rss_small[$b]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b - 1 : 0) }')
	echo "real_libfuzzer_${b#lf_}_rss_growth: $g (${rss_small[$b]} KB after $((execs / 20)), ${rss_big[$b]} KB after $execs; target < 0.10)"
done
# ASan's own growth per thread, schedfuzz aside, without the quarantine
# (which fills up with what thread creation frees).
asan_options=quarantine_size_mb=0
"$clang" -O1 -fsanitize=address,fuzzer "$src/thread_churn.c" -o "$work/churn_asan" -lpthread
read -r _ churn_small _ <<<"$(fuzz "$work/churn_asan" $((execs / 20)))"
read -r _ churn_big _ <<<"$(fuzz "$work/churn_asan" "$execs")"
echo "real_libfuzzer_churn_asan_rss_kb_per_exec: $(awk -v a="$churn_big" -v b="$churn_small" \
	-v n="$((execs - execs / 20))" 'BEGIN { printf "%.2f", (a - b) / n }') ($churn_small KB after $((execs / 20)), $churn_big KB after $execs: plain ASan libFuzzer, two threads an input)"
