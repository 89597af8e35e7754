#!/usr/bin/env python3
"""Start-up of xcmedic builds side by side with rg: a scan of a 2-line log, interleaved rounds.

    Benchmarks/startup.py [--rounds N] [--callgrind] NAME=BINARY [NAME=BINARY ...]

Each round runs every command once, in a rotating order: `BINARY scan --no-config --format json
--fail-on never LOG` for each build given and `rg -c -j1 --no-mmap -F -f LITERALS LOG` (the literals of
the first build's `rules --literals`, as Benchmarks/matrix.py uses). Prints medians of wall time, CPU
time (user + system of the child) and peak RSS, and the median over rounds of each command's CPU time
over the first build's. On a shared machine trust the CPU figures and the ratios, not the wall times.
Every build must print the same report, byte for byte (else it stops: the builds do not do the same work).
With --callgrind, also each build's instruction count for the same scan under valgrind's callgrind (a
copy without debug info, which this valgrind cannot read), the figure that does not move with the load.
"""
import argparse, os, shutil, statistics, subprocess, tempfile, time

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--rounds", type=int, default=20)
ap.add_argument("--callgrind", action="store_true", help="also count instructions with valgrind --tool=callgrind")
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
# Each binary run from a fresh copy in one folder: how a file came into the page cache (written, read
# ahead, partly evicted) changes how many pages the kernel maps around each fault, and so the peak RSS
# (by 1.3 MB here for the same binary), whatever the binary does.
for i, (name, binary) in enumerate(builds):
    copy = os.path.join(tmp, f"build{i}", "xcmedic")
    os.makedirs(os.path.dirname(copy))
    shutil.copy2(binary, copy)
    cmds[name][0] = copy
outputs = {name: subprocess.run(cmd, capture_output=True).stdout for name, cmd in cmds.items()}
for name, out in outputs.items():
    if out != outputs[builds[0][0]]:
        raise SystemExit(f"startup.py: {name} prints another report than {builds[0][0]}; not the same work")
instructions = {}
if args.callgrind:
    import re
    for name, binary in builds:
        copy = os.path.join(tmp, f"{name}.exe")
        if shutil.which("strip"):
            subprocess.run(["strip", "--strip-debug", "-o", copy, cmds[name][0]], check=True)
        else:
            shutil.copy(cmds[name][0], copy)
        out = os.path.join(tmp, f"{name}.callgrind")
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", copy] + cmds[name][1:],
                             capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", run.stderr)
        instructions[name] = int(found.group(1)) if found else None
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
cg_head = " instructions (callgrind) |" if instructions else ""
print(f"| command | wall ms | CPU ms | peak MB | CPU / {names[0]}'s |{cg_head}")
print("| --- | --- | --- | --- | --- |" + (" --- |" if instructions else ""))
for n in names:
    ratio = statistics.median(b[1] / a[1] for a, b in zip(res[names[0]], res[n]))
    cg = ""
    if instructions:
        count = instructions.get(n)
        cg = f" {count / 1e6:.1f} M |" if count else " |"
    print(f"| {n} | {statistics.median(x[0] for x in res[n]) * 1000:.1f} | {statistics.median(x[1] for x in res[n]) * 1000:.1f} "
          f"| {statistics.median(x[2] for x in res[n]):.1f} | {ratio:.2f} |{cg}")
shutil.rmtree(tmp, ignore_errors=True)
