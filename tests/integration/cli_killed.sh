#!/usr/bin/env bash
# cli_killed.sh FIXED_PROG - `schedfuzz run` killed (SIGTERM, as timeout(1)
# and CI runners send it) takes the program's explorer and the schedule
# it runs along: nothing of the run goes on forking schedules.
. "$(dirname "$0")/lib.sh"
prog=$WORK/prog_$$
cp "$1" "$prog"
running() { pgrep -f "^$prog" | wc -l; }
"$SCHEDFUZZ" run -n 1000000 --keep-going -o "$WORK/out" -- "$prog" >/dev/null 2>&1 &
run=$!
for _ in $(seq 100); do
	[ "$(running)" -ge 1 ] && break
	sleep 0.1
done
[ "$(running)" -ge 1 ] || fail "the program never started"
sleep 0.5
kill -TERM "$run"
wait "$run" 2>/dev/null
for _ in $(seq 50); do
	[ "$(running)" -eq 0 ] && break
	sleep 0.1
done
left=$(running)
pkill -KILL -f "^$prog" 2>/dev/null
[ "$left" -eq 0 ] || fail "$left processes of the program still ran 5 s after run was killed"
echo "killed: run, its explorer and its schedule all ended"
