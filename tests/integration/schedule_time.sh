#!/usr/bin/env bash
# schedule_time.sh PROG RUNS MAX_SECONDS: RUNS schedules of PROG (the
# default portfolio, --keep-going) pass and take at most MAX_SECONDS in
# all. For a program whose threads spin where the runtime cannot see them
# (inline assembly), a schedule that waits for a timeout instead of being
# preempted shows here: each schedule is allowed 2 s (--timeout), which
# should be hundreds of times what it needs, and counts as a failure past it.
# Prints the slowest schedule, from the times its plan line appeared.
. "$(dirname "$0")/lib.sh"
prog=$1 runs=$2 max=$3
start=$EPOCHREALTIME
{
	"$SCHEDFUZZ" run --keep-going --print-schedule --timeout 2 -n "$runs" --seed 1 \
		-o "$WORK/out" -- "$prog" 2>&1 >"$WORK/stdout"
	echo $? >"$WORK/rc"
} | while IFS= read -r line; do
	printf '%s %s\n' "$EPOCHREALTIME" "$line"
done >"$WORK/stderr"
end=$EPOCHREALTIME
rc=$(cat "$WORK/rc")
sed 's/^[0-9.]* //' "$WORK/stderr"
cat "$WORK/stdout"
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
# Each schedule ran from its plan line to the next plan line (or the end).
slowest=$(awk -v end="$end" '
	/^[0-9.]+ schedfuzz: schedule [0-9]+: / { if (prev) { d = $1 - prev; if (d > max) { max = d; at = n } }
		prev = $1; n = $4; sub(":", "", n) }
	END { if (prev && end - prev > max) { max = end - prev; at = n }
		printf "%.3f s (schedule %s)", max, at }' "$WORK/stderr")
echo "$runs schedules in $elapsed s, the slowest $slowest"
failures=$(sed -n 's|^[0-9.]* failures: \([0-9]*\)/.*|\1|p' "$WORK/stderr")
[ -n "$failures" ] || fail "no summary (exit $rc)"
[ "$failures" -eq 0 ] || fail "$failures of $runs schedules failed (a timeout: a spin was not preempted)"
[ "$rc" -eq 0 ] || fail "exit $rc"
awk -v e="$elapsed" -v m="$max" 'BEGIN { exit !(e <= m) }' ||
	fail "$runs schedules took $elapsed s, more than $max s"
