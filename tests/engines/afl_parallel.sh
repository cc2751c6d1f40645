#!/usr/bin/env bash
# afl_parallel.sh PROG SEEDS: two afl-fuzz instances (-M and -S) over a
# schedfuzz target on this machine's cores: both start and fuzz.
#  - Bound: each afl-fuzz binds itself to a free core and its target keeps
#    that core (it does not pick another, which the next instance's
#    free-core scan would count as taken).
#  - AFL_NO_AFFINITY=1 on the first instance: its target does not pin
#    itself either, so it takes no core from the scan of the second.
# The scan reads every process's affinity; the test runs in a PID
# namespace of its own (unshare) when it can, so that other programs on the
# machine do not take the cores it counts on.
if [ -z "${SF_IN_NAMESPACE:-}" ] && unshare -p -f --mount-proc true 2>/dev/null; then
	SF_IN_NAMESPACE=1 exec unshare -p -f --mount-proc "$BASH" "$0" "$@"
fi
. "$(dirname "$0")/../integration/lib.sh"
prog=$1 seeds=$2
command -v afl-fuzz >/dev/null || fail "afl-fuzz not found (scripts/setup.sh installs afl++)"
[ "$(nproc)" -ge 2 ] || fail "needs two CPUs"
[ -n "${SF_IN_NAMESPACE:-}" ] && echo "in a PID namespace of its own" || echo "note: no PID namespace (unshare failed): other programs' affinity counts"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
unset AFL_NO_AFFINITY
name=$(basename "$prog")

start() { # start OUT -M|-S NAME LOG [ENV...]: afl-fuzz in the background
	local out=$1 role=$2 id=$3 log=$4
	shift 4
	env "$@" timeout 120 afl-fuzz -s 1 -i "$seeds" -o "$out" "$role" "$id" -V 8 -- "$prog" >"$log" 2>&1 &
}
# The affinity lists of the targets' processes (forkservers and children),
# sampled ten times over two seconds.
target_cpus() {
	local pid
	for _ in $(seq 1 10); do
		for pid in $(pgrep -x "${name:0:15}"); do
			[ "$(readlink "/proc/$pid/cwd")" = "$WORK" ] || continue
			awk '/^Cpus_allowed_list/ {print $2}' "/proc/$pid/status"
		done
		sleep 0.2
	done
}
wait_running() { # wait_running OUT/ROLE: until afl-fuzz has its stats file
	for _ in $(seq 1 300); do
		[ -s "$1/fuzzer_stats" ] && return 0
		sleep 0.1
	done
	return 1
}
fuzzed() { # fuzzed OUT/ROLE LOG
	grep -qa 'PROGRAM ABORT' "$2" && { tail -5 "$2"; fail "$(basename "$1"): afl-fuzz aborted"; }
	local n
	n=$(sed -n 's/^execs_done *: //p' "$1/fuzzer_stats")
	[ "${n:-0}" -gt 100 ] || { tail -5 "$2"; fail "$(basename "$1"): only ${n:-0} executions"; }
	echo "$(basename "$1"): $n executions"
}

cd "$WORK"
# Bound: both instances bind a core; each target keeps its instance's.
start "$WORK/bound" -M main "$WORK/main.log"
wait_running "$WORK/bound/main" || { tail -5 "$WORK/main.log"; fail "-M did not start"; }
start "$WORK/bound" -S second "$WORK/second.log"
wait_running "$WORK/bound/second" || { tail -5 "$WORK/second.log"; fail "-S did not start"; }
m=$(sed -n 's/.*binding to #\([0-9]*\).*/\1/p' "$WORK/main.log")
s=$(sed -n 's/.*binding to #\([0-9]*\).*/\1/p' "$WORK/second.log")
[ -n "$m" ] && [ -n "$s" ] && [ "$m" != "$s" ] || fail "the instances did not bind two cores ($m, $s)"
cpus=$(target_cpus | sort -u | tr '\n' ' ')
echo "-M bound to CPU $m, -S to CPU $s; their targets run on: $cpus"
[ "$cpus" = "$(printf '%s\n' "$m" "$s" | sort -u | tr '\n' ' ')" ] || fail "a target left its instance's core: $cpus"
wait
fuzzed "$WORK/bound/main" "$WORK/main.log"
fuzzed "$WORK/bound/second" "$WORK/second.log"

# AFL_NO_AFFINITY=1 on -M: its target pins itself to no core.
start "$WORK/free" -M main "$WORK/free-main.log" AFL_NO_AFFINITY=1
wait_running "$WORK/free/main" || { tail -5 "$WORK/free-main.log"; fail "-M did not start"; }
cpus=$(target_cpus | sort -u | tr '\n' ' ')
echo "-M with AFL_NO_AFFINITY=1: its target runs on: $cpus"
for c in $cpus; do
	case $c in *-* | *,*) ;; *) fail "a target pinned itself to CPU $c under AFL_NO_AFFINITY" ;; esac
done
start "$WORK/free" -S second "$WORK/free-second.log"
wait_running "$WORK/free/second" || { tail -5 "$WORK/free-second.log"; fail "-S did not start"; }
wait
fuzzed "$WORK/free/main" "$WORK/free-main.log"
fuzzed "$WORK/free/second" "$WORK/free-second.log"
