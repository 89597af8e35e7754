#!/usr/bin/env python3
"""Sizes x shapes, xcmedic side by side with its peers, runs interleaved; medians and ratios.

    python3 Benchmarks/matrix.py --xcmedic BIN [--sizes 1M,20M,200M] [--shapes quiet,...]
                                 [--runs N] [--xcbeautify BIN] [--xcbeautify-max 20M] [--out DIR]

For every log (Benchmarks/gen-logs.py makes them; kept in DIR between runs) one round runs each
command once, in an order that rotates from round to round (A B C, B C A, ...), so a machine that
gets busier or quieter during the benchmark shifts every command alike. A ratio is taken within each
round (peer's time / xcmedic's time: above 1 means xcmedic took less) and the median of the rounds is
reported, beside the median time of each command.

Commands, all on one core and writing to a file (GNU grep stops at the first match on /dev/null):
  xcmedic scan           xcmedic scan --no-config --format json --fail-on never LOG
  rg -F -j1              rg -c -j1 --no-mmap -F -f LITERALS LOG   (the catalog's own prefilter literals,
                         `xcmedic rules --literals`; --no-mmap so its memory is what it allocates)
  grep -F                grep -c -F -f LITERALS LOG
  xcmedic scan --tee     xcmedic scan --tee ... --report FILE < LOG    (pipe mode)
  tee                    tee < LOG
  xcbeautify             xcbeautify --disable-colored-output < LOG    (when given; only up to
                         --xcbeautify-max, and not on the one-line log)
CPU is user + system time of the command, wall the elapsed time, memory its peak resident set (GNU
time). Ratios and MB/s are of CPU time: on a machine shared with other work the wall clock measures
the neighbours as much as the command (interleaving spreads that, CPU time mostly avoids it).

A run that would take longer than --max-seconds (default 30; predicted from the same shape's
throughput at the size before) is not made: the row says so, with that throughput.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
gen = __import__("gen-logs")


def parse_size(text):
    text = text.strip().upper()
    for suffix, mult in (("G", 1000**3), ("M", 1000**2), ("K", 1000)):
        if text.endswith(suffix):
            return int(float(text[:-1]) * mult)
    return int(text)


def size_name(n):
    if n >= 1000**3:
        return f"{n / 1000**3:g} GB"
    if n >= 1000**2:
        return f"{n / 1000**2:g} MB"
    return f"{n} B"


def run_once(argv, stdin_path, stdout_path, out):
    """Wall seconds, CPU seconds (user + system), peak RSS in bytes, exit status. The command runs under
    GNU time, whose peak RSS is the command's alone (a child forked from Python would count Python's
    pages before exec); CPU comes from wait4 on time, which includes the command it waited for, to the
    microsecond (time itself prints hundredths)."""
    timing = os.path.join(out, "time.txt")
    fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    with open(stdout_path, "wb") as fout:
        start = time.perf_counter()
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%x %M", "-o", timing] + argv,
                                stdin=fin, stdout=fout, stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = 0
    if stdin_path:
        fin.close()
    with open(timing) as f:
        fields = f.read().split()[-2:]
    return wall, ru.ru_utime + ru.ru_stime, int(fields[1]) * 1024, int(fields[0])


def measure(commands, runs, out):
    """commands: [(name, argv, stdin_path)]. Returns {name: [(wall, cpu, rss), ...]} interleaved."""
    results = {name: [] for name, _, _ in commands}
    for r in range(runs):
        k = r % len(commands)
        for name, argv, stdin_path in commands[k:] + commands[:k]:
            wall, cpu, rss, status = run_once(argv, stdin_path, os.path.join(out, "cmd.out"), out)
            if status not in (0, 1):
                raise SystemExit(f"matrix.py: {name} exited {status}: {' '.join(argv)}")
            results[name].append((wall, cpu, rss))
    return results


def ensure_log(shape, size, out):
    path = os.path.join(out, f"{shape}-{size}.log")
    stamp = path + ".stamp"
    want = str(os.path.getmtime(os.path.join(HERE, "gen-logs.py")))
    if not (os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == want):
        sys.stderr.write(f"generating {shape} {size_name(size)}...\n")
        gen.write(shape, size, path)
        with open(stamp, "w") as f:
            f.write(want)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--xcmedic", required=True)
    ap.add_argument("--sizes", default="1M,20M,200M")
    ap.add_argument("--shapes", default=",".join(gen.SHAPES))
    ap.add_argument("--runs", type=int, default=5, help="rounds per log up to 20 MB (default 5)")
    ap.add_argument("--big-runs", type=int, default=3, help="rounds per log over 20 MB (default 3)")
    ap.add_argument("--xcbeautify", default="")
    ap.add_argument("--xcbeautify-max", default="20M")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--json", default="", help="also write every measurement here")
    ap.add_argument("--max-seconds", type=float, default=30.0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out = args.out
    xc = os.path.abspath(args.xcmedic)
    literals = os.path.join(out, "literals.txt")
    with open(literals, "wb") as f:
        f.write(subprocess.check_output([xc, "rules", "--no-config", "--literals"]))
    nlit = sum(1 for _ in open(literals, "rb"))
    xcb_max = parse_size(args.xcbeautify_max)
    report = os.path.join(out, "tee-report.json")
    everything = []

    def scan_cmds(log):
        return [
            ("xcmedic scan", [xc, "scan", "--no-config", "--format", "json", "--fail-on", "never", log], None),
            ("rg -F -j1", ["rg", "-c", "-j1", "--no-mmap", "-F", "-f", literals, log], None),
            ("grep -F", ["grep", "-c", "-F", "-f", literals, log], None),
        ]

    cpu = ""
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Machine: {os.cpu_count()} cores, {cpu}; {platform.system()} {platform.release()}; "
          f"load average {load:.1f} at the start. xcmedic {subprocess.check_output([xc, '--version']).decode().strip()}, "
          f"{nlit} prefilter literals.")
    print()

    # Start-up: a 2-line log.
    two = os.path.join(out, "two-lines.log")
    with open(two, "w") as f:
        f.write("Build settings from command line:\n** BUILD SUCCEEDED **\n")
    res = measure(scan_cmds(two), max(args.runs * 4, 20), out)
    base = [w for w, _, _ in res["xcmedic scan"]]
    print(f"Start-up (a 2-line log, {max(args.runs * 4, 20)} interleaved rounds, median wall-clock): "
          + "; ".join(f"{name} {statistics.median(w for w, _, _ in v) * 1000:.0f} ms" for name, v in res.items())
          + f"; xcmedic takes {statistics.median(a / b[0] for a, b in zip(base, res['rg -F -j1'])):.2f}x rg's time.")
    everything.append({"log": "two-lines", "results": res})
    print()
    print("| log | command | CPU s | MB/s | peak MB | wall s | peer CPU / xcmedic CPU |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rate = {}   # (shape, command) -> MB/s of CPU at the last size measured
    for size in (parse_size(s) for s in args.sizes.split(",")):
        for shape in args.shapes.split(","):
            label = f"{shape}, {size_name(size)}"
            slow = rate.get((shape, "xcmedic scan"))
            if slow and size / 1e6 / slow > args.max_seconds:
                print(f"| {label} | xcmedic scan | not run: about {size / 1e6 / slow:.0f} s a run at the {slow:.2f} MB/s measured on the smaller log | | | | |")
                continue
            log = ensure_log(shape, size, out)
            nbytes = os.path.getsize(log)
            runs = args.runs if size <= 20 * 1000**2 else args.big_runs
            cmds = scan_cmds(log) + [
                ("xcmedic scan --tee", [xc, "scan", "--tee", "--no-config", "--format", "json", "--fail-on", "never", "--report", report], log),
                ("tee", ["tee"], log),
            ]
            xcb_rate = rate.get((shape, "xcbeautify"))
            if args.xcbeautify and size <= xcb_max and shape != "hugeline" and not (xcb_rate and size / 1e6 / xcb_rate > args.max_seconds):
                cmds.append(("xcbeautify", [args.xcbeautify, "--disable-colored-output"], log))
            res = measure(cmds, runs, out)
            everything.append({"log": f"{shape}-{size}", "bytes": nbytes, "runs": runs, "results": res})
            for name, v in res.items():
                wall = statistics.median(w for w, _, _ in v)
                cpu_s = statistics.median(c for _, c, _ in v)
                rss = statistics.median(m for _, _, m in v)
                mbs = nbytes / 1e6 / max(cpu_s, 0.001)
                rate[(shape, name)] = mbs
                against = "xcmedic scan --tee" if name == "tee" else "xcmedic scan"
                ratio = ""
                if name not in ("xcmedic scan", "xcmedic scan --tee"):
                    ratio = f"{statistics.median(a[1] / max(b[1], 0.001) for a, b in zip(v, res[against])):.2f}"
                    if name == "tee":
                        ratio += " (of --tee)"
                print(f"| {label} | {name} | {cpu_s:.3f} | {mbs:.0f} | {rss / 1e6:.1f} | {wall:.3f} | {ratio} |")
                label = ""
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(everything, f)


if __name__ == "__main__":
    main()
