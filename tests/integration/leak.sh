#!/usr/bin/env bash
# leak.sh HARNESS: 100,000 libFuzzer iterations of a thread-creating
# harness keep RSS flat: its final figure is within 8 MB of that of a
# 10,000-iteration run with the same seed (the same first 10,000 inputs).
# Two runs, not libFuzzer's pulse lines: it prints those only at powers
# of two reached after its first two seconds, which a fast machine may
# pass without one.
. "$(dirname "$0")/lib.sh"
harness=$1
rss_after() { # rss_after RUNS: the final RSS in MB of a campaign of RUNS inputs
	mkdir -p "$WORK/corpus$1"
	"$harness" -runs="$1" -seed=1 "$WORK/corpus$1" >"$WORK/log$1" 2>&1
	local rc=$?
	[ "$rc" -eq 0 ] || { tail -40 "$WORK/log$1" >&2; fail "libFuzzer exit $rc in a campaign of $1 runs"; }
	grep -q "Done $1 runs" "$WORK/log$1" || fail "did not finish $1 runs"
	sed -nE 's/^#[0-9]+[[:space:]]+DONE .*rss: ([0-9]+)Mb.*/\1/p' "$WORK/log$1" | tail -1
}
first=$(rss_after 10000) || exit 1
last=$(rss_after 100000) || exit 1
[ -n "$first" ] && [ -n "$last" ] || fail "no rss figures"
echo "rss after 10,000 runs ${first} MB, after 100,000 ${last} MB"
[ $((last - first)) -le 8 ] || fail "RSS grew by $((last - first)) MB"
