#!/usr/bin/env bash
# compare_learning.sh MEMCMP STRCMP FIXED ASAN: libFuzzer learns the words a
# harness compares with memcmp and strcmp in the default mode (the runtime's
# interceptors call libFuzzer's hooks) and in the ASan mode (ASan's do, and
# ours are not linked beside them): each build finds its data-only bug from
# an empty corpus, on a fixed seed, and the crash replays; the fixed twin
# never crashes.
. "$(dirname "$0")/../integration/lib.sh"
memcmp_h=$1 strcmp_h=$2 fixed=$3 asan=$4

nm "$memcmp_h" | grep -q ' [TW] memcmp$' || fail "the default-mode build has no memcmp interceptor"
addr() { nm "$1" | sed -n "s/^\([0-9a-f]*\) [TW] $2\$/\1/p"; }
[ -n "$(addr "$asan" __interceptor_memcmp)" ] && [ "$(addr "$asan" memcmp)" = "$(addr "$asan" __interceptor_memcmp)" ] ||
	fail "the ASan-mode build's memcmp is not ASan's interceptor"

find_bug() { # find_bug NAME PROG WORD
	mkdir "$WORK/$1"
	"$2" -seed=1 -max_total_time=60 -runs=3000000 -artifact_prefix="$WORK/$1-" "$WORK/$1" >"$WORK/$1.log" 2>&1
	local rc=$?
	[ $rc -eq 77 ] || { tail -5 "$WORK/$1.log"; fail "$1: libFuzzer exited $rc, not 77 (the bug)"; }
	local crash
	crash=$(ls "$WORK/$1-"crash-* | head -1)
	grep -q "$3" "$crash" || fail "$1: the crash input does not hold $3"
	"$SCHEDFUZZ" replay "$crash" -- "$2" >"$WORK/$1.replay" 2>&1
	[ $? -eq 1 ] || fail "$1: the crash did not replay"
	echo "$1: found and replayed; last status line at $(grep -o '^#[0-9]*' "$WORK/$1.log" | tail -1) executions"
}
find_bug memcmp "$memcmp_h" 'SfZ!'
find_bug strcmp "$strcmp_h" 'unlock'
find_bug asan "$asan" 'SfZ!'

mkdir "$WORK/fixed"
"$fixed" -seed=1 -runs=30000 "$WORK/fixed" >"$WORK/fixed.log" 2>&1 || { tail -5 "$WORK/fixed.log"; fail "the fixed twin failed"; }
echo "fixed twin: 30000 runs, no crash"
