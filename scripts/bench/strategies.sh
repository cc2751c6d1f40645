#!/usr/bin/env bash
# strategies.sh RUNS - the strategy table: for each zoo bug and each
# strategy, the measured probability that one schedule exposes the bug,
# over RUNS schedules (--keep-going, seed 1), beside PCT's lower bound
# 1/(n k^(d-1)) at the bug's depth d, with n and k as measured.
# Deadlocks are hunted by RPRO in its lock mode (k counts acquisitions).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
runs=$1
sf=$top/build/bin/schedfuzz
progs=$top/build/tests/progs
out=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-strategies.XXXXXX")
trap 'rm -rf "$out"' EXIT

# probability SPEC PROG: "p n k" over RUNS schedules.
probability() {
	"$sf" run -n "$runs" --seed 1 --keep-going --strategy "$1" -o "$out" -- "$2" >/dev/null 2>"$out/summary" || true
	local f n k
	f=$(sed -n 's|^failures: \([0-9]*\)/.*|\1|p' "$out/summary")
	n=$(sed -n 's|^threads: ||p' "$out/summary")
	case "$1" in
	*locks*) k=$(sed -n 's|^lock_events: ||p' "$out/summary") ;;
	*) k=$(sed -n 's|^events: ||p' "$out/summary") ;;
	esac
	awk -v f="${f:-0}" -v r="$runs" -v n="${n:-1}" -v k="${k:-1}" 'BEGIN { printf "%.4f %d %d", f / r, n, k }'
}

echo "strategy table: probability per schedule over $runs schedules"
printf '| %-17s | %-5s | %-7s | %-7s | %-7s | %-7s | %-9s | %-10s | %-10s | %-10s | %-9s |\n' \
	bug depth random "pct d=1" "pct d=2" "pct d=3" "rpro r=2" "rpro r=20" "pctvb v=1" "pctvb v=2" "pct bound"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
grep -v '^#' "$top/tests/bugs/zoo.tsv" | while IFS=$'\t' read -r bug expect _class _threads depth _finders input; do
	[ "$input" = data ] && continue # schedfuzz run gives a harness no data
	prog=$progs/$bug
	[ -x "$prog" ] || continue
	locks=""
	case "$expect" in *deadlock*) locks=",locks" ;; esac
	rd=$((depth > 3 ? depth : 3))
	vd=$((depth > 2 ? depth : 2))
	row=("$bug" "$depth")
	bound="-"
	for spec in random pct:d=1 pct:d=2 pct:d=3 "rpro:d=$rd,r=2$locks" "rpro:d=$rd,r=20$locks" \
		"pctvb:d=$vd,v=1" "pctvb:d=$vd,v=2"; do
		read -r p n k <<<"$(probability "$spec" "$prog")"
		row+=("$p")
		if [ "$spec" = "pct:d=$depth" ] || { [ "$depth" -gt 3 ] && [ "$spec" = pct:d=3 ]; }; then
			bound=$(awk -v n="$n" -v k="$k" -v d="$depth" 'BEGIN { b = 1 / n;
				for (i = 1; i < d; i++) b /= k; printf "%.2g", b }')
		fi
	done
	printf '| %-17s | %-5s | %-7s | %-7s | %-7s | %-7s | %-9s | %-10s | %-10s | %-10s | %-9s |\n' \
		"${row[@]}" "$bound"
done
echo "strategy_table_schedules: $runs"
