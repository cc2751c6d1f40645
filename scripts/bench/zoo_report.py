#!/usr/bin/env python3
"""zoo_report.py OUT BUDGET - turns the zoo benchmark's CSV files
(trials.csv, native.csv, families.csv in OUT) into report.md, gnuplot plots
(PNG) and the "name: value" lines bench.sh prints."""
import csv
import functools
import os
import statistics
import subprocess
import sys

out, budget = sys.argv[1], int(sys.argv[2])


def read(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def percentile(values, q):
    """Nearest-rank percentile; None when fewer than q of the trials found."""
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(round(q * len(v) + 0.5)) - 1))]


def fmt(x, digits=0):
    if x is None:
        return "-"
    return f"{x:.{digits}f}" if digits else f"{x:.0f}"


rows = read("trials.csv")
native = {r["program"]: r for r in read("native.csv")}
families = read("families.csv")
zoo = {}
with open(os.path.join(os.path.dirname(__file__), "../../tests/bugs/zoo.tsv")) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        cells = line.rstrip("\n").split("\t")
        zoo[cells[0]] = {"class": cells[2], "threads": cells[3], "input": cells[6]}

programs = sorted({r["program"] for r in rows} | set(native), key=list(zoo).index)
configs = []
for r in rows:
    c = (r["engine"], r["strategy"], r["coverage"])
    if c not in configs:
        configs.append(c)


def config_name(c):
    engine, strategy, cov = c
    return f"{engine} {strategy}" + ("" if cov == "-" else f" cov={cov}")


# Per configuration and program: the bug trials.
cell = {}
false_alarms = {}
controlled_per_schedule = {}  # program: seconds per schedule of schedfuzz run
for r in rows:
    c = (r["engine"], r["strategy"], r["coverage"])
    if r["variant"] == "fixed":
        false_alarms[c] = false_alarms.get(c, 0) + int(r["found"])
        if r["engine"] == "run" and int(r["schedules"]) > 0:
            controlled_per_schedule[r["program"]] = float(r["seconds"]) / int(r["schedules"])
        continue
    cell.setdefault((c, r["program"]), []).append(r)


@functools.lru_cache(maxsize=None)
def summary(c, p):
    ts = cell.get((c, p), [])
    found = [t for t in ts if t["found"] == "1"]
    # Trials that found nothing count as the whole budget: a percentile is
    # shown only when the trials below it all found the bug.
    sched = [int(t["schedules"]) if t["found"] == "1" else float("inf") for t in ts]
    secs = [float(t["seconds"]) if t["found"] == "1" else float("inf") for t in ts]
    med, p90 = percentile(sched, 0.5), percentile(sched, 0.9)
    smed, sp90 = percentile(secs, 0.5), percentile(secs, 0.9)
    fix = lambda x: None if x is None or x == float("inf") else x
    return {"trials": len(ts), "found": len(found), "all": bool(ts) and len(found) == len(ts),
            "med": fix(med), "p90": fix(p90), "smed": fix(smed), "sp90": fix(sp90),
            "max": max(sched) if ts and len(found) == len(ts) else None}


score = {}
for c in configs:
    every = sum(1 for p in programs if summary(c, p)["all"])
    meds = sum(summary(c, p)["med"] or budget for p in programs)
    score[c] = (every, -meds)
best = max(configs, key=lambda c: score[c]) if configs else None

md = []
md.append(f"Budget: {budget} schedules per trial; trial i uses seed i.\n")
md.append("## Configurations\n")
md.append("A bug counts as found by a configuration when every trial found it within the budget. "
          "Schedules: medians over the zoo's programs are not comparable across engines with "
          "different program sets, so the sum of per-program medians is shown (a program not found "
          "in half the trials counts as the budget).\n")
md.append("| configuration | trials | found in every trial | found in some trial | sum of median schedules | fixed-twin false alarms |")
md.append("|---|---|---|---|---|---|")
for c in configs:
    every = sum(1 for p in programs if summary(c, p)["all"])
    some = sum(1 for p in programs if summary(c, p)["found"] > 0)
    mark = " **(best)**" if c == best else ""
    ntrials = max((summary(c, p)["trials"] for p in programs), default=0)
    md.append(f"| {config_name(c)}{mark} | {ntrials} | {every}/{len(programs)} | {some}/{len(programs)} | "
              f"{-score[c][1]} | {false_alarms.get(c, '-')} |")

if best:
    md.append(f"\n## Every bug under the best configuration ({config_name(best)}) and native stress\n")
    md.append("Schedules and seconds to the first bug over the trials (median, 90th percentile; '-' when "
              "fewer trials found it). Native: the program built without schedfuzz, run under the OS "
              "scheduler; its probability is failing runs / runs. Overhead: seconds per schedule of "
              "`schedfuzz run` over the fixed twin's schedules (a fork per schedule) divided by "
              "seconds per native run (a fork and exec per run).\n")
    md.append("| program | class | threads | found | schedules median | p90 | max | seconds median | p90 | native p per run | native runs | overhead |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in programs:
        s = summary(best, p)
        n = native.get(p)
        prob = runs = "-"
        if n and int(n["runs"] or 0) > 0:
            prob = f"{int(n['failures']) / int(n['runs']):.4f}"
            runs = n["runs"]
        over = "-"
        if n and p in controlled_per_schedule and zoo[p]["input"] == "schedule" and int(n["runs"]) > 0:
            per_native = float(n["seconds"]) / int(n["runs"])
            over = f"{controlled_per_schedule[p] / per_native:.1f}x"
        md.append(f"| {p} | {zoo[p]['class']} | {zoo[p]['threads']} | {s['found']}/{s['trials']} | "
                  f"{fmt(s['med'])} | {fmt(s['p90'])} | {fmt(s['max'])} | {fmt(s['smed'], 2)} | "
                  f"{fmt(s['sp90'], 2)} | {prob} | {runs} | {over} |")

    md.append("\n## Median schedules to the first bug, every configuration\n")
    md.append("| program | " + " | ".join(config_name(c) for c in configs) + " |")
    md.append("|---|" + "---|" * len(configs))
    for p in programs:
        cells = []
        for c in configs:
            s = summary(c, p)
            if not s["trials"]:
                cells.append("n/a")
            elif s["med"] is None:
                cells.append(f"- ({s['found']}/{s['trials']})")
            else:
                cells.append(fmt(s["med"]) + ("" if s["all"] else f" ({s['found']}/{s['trials']})"))
        md.append(f"| {p} | " + " | ".join(cells) + " |")

fam = {}
for r in families:
    fam.setdefault((r["family"], r["strategy"], int(r["threads"])), []).append(r)
if fam:
    md.append("\n## Scalable families: schedules to the first bug as threads grow\n")
    md.append("`schedfuzz run`, median and 90th percentile over the trials ('-': fewer trials found it "
              "within the family budget).\n")
    md.append("| family | strategy | threads | found | schedules median | p90 | seconds median |")
    md.append("|---|---|---|---|---|---|---|")
    for key in sorted(fam):
        ts = fam[key]
        sched = [int(t["schedules"]) if t["found"] == "1" else float("inf") for t in ts]
        secs = [float(t["seconds"]) if t["found"] == "1" else float("inf") for t in ts]
        med, p90, smed = percentile(sched, 0.5), percentile(sched, 0.9), percentile(secs, 0.5)
        inf = float("inf")
        found = sum(t["found"] == "1" for t in ts)
        md.append(f"| {key[0]} | {key[1]} | {key[2]} | {found}/{len(ts)} | "
                  f"{fmt(None if med == inf else med)} | {fmt(None if p90 == inf else p90)} | "
                  f"{fmt(None if smed == inf else smed, 2)} |")


# Plots: bugs found within a budget (per configuration), and the families.
def gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True, capture_output=True)
        return True
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"zoo_report: gnuplot failed: {e}", file=sys.stderr)
        return False


plots = []
if configs:
    data = os.path.join(out, "found_within.dat")
    with open(data, "w") as f:
        for i, c in enumerate(configs):
            meds = sorted(summary(c, p)["max"] for p in programs if summary(c, p)["all"])
            f.write(f'# "{config_name(c)}"\n1 0\n')
            for k, m in enumerate(meds, 1):
                f.write(f"{max(1, m)} {k}\n")
            f.write("\n\n")
    # gnuplot has eight colours: past them, lines are told apart by dashes.
    titles = ", ".join(f"'{data}' index {i} with steps lw 2 dt {1 + i // 8} title '{config_name(c)}'"
                       for i, c in enumerate(configs))
    png = os.path.join(out, "found_within.png")
    if gnuplot(f"""set terminal pngcairo size 1100,700 noenhanced
set output '{png}'
set logscale x
set xlabel 'schedules (worst trial)'
set ylabel 'zoo bugs found in every trial'
set key outside right
set title 'Zoo bugs found within a schedule budget'
plot {titles}
"""):
        plots.append(("Bugs found within a budget", "found_within.png"))
if fam:
    data = os.path.join(out, "families.dat")
    series = sorted({(k[0], k[1]) for k in fam})
    with open(data, "w") as f:
        for fam_name, strat in series:
            f.write(f"# {fam_name} {strat}\n")
            for n in sorted({k[2] for k in fam if k[:2] == (fam_name, strat)}):
                ts = fam[(fam_name, strat, n)]
                sched = [int(t["schedules"]) if t["found"] == "1" else float("inf") for t in ts]
                med = percentile(sched, 0.5)
                if med != float("inf"):
                    f.write(f"{n} {med}\n")
            f.write("\n\n")
    titles = ", ".join(f"'{data}' index {i} with linespoints lw 2 dt {1 + i // 8} title '{a} {b}'"
                       for i, (a, b) in enumerate(series))
    png = os.path.join(out, "families.png")
    if gnuplot(f"""set terminal pngcairo size 1100,700 noenhanced
set output '{png}'
set logscale xy
set xlabel 'threads'
set ylabel 'median schedules to the first bug'
set key outside right
set title 'Scalable families: cost of the first bug as threads grow'
plot {titles}
"""):
        plots.append(("Scalable families", "families.png"))
if plots:
    md.append("\n## Plots\n")
    for title, png in plots:
        md.append(f"![{title}]({png})\n")

with open(os.path.join(out, "report.md"), "w") as f:
    f.write("\n".join(md) + "\n")

if best:
    every = sum(1 for p in programs if summary(best, p)["all"])
    print(f"zoo_best_configuration: {config_name(best)}")
    print(f"zoo_found: {every}/{len(programs)}")
    worst = max((summary(best, p)["max"] or 0) for p in programs)
    print(f"zoo_worst_schedules: {worst}")
print(f"zoo_fixed_false_alarms: {sum(false_alarms.values())}")
print(f"zoo_results: {out}")
