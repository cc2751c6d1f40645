# timing.sh - helpers for the benchmark scripts' side-by-side speed figures
# (sourced, not run).

# elapsed CMD...: the wall-clock seconds CMD takes, its output discarded.
elapsed() {
	local s e
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }'
}

# exec_rates PREFIX NATIVE CONTROLLED RUNS DIR: runs two builds of one
# libFuzzer harness for RUNS inputs each, one after the other, with fresh
# corpora under DIR, and prints PREFIXnative_execs_per_s,
# PREFIXcontrolled_execs_per_s and PREFIXexec_ratio (controlled over native).
exec_rates() {
	local prefix=$1 native=$2 controlled=$3 runs=$4 dir=$5 t_native t_sf
	mkdir -p "$dir/native" "$dir/controlled"
	t_native=$(elapsed "$native" -runs="$runs" -seed=1 "$dir/native")
	t_sf=$(elapsed "$controlled" -runs="$runs" -seed=1 "$dir/controlled")
	echo "${prefix}native_execs_per_s: $(awk -v t="$t_native" -v n="$runs" 'BEGIN { printf "%.0f", n / t }')"
	echo "${prefix}controlled_execs_per_s: $(awk -v t="$t_sf" -v n="$runs" 'BEGIN { printf "%.0f", n / t }')"
	echo "${prefix}exec_ratio: $(awk -v a="$t_native" -v b="$t_sf" 'BEGIN { printf "%.2f", a / b }')"
}
