#!/usr/bin/env python3
"""Start-up of xcmedic builds side by side with rg: a scan of a 2-line log, interleaved rounds.

    Benchmarks/startup.py [--rounds N] NAME=BINARY [NAME=BINARY ...]

Each round runs every command once, in a rotating order: `BINARY scan --no-config --format json
--fail-on never LOG` for each build given and `rg -c -j1 --no-mmap -F -f LITERALS LOG` (the literals of
the first build's `rules --literals`, as Benchmarks/matrix.py uses). Prints medians of wall time, CPU
time (user + system of the child) and peak RSS, and the median over rounds of each command's CPU time
over the first build's. On a shared machine trust the CPU figures and the ratios, not the wall times.
"""
import argparse, os, statistics, subprocess, tempfile, time

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--rounds", type=int, default=20)
ap.add_argument("builds", nargs="+", metavar="NAME=BINARY")
args = ap.parse_args()

tmp = tempfile.mkdtemp(prefix="xcmedic-startup-")
log = os.path.join(tmp, "two-lines.log")
with open(log, "w") as f:
    f.write("Build settings from command line:\n** BUILD SUCCEEDED **\n")
builds = [b.split("=", 1) for b in args.builds]
literals = os.path.join(tmp, "literals.txt")
with open(literals, "wb") as f:
    f.write(subprocess.check_output([builds[0][1], "rules", "--no-config", "--literals"]))
cmds = {name: [os.path.abspath(binary), "scan", "--no-config", "--format", "json", "--fail-on", "never", log] for name, binary in builds}
cmds["rg -F -j1"] = ["rg", "-c", "-j1", "--no-mmap", "-F", "-f", literals, log]
names = list(cmds)
res = {n: [] for n in names}
for r in range(args.rounds):
    for n in names[r % len(names):] + names[:r % len(names)]:
        start = time.perf_counter()
        p = subprocess.Popen(cmds[n], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(p.pid, 0)
        res[n].append((time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024))
load = os.getloadavg()[0]
print(f"Start-up, a 2-line log, {args.rounds} interleaved rounds (load average {load:.1f} at the end):")
print()
print(f"| command | wall ms | CPU ms | peak MB | CPU / {names[0]}'s |")
print("| --- | --- | --- | --- | --- |")
for n in names:
    ratio = statistics.median(b[1] / a[1] for a, b in zip(res[names[0]], res[n]))
    print(f"| {n} | {statistics.median(x[0] for x in res[n]) * 1000:.1f} | {statistics.median(x[1] for x in res[n]) * 1000:.1f} "
          f"| {statistics.median(x[2] for x in res[n]):.1f} | {ratio:.2f} |")
