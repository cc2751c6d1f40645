#!/usr/bin/env bash
# thread_pool.sh HARNESS RUNS [BUGGY FIXED]: a libFuzzer harness's threads
# run on kernel threads kept from one input to the next
# (runtime/rt_pool.c), and each still starts as a new thread does: HARNESS
# (pool_harness.cpp) asserts that in every thread, and prints how many
# kernel threads ran how many threads. With SCHEDFUZZ_THREAD_POOL=0 every
# thread has its own. The pool changes no schedule: a campaign of BUGGY
# saves the same crash with the pool and without, and one of FIXED ends
# with the same features and corpus.
. "$(dirname "$0")/lib.sh"
harness=$1
runs=$2
run() { # run POOL: sets kernel and threads
	mkdir -p "$WORK/corpus$1"
	SCHEDFUZZ_THREAD_POOL=$1 "$harness" -runs="$runs" -seed=1 "$WORK/corpus$1" >"$WORK/log$1" 2>&1 ||
		{ tail -30 "$WORK/log$1"; fail "the harness failed with SCHEDFUZZ_THREAD_POOL=$1"; }
	read -r kernel threads <<<"$(sed -n 's/^pool: \([0-9]*\) kernel threads ran \([0-9]*\) threads$/\1 \2/p' "$WORK/log$1")"
	[ "${threads:-0}" -eq $((5 * runs)) ] || fail "${threads:-no} threads ran, not 5 an input"
}
run 1
echo "pool on: $kernel kernel threads ran $threads threads"
# Each input's thread that calls pthread_exit takes its kernel thread with
# it, and the one with its own stack size has one of its own: the other
# three share a few.
[ "$kernel" -le $((2 * runs + 8)) ] || fail "$kernel kernel threads: the pool was not used"
run 0
echo "pool off: $kernel kernel threads ran $threads threads"
# (Kernel thread ids come back only after the kernel's pid_max more.)
[ "$kernel" -ge $((4 * runs)) ] || fail "SCHEDFUZZ_THREAD_POOL=0 still shared kernel threads"
[ $# -ge 4 ] || exit 0
same() { # same HARNESS RUNS: "the last line libFuzzer printed, the files it saved"
	for pool in 1 0; do
		mkdir -p "$WORK/same$pool"
		(cd "$WORK/same$pool" && SCHEDFUZZ_THREAD_POOL=$pool "$1" -seed=1 -runs="$2" . >../same.log 2>&1)
		echo "$(grep -E '^#[0-9]+' "$WORK/same.log" | tail -n 1 | sed 's/ exec\/s:.*//') $(ls "$WORK/same$pool" | sort | md5sum)"
		rm -rf "$WORK/same$pool"
	done | uniq | wc -l
}
[ "$(same "$3" 50000)" -eq 1 ] || fail "the buggy harness's campaign differs with the pool"
[ "$(same "$4" 3000)" -eq 1 ] || fail "the fixed harness's campaign differs with the pool"
echo "the same campaigns with the pool and without"
