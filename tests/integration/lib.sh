# lib.sh - shared helpers of the integration checks (sourced, not run).
# SF_BIN is the directory with schedfuzz and the wrappers.
set -u
SCHEDFUZZ="${SF_BIN:?set SF_BIN}/schedfuzz"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedfuzz-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# The interleaving section of a report (up to, not including, the schedule
# line, which names the genome): the same in every process.
interleaving() {
	sed -n '/^==schedfuzz== interleaving: /,/^==schedfuzz== schedule/{/^==schedfuzz== schedule/!p}' "$1"
}
