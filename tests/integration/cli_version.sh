#!/usr/bin/env bash
# cli_version.sh PROG VERSION: the tools print schedfuzz's version, the
# wrappers keep clang's --help and --version for build systems, every
# command's --help is the usage, and a failure's report names the
# runtime's version.
. "$(dirname "$0")/lib.sh"
prog=$1 version=$2
[ "$("$SCHEDFUZZ" --version)" = "schedfuzz $version" ] || fail "schedfuzz --version: $("$SCHEDFUZZ" --version)"
for w in schedfuzz-cc schedfuzz-c++; do
	"$SF_BIN/$w" --schedfuzz-version | grep -qF "$w (schedfuzz $version)" ||
		fail "$w --schedfuzz-version does not name the version"
	"$SF_BIN/$w" --schedfuzz-help | grep -q -- "--schedfuzz-version" || fail "$w --schedfuzz-help"
	"$SF_BIN/$w" --version | grep -q "clang version" || fail "$w --version is not clang's"
done
for c in run replay min cov seed genome show; do
	"$SCHEDFUZZ" $c --help >"$WORK/help" 2>&1 || fail "schedfuzz $c --help: exit $?"
	grep -q "^usage: schedfuzz run" "$WORK/help" && ! grep -q "unknown option" "$WORK/help" ||
		fail "schedfuzz $c --help: $(head -n 1 "$WORK/help")"
done
"$SCHEDFUZZ" run -n 2000 --seed 1 -o "$WORK/out" -- "$prog" >"$WORK/out.log" 2>&1
[ $? -eq 1 ] || fail "no failure found"
grep -q "^==schedfuzz== schedule: .*; schedfuzz $version)" "$WORK/out.log" ||
	fail "the report does not name the runtime's version"
echo "versions: schedfuzz $version everywhere, clang's own flags kept"
