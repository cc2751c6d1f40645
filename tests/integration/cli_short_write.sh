#!/usr/bin/env bash
# cli_short_write.sh PROG: a crash file that cannot be written whole is not
# left behind. -o is a file system that is full (a 64 KiB tmpfs, filled):
# the run saves the input to $TMPDIR, says so, and leaves no crash file,
# empty or cut, nor a temporary one, in -o; the saved input replays the
# failure. The tmpfs needs root, or a user namespace (unshare -rm) where
# the test runs itself again; without either it fails, never skips.
. "$(dirname "$0")/lib.sh"
prog=$1
if [ "$(id -u)" -ne 0 ]; then
	command -v unshare >/dev/null && unshare -rm true 2>/dev/null ||
		fail "a full file system needs root or user namespaces (unshare -rm), neither is here"
	exec unshare -rm "$BASH" "$0" "$@"
fi
mnt=$WORK/full
mkdir -p "$mnt" "$WORK/tmp"
mount -t tmpfs -o size=64k tmpfs "$mnt" || fail "cannot mount a tmpfs on $mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$WORK"' EXIT
dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
[ "$(df --output=avail "$mnt" | tail -1)" -eq 0 ] || fail "the tmpfs is not full"
TMPDIR=$WORK/tmp "$SCHEDFUZZ" run --seed 1 -o "$mnt" -- "$prog" >"$WORK/out" 2>"$WORK/err"
st=$?
[ $st -eq 1 ] || { cat "$WORK/err"; fail "the run exited $st, not 1"; }
grep -q "^schedfuzz: cannot write $mnt/crash-[0-9a-f]*: No space left on device" "$WORK/err" ||
	{ cat "$WORK/err"; fail "no line saying the crash file could not be written"; }
saved=$(sed -n "s|^schedfuzz: saved it to \(.*\) instead$|\1|p" "$WORK/err")
[ -n "$saved" ] && [ -s "$saved" ] || fail "the input was not saved elsewhere"
left=$(ls -A "$mnt" | grep -vx fill)
[ -z "$left" ] || fail "left in the full directory: $left"
"$SCHEDFUZZ" replay "$saved" -- "$prog" >/dev/null 2>&1
[ $? -eq 1 ] || fail "the input saved elsewhere does not replay the failure"
echo "full -o: no crash file left there, the input saved to \$TMPDIR and replayed"
