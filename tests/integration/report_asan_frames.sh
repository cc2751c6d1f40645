#!/usr/bin/env bash
# report_asan_frames.sh PROG: ASan's report of a failure found by `run` and
# of its replay shows the program's stacks as they are without schedfuzz:
# a thread's stack ends in its start routine and glibc's start_thread, main's
# in main and __wrap_main, and a thread's creation stack names
# pthread_create once before the program's caller; none of the explorer's
# or the scheduler's own frames in between.
. "$(dirname "$0")/lib.sh"
prog=$1
ours='in (trampoline|rt_thread_create|run_one|rt_run_child|rt_replay_check|rt_keep_failure|explore|rt_findings_probe|rt_search_explore) '
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/run.log" 2>&1
[ $? -eq 1 ] || fail "no failure found"
grep -q "AddressSanitizer: heap-use-after-free" "$WORK/run.log" || fail "no ASan report"
crash=$(ls "$WORK/out"/crash-* | head -1)
"$SCHEDFUZZ" replay "$crash" -- "$prog" >"$WORK/replay.log" 2>&1
for log in run replay; do
	grep -q "AddressSanitizer: heap-use-after-free" "$WORK/$log.log" || fail "$log: no ASan report"
	! grep -E "$ours" "$WORK/$log.log" || fail "$log: our own frames in ASan's stacks"
	grep -Eq "#1 .* in start_thread " "$WORK/$log.log" ||
		fail "$log: the thread's stack does not go from its routine to start_thread"
	# In each creation stack: ASan's pthread_create, ours, then the program.
	awk '/created by/ { in_create = 1; n = 0; next } !/^ *#/ { in_create = 0 }
		in_create { n++; if (n == 3 && $4 != "main") bad = 1 } END { exit bad }' \
		"$WORK/$log.log" || fail "$log: a creation stack has frames before main's"
done
echo "ASan's stacks show the program's frames only"
