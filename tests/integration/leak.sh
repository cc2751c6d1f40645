#!/usr/bin/env bash
# leak.sh HARNESS: 100,000 libFuzzer iterations of a thread-creating
# harness keep RSS flat (the last figure within 8 MB of the first pulse).
. "$(dirname "$0")/lib.sh"
harness=$1
"$harness" -runs=100000 -seed=1 -print_final_stats=1 "$WORK" >"$WORK/log" 2>&1
rc=$?
grep -E 'pulse|DONE|Done' "$WORK/log"
[ "$rc" -eq 0 ] || { tail -40 "$WORK/log"; fail "libFuzzer exit $rc"; }
grep -q 'Done 100000 runs' "$WORK/log" || fail "did not finish 100000 runs"
first=$(grep -m1 -E '^#[0-9]+.*pulse.*rss: [0-9]+Mb' "$WORK/log" | sed -E 's/.*rss: ([0-9]+)Mb.*/\1/')
last=$(grep -E 'DONE.*rss: [0-9]+Mb' "$WORK/log" | tail -1 | sed -E 's/.*rss: ([0-9]+)Mb.*/\1/')
[ -n "$first" ] && [ -n "$last" ] || fail "no rss figures"
echo "rss first pulse ${first} MB, at the end ${last} MB"
[ $((last - first)) -le 8 ] || fail "RSS grew by $((last - first)) MB"
