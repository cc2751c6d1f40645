#!/usr/bin/env bash
# races.sh [RUNS]: what race detection costs. For each zoo program's fixed
# twin (tests/bugs/*.c, main() programs), the race zoo's (tests/races/) and
# the real-sized workloads (scripts/bench/workloads/, at RUNS/10 schedules),
# RUNS schedules (default 500) of `schedfuzz run --seed 1` with
# --races=off and with --races=report, side by side, each timed (wall and
# CPU of the explorer and its children) with its peak RSS (the largest
# child's); and the same program built with clang -fsanitize=thread, run
# RUNS times natively, against the plain clang build run RUNS times: TSan's
# own cost on the same workload. Prints one line a program and the
# geometric means: race_time_ratio, race_rss_ratio, tsan_time_ratio,
# tsan_rss_ratio. Run on an otherwise idle machine.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/bin
runs=${1:-500}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cpu_seconds max_rss_kb of a command (children included)
measure() {
	/usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" >/dev/null 2>&1
	awk '{ printf "%.3f %d\n", $2 + $3, $4 }' "$work/t"
}

native_loop() {
	for _ in $(seq "$2"); do "$1" >/dev/null 2>&1; done
}
export -f native_loop

printf '%-28s %9s %9s %7s %7s %9s %9s %7s %7s\n' program off_s races_s off_MB races_MB \
	clang_s tsan_s clang_MB tsan_MB
logs=()
for src in "$root"/tests/bugs/*.c "$root"/tests/races/*.c "$root"/scripts/bench/workloads/*.c; do
	name=$(basename "$src" .c)
	n=$runs
	case $src in */workloads/*) n=$(( (runs + 9) / 10 )) ;; esac
	grep -q "int main" "$src" || continue
	grep -q "LLVMFuzzerTestOneInput\|omp.h" "$src" && continue
	"$bin/schedfuzz-cc" -O1 -g -DFIXED "$src" -o "$work/sf" -lpthread 2>/dev/null || continue
	clang -O1 -g -DFIXED "$src" -o "$work/plain" -lpthread 2>/dev/null || continue
	clang -O1 -g -DFIXED -fsanitize=thread "$src" -o "$work/tsan" -lpthread 2>/dev/null || continue
	read -r off_s off_kb < <(measure "$bin/schedfuzz" run -n "$n" --seed 1 --races=off \
		-o "$work/o" -- "$work/sf")
	read -r on_s on_kb < <(measure "$bin/schedfuzz" run -n "$n" --seed 1 --races=report \
		-o "$work/o" -- "$work/sf")
	read -r pl_s pl_kb < <(measure bash -c "native_loop $work/plain $n")
	read -r ts_s ts_kb < <(measure bash -c "native_loop $work/tsan $n")
	printf '%-28s %9s %9s %7.1f %7.1f %9s %9s %7.1f %7.1f\n' "$name" "$off_s" "$on_s" \
		"$(echo "$off_kb / 1024" | bc -l)" "$(echo "$on_kb / 1024" | bc -l)" "$pl_s" "$ts_s" \
		"$(echo "$pl_kb / 1024" | bc -l)" "$(echo "$ts_kb / 1024" | bc -l)"
	logs+=("$off_s $on_s $off_kb $on_kb $pl_s $ts_s $pl_kb $ts_kb")
done
printf '%s\n' "${logs[@]}" | awk '
	function lg(a, b) { return log((b > 0.001 ? b : 0.001) / (a > 0.001 ? a : 0.001)) }
	{ n++; t += lg($1, $2); r += lg($3, $4); nt += lg($5, $6); nr += lg($7, $8) }
	END {
		printf "race_time_ratio: %.2f\nrace_rss_ratio: %.2f\n", exp(t / n), exp(r / n)
		printf "tsan_time_ratio: %.2f\ntsan_rss_ratio: %.2f\n", exp(nt / n), exp(nr / n)
	}'
