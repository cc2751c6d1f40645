#!/usr/bin/env bash
# findings.sh CASE PROG...: what `schedfuzz run` says about failures that a
# user must act on (tests/findings/):
#   leak_race PROG       ASan mode, default options: the leak every schedule
#                        shows is reported once, as a leak with its allocation
#                        stack, then the race's assertion is found; with
#                        ASAN_OPTIONS=detect_leaks=0 the race comes first
#   detached PROG        the leak report comes out of each of 200 schedules,
#                        none a timeout
#   exit PROG            exit(3) is a nonzero exit 3 that does not depend on
#                        the interleaving; --exit-ok=3 passes it over; bad
#                        values exit 2; --keep-going counts it apart
#   ubsan PROG           a UBSan shift, named, schedule-independent
#   spurious PROG        found only through a spurious wakeup, which the
#                        report names; none in 5,000 schedules without them
#   nospurious PROG      a bug found with --no-spurious: the saved input says
#                        so and replays the same interleaving without the flag
#   uaf PROG             ASan's use-after-free report intact, with ours after
. "$(dirname "$0")/lib.sh"
case_=$1 prog=$2

run() { # run OUTNAME ARGS... -- the explorer's stdout, stderr and status
	local name=$1
	shift
	"$SCHEDFUZZ" run --seed 1 -o "$WORK/out-$name" "$@" -- "$prog" \
		>"$WORK/$name.out" 2>"$WORK/$name.err"
	echo $? >"$WORK/$name.rc"
}
rc() { cat "$WORK/$1.rc"; }
has() { grep -Eq -- "$2" "$WORK/$1.err" || { cat "$WORK/$1.err"; fail "$1: no '$2'"; }; }
hasnt() { ! grep -Eq -- "$2" "$WORK/$1.err" || { cat "$WORK/$1.err"; fail "$1: '$2' printed"; }; }
count() { grep -Ec -- "$2" "$WORK/$1.err"; }
independent='it does not depend on the interleaving'

case "$case_" in
leak_race)
	run default -n 2000
	[ "$(rc default)" -eq 1 ] || fail "default: exit $(rc default), expected 1"
	[ "$(count default 'failed: memory leak: ')" -eq 1 ] || fail "the leak was not reported once"
	has default "^Direct leak of .* allocated from:"
	has default "in worker .*leak_race.c:"
	has default "$independent"
	has default "ASAN_OPTIONS=detect_leaks=0"
	has default "failed: assertion failure"
	[ "$(grep -n 'failed: memory leak' "$WORK/default.err" | cut -d: -f1)" -lt \
	  "$(grep -n 'failed: assertion failure' "$WORK/default.err" | cut -d: -f1)" ] ||
		fail "the leak did not come first"
	input=$(tail -n 1 "$WORK/default.out")
	"$SCHEDFUZZ" replay "$input" -- "$prog" >/dev/null 2>"$WORK/replay"
	grep -q "^==schedfuzz== ERROR: assertion failure" "$WORK/replay" ||
		fail "the printed input is not the race's"
	ASAN_OPTIONS=detect_leaks=0 run noleaks -n 2000
	[ "$(rc noleaks)" -eq 1 ] || fail "detect_leaks=0: exit $(rc noleaks), expected 1"
	has noleaks "schedule [0-9]+ of 2000 failed: assertion failure"
	hasnt noleaks "memory leak"
	;;
detached)
	run all -n 200 --keep-going
	[ "$(rc all)" -eq 1 ] || fail "exit $(rc all), expected 1"
	grep -qx "independent_failures: 200/200" "$WORK/all.err" ||
		{ cat "$WORK/all.err"; fail "not a leak in each of 200 schedules"; }
	grep -qx "failures: 0/200" "$WORK/all.err" || fail "another failure"
	has all "failed: memory leak: 64 byte\(s\) leaked in 1 allocation"
	has all "in load_settings .*detached_leak.c:"
	has all "$independent"
	hasnt all "timeout|hang"
	;;
exit)
	run found -n 500
	[ "$(rc found)" -eq 1 ] || fail "exit $(rc found), expected 1"
	has found "schedule 1 of 500 failed: nonzero exit 3$"
	has found "$independent"
	has found "pass it over with --exit-ok"
	run passed -n 500 --exit-ok=3
	[ "$(rc passed)" -eq 0 ] || fail "--exit-ok=3: exit $(rc passed), expected 0"
	has passed "500 of 500 schedules ended with an exit status of --exit-ok, their only failure"
	has passed "no failure in 500 schedules"
	run kept -n 100 --keep-going
	grep -qx "failures: 0/100" "$WORK/kept.err" && grep -qx "independent_failures: 100/100" \
		"$WORK/kept.err" || { cat "$WORK/kept.err"; fail "--keep-going did not count it apart"; }
	for bad in x 0 256 -256 3, 3,,4; do
		run bad -n 10 --exit-ok="$bad"
		[ "$(rc bad)" -eq 2 ] || fail "--exit-ok=$bad: exit $(rc bad), expected 2"
		[ "$(wc -l <"$WORK/bad.err")" -eq 1 ] || fail "--exit-ok=$bad: not one line"
		has bad "exit-ok takes exit statuses"
	done
	;;
ubsan)
	run found -n 500
	[ "$(rc found)" -eq 1 ] || fail "exit $(rc found), expected 1"
	has found "failed: sanitizer report: UndefinedBehaviorSanitizer: invalid-shift-exponent$"
	has found "$independent"
	has found "UBSan suppression"
	;;
spurious)
	run on -n 5000
	[ "$(rc on)" -eq 1 ] || fail "exit $(rc on), expected 1"
	has on "failed: assertion failure"
	has on "cond wait returned without a signal: a spurious wakeup, which POSIX allows"
	has on "replay reproduced the failure"
	hasnt on "$independent"
	"$SCHEDFUZZ" replay "$(tail -n 1 "$WORK/on.out")" -- "$prog" >/dev/null 2>"$WORK/replay"
	grep -Eq '\| \? cond wait C1' "$WORK/replay" || fail "the lanes do not mark the spurious wakeup"
	run off -n 5000 --no-spurious
	[ "$(rc off)" -eq 0 ] || { cat "$WORK/off.err"; fail "--no-spurious: exit $(rc off)"; }
	has off "no failure in 5000 schedules"
	SCHEDFUZZ_SPURIOUS=0 run env -n 1000
	[ "$(rc env)" -eq 0 ] || fail "SCHEDFUZZ_SPURIOUS=0: exit $(rc env)"
	;;
nospurious)
	run off -n 5000 --no-spurious
	[ "$(rc off)" -eq 1 ] || fail "exit $(rc off), expected 1"
	has off "replay reproduced the failure"
	hasnt off "spurious wakeup"
	input=$(tail -n 1 "$WORK/off.out")
	"$SCHEDFUZZ" show "$input" | grep -q " nospurious" || fail "the input does not say nospurious"
	"$SCHEDFUZZ" replay "$input" -- "$prog" >/dev/null 2>"$WORK/replay"
	diff <(interleaving "$WORK/off.err") <(interleaving "$WORK/replay") ||
		fail "replay without the flag ran another interleaving"
	;;
uaf)
	run found -n 2000
	[ "$(rc found)" -eq 1 ] || fail "exit $(rc found), expected 1"
	has found "failed: sanitizer report: AddressSanitizer: heap-use-after-free$"
	has found "^==[0-9]+==ERROR: AddressSanitizer: heap-use-after-free"
	has found "^freed by thread T0 here:"
	has found "^SUMMARY: AddressSanitizer: heap-use-after-free"
	has found "^==schedfuzz== ERROR: sanitizer report: AddressSanitizer: heap-use-after-free"
	has found "^==schedfuzz== interleaving"
	has found "replay reproduced the failure"
	hasnt found "timeout|$independent"
	;;
*)
	fail "unknown case $case_"
	;;
esac
echo "ok: $case_"
