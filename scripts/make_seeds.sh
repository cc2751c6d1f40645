#!/usr/bin/env bash
# make_seeds.sh - writes seeds/: starting genomes for every strategy and
# depth, drawn from fixed seeds with `schedfuzz genome`, so the corpus is
# reproducible. Run it after changing the genome format; commit the result.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sf="$top/build/bin/schedfuzz"
[ -x "$sf" ] || "$top/scripts/build.sh" >/dev/null

# dir spec... : each spec gets seeds 0..3.
make() {
	local dir=$top/seeds/$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	for spec in "$@"; do
		local name=${spec//[:=,]/_}
		for s in 0 1 2 3; do
			"$sf" genome --strategy "$spec" --seed "$s" -o "$dir/$name-$s" 2>/dev/null
		done
	done
}

make random random
# PCT at depths 1 to 5, for short, medium and long executions.
make pct $(for d in 1 2 3 4 5; do for k in 100 1000 10000; do echo "pct:d=$d,k=$k"; done; done)
# RPRO: small and large radii, counting every event or only lock acquisitions.
make rpro $(for d in 3 4 5; do echo "rpro:d=$d,r=5,k=100,locks rpro:d=$d,r=20,k=1000,locks rpro:d=$d,r=20,k=1000"; done)
# PCTVB names no variable yet: "the first (second) variable to be shared".
make pctvb pctvb:d=2,v=1 pctvb:d=3,v=1 pctvb:d=2,v=2 pctvb:d=3,v=2 pctvb:d=3,v=2,tb
# FOCUS knows no routine yet: main and the first two start routines.
make focus focus:d=2 focus:d=3 focus:d=4
# Harnesses: a few genomes, each followed by harmless data of the harness's
# own format (printf escapes). Finding the data that exposes a bug is the
# fuzzer's work, as is finding the schedule.
harness() {
	local dir=$top/seeds/harnesses/$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	local i=0
	for data in "$@"; do
		for spec in random pct:d=2,k=100 pct:d=3,k=100; do
			"$sf" genome --strategy "$spec" --seed "$i" 2>/dev/null >"$dir/seed-$i"
			printf "$data" >>"$dir/seed-$i"
			i=$((i + 1))
		done
	done
}
harness account_harness '\001\002\003\004' '\005\006'
harness refcount_harness '\000\000' '\001\002\000\001'
harness histogram_harness '\001\002\003\004' '\100\150'
harness queue_harness '\003\006\001' '\011\004'
harness session_harness '\001\002\003\004' '\005\006'
echo "seeds written to $top/seeds"
