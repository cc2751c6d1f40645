#!/usr/bin/env python3
"""cycles.py - the runtime's call cycles, read from its objects' symbols.

One object file depends on another when it uses (nm: U) a symbol the other
defines. Files are grouped by their concern, the folder under runtime/ that
holds their source (runtime/sched/rt_point.c is in "sched"; a file directly
in runtime/ is its own concern). The script prints every strongly connected
component of more than one concern, each with the pairs of files whose
symbols close the cycle, and then the same for single files within one
concern when --files is given.

usage: scripts/cycles.py [--files] [--check] BUILD_DIR
  --check  exit 1 when a cycle between concerns exists (CI runs this)
"""
import os
import subprocess
import sys
from collections import defaultdict


def objects(build):
    top = os.path.join(build, "runtime", "CMakeFiles", "schedfuzz_rt.dir")
    for root, _, files in os.walk(top):
        for f in files:
            if f.endswith(".c.o"):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, top)[: -len(".o")]
                yield rel, path


def symbols(path):
    out = subprocess.run(["nm", "--defined-only", "-g", path], capture_output=True,
                         text=True, check=True).stdout
    defined = {line.split()[-1] for line in out.splitlines() if line.strip()}
    out = subprocess.run(["nm", "-u", path], capture_output=True, text=True,
                         check=True).stdout
    used = {line.split()[-1] for line in out.splitlines() if line.strip()}
    return defined, used


def libc_names():
    """Names glibc defines: the runtime interposes them, and a call to one is
    a call to the C library, not a dependency between runtime files."""
    names = set()
    for lib in ("libc.so.6", "libm.so.6"):
        path = subprocess.run(["cc", f"-print-file-name={lib}"], capture_output=True,
                              text=True).stdout.strip()
        if not os.path.isabs(path):
            path = os.path.join("/lib/x86_64-linux-gnu", lib)
        out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True,
                             text=True).stdout
        names |= {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
    return names


def concern(rel):
    """The folder that holds a runtime source; '__/x' are sources of other
    components compiled into the archive (strategies, coverage)."""
    parts = rel.split(os.sep)
    if parts[0] == "__":
        return parts[1]
    return parts[0] if len(parts) > 1 else os.path.splitext(parts[0])[0]


def sccs(nodes, edges):
    """Tarjan's algorithm, iterative; components of more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main(argv):
    files_too = "--files" in argv
    check = "--check" in argv
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    objs = dict(objects(args[0]))
    if not objs:
        print(f"cycles.py: no runtime objects under {args[0]} (build first)", file=sys.stderr)
        return 2
    libc = libc_names()
    defined_by, uses = {}, {}
    for rel, path in objs.items():
        d, u = symbols(path)
        uses[rel] = u
        for s in d:
            defined_by[s] = rel
    file_edges = defaultdict(set)
    why = defaultdict(set)  # (from, to) -> symbols
    for rel, used in uses.items():
        for s in used:
            to = defined_by.get(s)
            if to and to != rel and s not in libc:
                file_edges[rel].add(to)
                why[(rel, to)].add(s)
    cedges = defaultdict(set)
    for a, tos in file_edges.items():
        for b in tos:
            if concern(a) != concern(b):
                cedges[concern(a)].add(concern(b))
    concerns = {concern(r) for r in objs}
    cycles = sccs(concerns, cedges)
    print(f"{len(objs)} objects in {len(concerns)} concerns; "
          f"{len(cycles)} cycle(s) between concerns")
    for comp in cycles:
        print("cycle: " + " ".join(comp))
        members = set(comp)
        for (a, b), syms in sorted(why.items()):
            ca, cb = concern(a), concern(b)
            if ca != cb and ca in members and cb in members:
                print(f"  {a} -> {b}: {' '.join(sorted(syms)[:4])}")
    if files_too:
        fcycles = sccs(set(objs), file_edges)
        print(f"{len(fcycles)} cycle(s) between files")
        for comp in fcycles:
            print(f"  {len(comp)} files: " + " ".join(comp))
    return 1 if check and cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
