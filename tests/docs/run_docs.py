#!/usr/bin/env python3
"""run_docs.py SANDBOX FILE.md...: run every command the docs show.

A fenced block whose info string is `sh` holds commands, one a line (a
trailing backslash continues it); in a `console` block the lines that start
with `$ ` are commands and the rest is their output. Blocks of any other
kind (text, c, cmake, yaml, none) are not run. Each block runs in one bash,
from the sandbox, so that a `cd` or a variable carries to the next line;
`set -e` stops it at the first command that fails. A command that is meant
to fail says so in its comment: `# exit 1` (or `# exits 1`, any status).
Blocks a page marks with an HTML comment `<!-- docs-test: skip REASON -->`
on the line before them are reported, not run, and REASON must say which
test runs them instead.

Exits 1 with the file, the line and the output of the first command that
failed; prints one line a block run, with its seconds."""
import os
import re
import subprocess
import sys
import time

EXIT_RE = re.compile(r"#\s*exits?\s+(\d+)")


def blocks(path):
    """(line number, info string, lines, skip reason) for each fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)", lines[i])
        if not m:
            i += 1
            continue
        info, start, body = m.group(1), i + 1, []
        skip = None
        if i > 0:
            s = re.match(r"^<!-- docs-test: skip (.+) -->$", lines[i - 1].strip())
            if s:
                skip = s.group(1)
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        yield start, info, body, skip


def commands(info, body):
    """The commands of a block, continuation lines joined."""
    if info == "sh":
        raw = [l for l in body if l.strip() and not l.lstrip().startswith("#")]
    elif info == "console":
        raw = [l[2:] for l in body if l.startswith("$ ")]
    else:
        return []
    cmds, cur = [], ""
    for l in raw:
        if l.rstrip().endswith("\\"):
            cur += l.rstrip()[:-1] + " "
        else:
            cmds.append(cur + l)
            cur = ""
    return cmds


def script(cmds):
    """A bash script running cmds in order, each checked for its status."""
    out = ["set -u"]
    for n, c in enumerate(cmds):
        m = EXIT_RE.search(c)
        want = int(m.group(1)) if m else 0
        out.append(f"{{ {c}\n}} ; st=$?")
        out.append(f'[ "$st" -eq {want} ] || {{ echo "docs-test: command {n + 1} '
                   f'exited $st, not {want}" >&2; exit 1; }}')
    return "\n".join(out)


def main():
    sandbox, files = sys.argv[1], sys.argv[2:]
    # The pages say: from the checkout, with build/bin on the PATH.
    env = dict(os.environ, PATH=os.path.join(sandbox, "build", "bin") + ":" + os.environ["PATH"])
    ran = skipped = 0
    for path in files:
        for line, info, body, skip in blocks(path):
            cmds = commands(info, body)
            if not cmds:
                continue
            where = f"{os.path.relpath(path)}:{line}"
            if skip:
                print(f"docs-test: {where}: not run here: {skip}")
                skipped += 1
                continue
            began = time.monotonic()
            r = subprocess.run(["bash", "-c", script(cmds)], cwd=sandbox, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", timeout=900)
            if r.returncode != 0:
                print(r.stdout[-6000:])
                m = re.search(r"docs-test: command (\d+) exited", r.stdout)
                which = cmds[int(m.group(1)) - 1] if m else "(see above)"
                print(f"FAIL: {where}: this command failed: {which}")
                return 1
            print(f"docs-test: {where}: {len(cmds)} commands ran "
                  f"({time.monotonic() - began:.1f} s)")
            ran += 1
    print(f"docs-test: {ran} blocks run, {skipped} run by other tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
