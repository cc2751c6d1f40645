#!/usr/bin/env bash
# jobs.sh [--jobs "1 2"] [--seeds S] [--runs R] [--program NAME[,NAME...]]
# - `schedfuzz run --jobs N` against one job: schedules per second and
# time to the bug, on zoo programs whose bug takes more than a handful of
# schedules (lockstep, philosophers, reorder_n at 20 threads, twostage_n
# at 50 threads).
#
# For each program and each job count:
#   - schedules/s: R schedules (default 3,000) of its fixed twin, in all,
#     --keep-going, over the wall-clock time of the whole run;
#   - time to the bug: seeds 1..S (default 10), the seconds from the start
#     to the line that names the first failure (before it is saved and
#     replayed), and their median.
# Prints one line per program and job count, then for each job count N
# after the first: speedup_N (the geometric mean over the programs of
# schedules/s with N jobs over one job's) and ttb_ratio_N (the geometric
# mean of the median times to the bug, N jobs over one). The machine's
# load average is printed before and after: other work on the machine
# takes CPUs from the jobs. (The issue's target on 2 cores: speedup_2 of
# at least 1.7 and ttb_ratio_2 at most 0.65.)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
jobs_list="1 2" seeds=10 runs=3000 only=""
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs_list=$2 ;;
	--seeds) seeds=$2 ;;
	--runs) runs=$2 ;;
	--program) only=$2 ;;
	*) echo "jobs.sh: unknown option '$1' (see the comment at the top)" >&2; exit 2 ;;
	esac
	shift 2 || { echo "jobs.sh: $1 needs a value" >&2; exit 2; }
done
bin=$top/build/bin
[ -x "$bin/schedfuzz-cc" ] || "$top/scripts/build.sh" >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-jobs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# name source flags
programs="lockstep lockstep.c -
philosophers philosophers.c -
reorder_20 reorder_n.c -DTHREADS=20
twostage_50 twostage_n.c -DTHREADS=50"

now() { echo "$EPOCHREALTIME"; }

# Schedules per second of R schedules of the fixed twin.
rate() { # PROG JOBS
	local t0 t1
	t0=$(now)
	"$bin/schedfuzz" run -n "$runs" --seed 1 --keep-going --jobs "$2" -o "$work/o" -- "$1" \
		>/dev/null 2>"$work/rate.log" || { cat "$work/rate.log" >&2; exit 1; }
	t1=$(now)
	awk -v r="$runs" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", r / (b - a) }'
}

# Seconds to the first "failed:" line (the budget's end counts as miss).
to_bug() { # PROG JOBS SEED
	local t0 at=miss line
	rm -rf "$work/b"
	t0=$(now)
	while IFS= read -r line; do
		if [ "$at" = miss ] && [[ $line == "schedfuzz: schedule "*" failed: "* ]]; then
			at=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
		fi
	done < <(timeout 300 "$bin/schedfuzz" run -n 1000000 --seed "$3" --jobs "$2" -o "$work/b" \
		-- "$1" 2>&1 >/dev/null)
	echo "$at"
}

median() { tr ' ' '\n' | grep -v '^$' | sed 's/miss/300/' | sort -g | awk '{ v[NR] = $1 } END {
	if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "cpus: $(nproc)  load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %4s %12s %14s %s\n' program jobs "schedules/s" "ttb median s" "times to the bug (s)"
declare -A sps ttb
names=""
while read -r name source flags; do
	[ -z "$only" ] || [[ ",$only," == *",$name,"* ]] || continue
	[ "$flags" = - ] && flags=""
	"$bin/schedfuzz-cc" -O1 $flags "$top/tests/bugs/$source" -o "$work/$name"
	"$bin/schedfuzz-cc" -O1 $flags -DFIXED "$top/tests/bugs/$source" -o "$work/${name}_fixed"
	names="$names $name"
	for j in $jobs_list; do
		sps[$name,$j]=$(rate "$work/${name}_fixed" "$j")
		times=""
		for s in $(seq 1 "$seeds"); do
			times="$times $(to_bug "$work/$name" "$j" "$s")"
		done
		ttb[$name,$j]=$(echo $times | median)
		printf '%-14s %4s %12s %14s %s\n' "$name" "$j" "${sps[$name,$j]}" "${ttb[$name,$j]}" "$times"
	done
done <<<"$programs"
first=${jobs_list%% *}
for j in $jobs_list; do
	[ "$j" = "$first" ] && continue
	s=0 t=0 n=0
	for name in $names; do
		s=$(awk -v a="$s" -v x="${sps[$name,$j]}" -v y="${sps[$name,$first]}" 'BEGIN { print a + log(x / y) }')
		t=$(awk -v a="$t" -v x="${ttb[$name,$j]}" -v y="${ttb[$name,$first]}" 'BEGIN { print a + log(x / y) }')
		n=$((n + 1))
	done
	awk -v s="$s" -v t="$t" -v n="$n" -v j="$j" 'BEGIN {
		printf "speedup_%s: %.2f\nttb_ratio_%s: %.2f\n", j, exp(s / n), j, exp(t / n) }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
