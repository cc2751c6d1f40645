#!/usr/bin/env bash
# expect_rate.sh PROG RUNS SPEC CLAIM...: run RUNS schedules of PROG under
# strategy SPEC with --keep-going, fixed seed, and check the failure rate
# against each CLAIM (one run serves them all: it is deterministic):
#   bound:D    rate >= 1/(n k^(D-1)), PCT's bound for depth D, with n and
#              k as the explorer measured them (k counts lock acquisitions
#              when SPEC has "locks")
#   rpro:D:R   rate >= 1/(n k (2R)^(D-2)), RPRO's bound for depth D when
#              the bug's radius is at most R
#   vs:SPEC2   rate >= the rate of SPEC2 over the same number of schedules
. "$(dirname "$0")/lib.sh"
prog=$1 runs=$2 spec=$3
shift 3
[ $# -ge 1 ] || fail "no claim to check"

# rate_of SPEC: prints "failures n k" for RUNS schedules.
rate_of() {
	"$SCHEDFUZZ" run -n "$runs" --seed 1 --keep-going --strategy "$1" -o "$WORK/out" -- "$prog" \
		>"$WORK/stdout" 2>"$WORK/stderr"
	local rc=$?
	[ "$rc" -le 1 ] || { cat "$WORK/stderr"; fail "exit $rc under $1"; }
	local f n k
	f=$(sed -n 's|^failures: \([0-9]*\)/.*|\1|p' "$WORK/stderr")
	n=$(sed -n 's|^threads: ||p' "$WORK/stderr")
	case "$1" in
	*locks*) k=$(sed -n 's|^lock_events: ||p' "$WORK/stderr") ;;
	*) k=$(sed -n 's|^events: ||p' "$WORK/stderr") ;;
	esac
	[ -n "$f" ] && [ -n "$n" ] && [ -n "$k" ] || fail "no summary under $1"
	echo "$f $n $k"
}

read -r f n k <<<"$(rate_of "$spec")"
echo "$spec: $f/$runs failures, n=$n k=$k"
for claim in "$@"; do
	case "$claim" in
	bound:*)
		d=${claim#bound:}
		awk -v f="$f" -v r="$runs" -v n="$n" -v k="$k" -v d="$d" 'BEGIN {
			b = 1 / n; for (i = 1; i < d; i++) b /= k;
			printf "measured %.6f, bound 1/(n k^(d-1)) = %.6f\n", f / r, b;
			exit !(f / r >= b) }' || fail "below PCT's bound"
		;;
	rpro:*)
		IFS=: read -r _ d r <<<"$claim"
		awk -v f="$f" -v runs="$runs" -v n="$n" -v k="$k" -v d="$d" -v r="$r" 'BEGIN {
			b = 1 / (n * k); for (i = 2; i < d; i++) b /= 2 * r;
			printf "measured %.6f, bound 1/(n k (2r)^(d-2)) = %.6f\n", f / runs, b;
			exit !(f / runs >= b) }' || fail "below RPRO's bound"
		;;
	vs:*)
		other=${claim#vs:}
		read -r g _ _ <<<"$(rate_of "$other")"
		echo "$other: $g/$runs failures"
		[ "$f" -ge "$g" ] || fail "$spec found fewer failures than $other"
		[ "$f" -gt 0 ] || fail "$spec found nothing"
		;;
	*) fail "unknown claim $claim" ;;
	esac
done
