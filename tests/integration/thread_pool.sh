#!/usr/bin/env bash
# thread_pool.sh HARNESS RUNS [FIXED]: a libFuzzer harness's threads
# run on kernel threads kept from one input to the next
# (runtime/rt_pool.c), and each still starts as a new thread does: HARNESS
# (pool_harness.cpp) asserts that in every thread, and prints how many
# kernel threads ran how many threads. With SCHEDFUZZ_THREAD_POOL=0 every
# thread has its own. The pool changes no schedule: the inputs of a
# campaign of FIXED execute the same interleavings with it and without.
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
[ $# -ge 3 ] || exit 0
# The pool changes no schedule: each input of a short campaign's corpus,
# run twice in one process (the second time on the pool's kernel threads),
# executes the same interleaving as in a process of its own without the
# pool. (The campaigns themselves may part: interleaving coverage hashes
# addresses, and the pool's allocations are not a new thread's.)
fixed=$3
mkdir -p "$WORK/corpus"
"$fixed" -seed=1 -runs=500 "$WORK/corpus" >"$WORK/campaign.log" 2>&1 || fail "the campaign failed"
n=0
for input in $(ls "$WORK/corpus" | head -n 20); do
	SCHEDFUZZ_TRACE="$WORK/pooled" "$fixed" "$WORK/corpus/$input" "$WORK/corpus/$input" >/dev/null 2>&1
	SCHEDFUZZ_THREAD_POOL=0 SCHEDFUZZ_TRACE="$WORK/own" "$fixed" "$WORK/corpus/$input" >/dev/null 2>&1
	[ -s "$WORK/own" ] || fail "no trace of $input"
	cmp -s "$WORK/pooled" "$WORK/own" || { diff "$WORK/pooled" "$WORK/own" | head; fail "$input: another interleaving on the pool"; }
	n=$((n + 1))
done
[ $n -ge 5 ] || fail "the campaign kept $n inputs"
echo "$n inputs: the same interleavings on the pool's kernel threads as on their own"
