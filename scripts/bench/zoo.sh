#!/usr/bin/env bash
# zoo.sh [options] - the zoo benchmark: how often and how fast each
# configuration finds every zoo bug (tests/bugs/zoo.tsv), beside native
# stress testing. Writes CSV files, a markdown report and gnuplot plots into
# the results folder, and prints "name: value" lines.
#
#   --program NAME   only this zoo program (default: all)
#   --engine E       only this engine: native, run (schedfuzz run: plans
#                    drawn afresh, no feedback), afl or libfuzzer (coverage
#                    feedback on and off); default all four
#   --strategy S     only this strategy: portfolio (unpinned: the genome
#                    chooses), random, pct, rpro, pctvb; default all
#   --coverage C     on or off: only this coverage setting of the fuzzers
#   --budget N       schedules per trial before giving up (default 10000)
#   --trials T       trials per configuration, seeds 1..T (default 5)
#   --native-runs N  native runs per program (default 1000)
#   --fixed-budget N schedules of each fixed twin, once per engine and
#                    coverage setting, first strategy listed (default 2000)
#   --family-budget N  schedules per family trial (default 10000); 0 skips
#                    the scalable families (with --program, only that
#                    family runs, if it is one)
#   --seconds S      wall-clock cap per trial (default 300)
#   --out DIR        results folder (default bench-results/zoo-DATE)
#
# Prints zoo_found: X/Y for the configuration that found the most bugs in
# every trial (ties: fewer median schedules), zoo_fixed_false_alarms: N
# over every fixed twin run by the same configurations, and where the
# files are.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
program="" engines="native run afl libfuzzer" strategies="portfolio random pct rpro pctvb"
coverages="on off" budget=10000 trials=5 native_runs=1000 fixed_budget=2000 family_budget=10000
seconds=300
out=$top/bench-results/zoo-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
	case $1 in
	--program) program=$2 ;;
	--engine) engines=$2 ;;
	--strategy) strategies=$2 ;;
	--coverage) coverages=$2 ;;
	--budget) budget=$2 ;;
	--trials) trials=$2 ;;
	--native-runs) native_runs=$2 ;;
	--fixed-budget) fixed_budget=$2 ;;
	--family-budget) family_budget=$2 ;;
	--seconds) seconds=$2 ;;
	--out) out=$2 ;;
	*) echo "zoo.sh: unknown option '$1' (see the comment at the top)" >&2; exit 2 ;;
	esac
	shift 2 || { echo "zoo.sh: $1 needs a value" >&2; exit 2; }
done
for e in $engines; do
	case $e in native | run | afl | libfuzzer) ;; *) echo "zoo.sh: unknown engine '$e'" >&2; exit 2 ;; esac
done
for s in $strategies; do
	case $s in portfolio | random | pct | rpro | pctvb) ;; *) echo "zoo.sh: unknown strategy '$s'" >&2; exit 2 ;; esac
done
zoo=$top/tests/bugs/zoo.tsv
if [ -n "$program" ] && ! grep -q "^$program	" "$zoo"; then
	echo "zoo.sh: '$program' is not in tests/bugs/zoo.tsv" >&2
	exit 2
fi
bin=$top/build/bin
[ -x "$bin/schedfuzz-cc" ] && [ -f "$top/build/lib/schedfuzz/libschedfuzz_afl_mutator.so" ] ||
	"$top/scripts/build.sh" >/dev/null
clang=$(command -v clang-14 || command -v clang)
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-zoo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_BENCH_UNTIL_CRASH=1 AFL_QUIET=1

"$clang" -O2 "$top/scripts/bench/native_stress.c" -o "$work/native_stress"
# Fuzzers start from three genomes of each strategy: every engine spends
# its first executions running (and afl-fuzz calibrating) its seeds, and
# those count against the budget.
mkdir "$work/genomes"
for d in random pct rpro pctvb; do
	for f in $(ls "$top/seeds/$d" | sort | head -3); do cp "$top/seeds/$d/$f" "$work/genomes/$d-$f"; done
done
export AFL_FAST_CAL=1
# afl-fuzz runs with schedfuzz's genome-aware mutator, as the README
# recommends (libFuzzer binaries carry theirs).
export AFL_CUSTOM_MUTATOR_LIBRARY=$top/build/lib/schedfuzz/libschedfuzz_afl_mutator.so

# The pinned spec of a strategy for a bug; deadlocks are hunted by RPRO
# in its lock mode, the paper's design for them.
spec_of() { # STRATEGY EXPECT
	case $1 in
	portfolio) echo "" ;;
	random) echo random ;;
	pct) echo pct:d=3 ;;
	rpro) case $2 in *deadlock*) echo rpro:d=4,r=5,locks ;; *) echo rpro:d=4,r=5 ;; esac ;;
	pctvb) echo pctvb:d=2,v=1 ;;
	esac
}

now() { date +%s.%N; }
# The schedule at which `schedfuzz run` failed first, from its stderr.
first_failure() { sed -n 's/^schedfuzz: schedule \([0-9]*\) of .* failed:.*/\1/p' "$1" | head -1; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.3f", e - s }'; }

results=$out/trials.csv native_csv=$out/native.csv family_csv=$out/families.csv
echo "program,variant,engine,strategy,coverage,trial,found,schedules,seconds" >"$results"
echo "program,runs,failures,first_failure,seconds" >"$native_csv"
echo "family,threads,strategy,trial,found,schedules,seconds" >"$family_csv"

# One trial of one configuration: appends a CSV row.
#   trial PROGRAM VARIANT(bug|fixed) ENGINE STRATEGY COVERAGE SEED BINARY INPUT EXPECT
trial() {
	local prog=$1 variant=$2 engine=$3 strategy=$4 cov=$5 seed=$6 binary=$7 input=$8 expect=$9
	local budget=$budget
	[ "$variant" = fixed ] && budget=$fixed_budget
	local spec found=0 schedules=$budget t0 secs d=$work/t
	spec=$(spec_of "$strategy" "$expect")
	rm -rf "$d"
	mkdir -p "$d"
	local covenv=both
	[ "$cov" = off ] && covenv=none
	t0=$(now)
	case $engine in
	run)
		timeout $((seconds + 30)) "$bin/schedfuzz" run -n "$budget" --seed "$seed" ${spec:+--strategy "$spec"} \
			--timeout 10 -o "$d" -- "$binary" >/dev/null 2>"$d/log" || true
		secs=$(since "$t0")
		local n
		n=$(first_failure "$d/log")
		[ -n "$n" ] && found=1 schedules=$n
		;;
	afl)
		local seeds=$work/genomes
		[ "$input" = data ] && seeds=$top/seeds/harnesses/$prog
		SCHEDFUZZ_COVERAGE=$covenv SCHEDFUZZ_STRATEGY=$spec timeout $((seconds + 60)) \
			afl-fuzz -s "$seed" -E "$budget" -V "$seconds" -i "$seeds" -o "$d/out" -- "$binary" \
			>"$d/log" 2>&1 || true
		secs=$(since "$t0")
		local first
		first=$(ls "$d/out/default/crashes" 2>/dev/null | grep '^id:' | head -1 || true)
		if [ -n "$first" ]; then
			found=1
			schedules=$(echo "$first" | sed -n 's/.*execs:\([0-9]*\).*/\1/p')
			secs=$(echo "$first" | sed -n 's/.*time:\([0-9]*\).*/\1/p' | awk '{ printf "%.3f", $1 / 1000 }')
		else
			local done_execs
			done_execs=$(sed -n 's/^execs_done *: *//p' "$d/out/default/fuzzer_stats" 2>/dev/null || true)
			[ -n "$done_execs" ] && schedules=$done_execs
		fi
		;;
	libfuzzer)
		if [ "$input" = data ]; then cp -r "$top/seeds/harnesses/$prog" "$d/corpus"; else cp -r "$work/genomes" "$d/corpus"; fi
		(cd "$d" && SCHEDFUZZ_COVERAGE=$covenv SCHEDFUZZ_STRATEGY=$spec timeout $((seconds + 30)) \
			"$binary" -seed="$seed" -runs="$budget" -max_total_time="$seconds" -timeout=20 \
			-print_final_stats=1 corpus >"$d/log" 2>&1) || true
		secs=$(since "$t0")
		local n
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -1)
		[ -n "$n" ] && schedules=$n
		ls "$d"/crash-* >/dev/null 2>&1 && found=1
		;;
	esac
	echo "$prog,$variant,$engine,$strategy,$cov,$seed,$found,$schedules,$secs" >>"$results"
}

# Builds of a zoo program for one engine: NAME.ENGINE and, but for native
# stress (which runs only the bug), NAME_fixed.ENGINE.
build() { # PROGRAM INPUT ENGINE
	local prog=$1 input=$2 engine=$3 src=$top/tests/bugs/$1.c variants=("" _fixed)
	[ "$engine" = native ] && variants=("")
	for v in "${variants[@]}"; do
		local flags=()
		[ -n "$v" ] && flags+=(-DFIXED)
		case $engine/$input in
		native/schedule) "$clang" -O1 "${flags[@]}" "$src" -o "$work/$prog$v.native" -lpthread ;;
		native/data) "$clang" -O1 -fsanitize=fuzzer "${flags[@]}" "$src" -o "$work/$prog$v.native" ;;
		run/schedule) "$bin/schedfuzz-cc" -O1 "${flags[@]}" "$src" -o "$work/$prog$v.run" ;;
		afl/schedule) SCHEDFUZZ_ENGINE=afl "$bin/schedfuzz-cc" -O1 "${flags[@]}" "$src" -o "$work/$prog$v.afl" ;;
		afl/data) SCHEDFUZZ_ENGINE=afl "$bin/schedfuzz-cc" -O1 -fsanitize=fuzzer "${flags[@]}" "$src" -o "$work/$prog$v.afl" ;;
		libfuzzer/schedule) "$bin/schedfuzz-cc" -O1 -fsanitize=fuzzer -Dmain=zoo_main "${flags[@]}" "$src" \
			"$top/scripts/bench/zoo_entry.c" -o "$work/$prog$v.libfuzzer" ;;
		libfuzzer/data) "$bin/schedfuzz-cc" -O1 -fsanitize=fuzzer "${flags[@]}" "$src" -o "$work/$prog$v.libfuzzer" ;;
		esac
	done
}

# Native stress, for the baseline probability per run. A harness runs
# natively under libFuzzer, its data fuzzed, its schedule the OS's.
native() { # PROGRAM INPUT
	local prog=$1 input=$2
	if [ "$input" = schedule ]; then
		read -r runs fails first secs <<<"$("$work/native_stress" "$native_runs" 2000 "$work/$prog.native")"
	else
		rm -rf "$work/nc"
		cp -r "$top/seeds/harnesses/$prog" "$work/nc"
		local t0 log=$work/native.log
		t0=$(now)
		(cd "$work" && "$work/$prog.native" -seed=1 -runs="$native_runs" -print_final_stats=1 nc >"$log" 2>&1) || true
		secs=$(since "$t0")
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		fails=0 first=0
		ls "$work"/crash-* >/dev/null 2>&1 && { fails=1 first=$runs; rm -f "$work"/crash-*; }
	fi
	echo "$prog,$runs,$fails,$first,$secs" >>"$native_csv"
}

grep -v '^#' "$zoo" | while IFS=$'\t' read -r prog expect _class _threads _depth _finders input; do
	[ -n "$program" ] && [ "$prog" != "$program" ] && continue
	for engine in $engines; do
		[ "$engine" = run ] && [ "$input" = data ] && continue # run gives a harness no data
		build "$prog" "$input" "$engine"
		if [ "$engine" = native ]; then
			native "$prog" "$input"
			continue
		fi
		covs=$coverages
		[ "$engine" = run ] && covs=-
		for cov in $covs; do
			for strategy in $strategies; do
				for seed in $(seq 1 "$trials"); do
					trial "$prog" bug "$engine" "$strategy" "$cov" "$seed" "$work/$prog.$engine" "$input" "$expect"
				done
			done
			# The fixed twin must never fail: a report there is a false alarm.
			[ "$fixed_budget" -gt 0 ] && trial "$prog" fixed "$engine" "${strategies%% *}" "$cov" 1 \
				"$work/${prog}_fixed.$engine" "$input" "$expect"
		done
	done
	echo "zoo.sh: $prog done" >&2
done

# The scalable families: schedules to the first bug as threads grow.
if [ "$family_budget" -gt 0 ] && [[ " $engines " == *" run "* ]]; then
	for family in reorder_n twostage_n; do
		[ -n "$program" ] && [ "$program" != "$family" ] && continue
		for n in 2 5 10 20 50 100; do
			"$bin/schedfuzz-cc" -O1 -DTHREADS=$n "$top/tests/bugs/$family.c" -o "$work/$family-$n"
			for strategy in portfolio random pct; do
				[[ " $strategies " == *" $strategy "* ]] || continue
				spec=$(spec_of "$strategy" assert)
				for seed in $(seq 1 "$trials"); do
					t0=$(now)
					timeout $((seconds + 30)) "$bin/schedfuzz" run -n "$family_budget" --seed "$seed" \
						${spec:+--strategy "$spec"} -o "$work/fam" -- "$work/$family-$n" \
						>/dev/null 2>"$work/fam.log" || true
					s=$(first_failure "$work/fam.log")
					f=1
					[ -z "$s" ] && f=0 s=$family_budget
					echo "$family,$n,$strategy,$seed,$f,$s,$(since "$t0")" >>"$family_csv"
				done
			done
		done
		echo "zoo.sh: family $family done" >&2
	done
fi

python3 "$top/scripts/bench/zoo_report.py" "$out" "$budget"
