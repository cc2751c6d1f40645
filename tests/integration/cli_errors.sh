#!/usr/bin/env bash
# cli_errors.sh PROG: bad command lines are refused at once, before any
# schedule runs, with exit status 2 and one line that says what is wrong.
. "$(dirname "$0")/lib.sh"
prog=$1

# refused CMD... MESSAGE: CMD exits 2 with exactly one line containing MESSAGE.
refused() {
	local want=${*: -1}
	local cmd=("${@:1:$#-1}")
	"${cmd[@]}" >"$WORK/out" 2>"$WORK/err" </dev/null
	local st=$?
	[ $st -eq 2 ] || fail "'${cmd[*]}' exited $st, not 2"
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "'${cmd[*]}' said more than one line: $(cat "$WORK/err")"
	grep -qF -- "$want" "$WORK/err" || fail "'${cmd[*]}' said '$(cat "$WORK/err")', not '$want'"
	[ ! -s "$WORK/out" ] || fail "'${cmd[*]}' wrote to stdout"
}

refused "$SCHEDFUZZ" run -n -5 -- "$prog" "-n takes a whole number, not '-5'"
refused "$SCHEDFUZZ" run -n 0 -- "$prog" "-n 0 is out of range"
refused "$SCHEDFUZZ" run -n 99999999999999999999 -- "$prog" "-n takes a whole number"
refused "$SCHEDFUZZ" run -n 12abc -- "$prog" "not '12abc'"
refused "$SCHEDFUZZ" run --timeout 0 -- "$prog" "--timeout 0 is out of range"
refused "$SCHEDFUZZ" run --timeout -1 -- "$prog" "--timeout takes a whole number, not '-1'"
refused "$SCHEDFUZZ" run --max-steps 0 -- "$prog" "--max-steps 0 is out of range"
refused "$SCHEDFUZZ" run --seed -3 -- "$prog" "--seed takes a whole number"
refused "$SCHEDFUZZ" replay --timeout 0 "$WORK/none" -- "$prog" "--timeout 0 is out of range"
refused "$SCHEDFUZZ" min --timeout 0 "$WORK/none" -- "$prog" "--timeout 0 is out of range"
refused "$SCHEDFUZZ" min --max-runs 0 "$WORK/none" -- "$prog" "--max-runs 0 is out of range"
refused "$SCHEDFUZZ" cov --timeout 0 "$WORK" -- "$prog" "--timeout 0 is out of range"
refused "$SCHEDFUZZ" run --strategy pcx -- "$prog" "dfs, icb, dpor, dpor+hapset"

# The program: missing, not executable, a directory.
touch "$WORK/plain"
refused "$SCHEDFUZZ" run -- "$WORK/plain" "is not executable"
refused "$SCHEDFUZZ" run -- "$WORK" "is a directory"
refused "$SCHEDFUZZ" run -- "$WORK/missing" "No such file or directory"
refused "$SCHEDFUZZ" run -- no-such-program-here "not found in PATH"

# An output directory nobody can write in is refused before the search,
# not after it found a failure it then cannot save.
mkdir "$WORK/ro"
chmod 555 "$WORK/ro"
if [ "$(id -u)" -eq 0 ]; then
	# root writes anywhere: check as an unprivileged user if there is one.
	if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
		chmod 755 "$WORK"
		chmod o+rx "$prog" 2>/dev/null
		refused setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$SCHEDFUZZ" run -o "$WORK/ro" -- "$prog" "cannot write in $WORK/ro"
	fi
else
	refused "$SCHEDFUZZ" run -o "$WORK/ro" -- "$prog" "cannot write in $WORK/ro"
fi
echo "every bad command line refused with exit 2 and one line"
