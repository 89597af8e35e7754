#!/usr/bin/env python3
"""Recall and false alarms of `xcmedic scan` over a labelled folder of build logs.

The folder holds the logs and a `labels.tsv` (columns: file, expected_categories, ...), each case
labelled with the categories a person expects named (comma-separated), or `none`.

A labelled category counts as found when a finding with role `cause` of that category is reported.
A false alarm is a `none` case with any root-cause error, and, per labelled case, each extra
root-cause error category that is not among its labels (reported, not counted against recall).

Usage: Benchmarks/measure-corpus.py [FOLDER] [--xcmedic PATH] [--verbose]
  FOLDER defaults to ../shared/corpus (cases under FOLDER/cases when present).
"""
import argparse
import collections
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=os.path.join(root, "..", "shared", "corpus"))
    parser.add_argument("--xcmedic", default=None, help="the xcmedic binary (default: build and use .build/release/xcmedic)")
    parser.add_argument("--verbose", action="store_true", help="list every case")
    args = parser.parse_args()

    labels_path = os.path.join(args.folder, "labels.tsv")
    if not os.path.isfile(labels_path):
        print(f"measure-corpus: {labels_path}: no labels.tsv in that folder", file=sys.stderr)
        return 2
    cases_dir = os.path.join(args.folder, "cases") if os.path.isdir(os.path.join(args.folder, "cases")) else args.folder

    binary = args.xcmedic
    if binary is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "xcmedic"], cwd=root, check=True,
                       stdout=subprocess.DEVNULL)
        binary = os.path.join(root, ".build", "release", "xcmedic")

    found = collections.Counter()
    expected = collections.Counter()
    none_cases = 0
    none_alarms = 0
    extras = collections.Counter()
    missed = []
    with open(labels_path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col_file, col_labels = header.index("file"), header.index("expected_categories")
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]

    for row in rows:
        name, labels = row[col_file], [c.strip() for c in row[col_labels].split(",") if c.strip()]
        path = os.path.join(cases_dir, name)
        out = subprocess.run([binary, "scan", "--no-config", "--format", "json", "--fail-on", "never", path],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{name}: xcmedic exited {out.returncode}: {out.stderr.strip()}", file=sys.stderr)
            return 1
        report = json.loads(out.stdout)
        causes = {f["category"] for f in report["findings"] if f["role"] == "cause"}
        cause_errors = {f["category"] for f in report["findings"] if f["role"] == "cause" and f["severity"] == "error"}
        if labels == ["none"]:
            none_cases += 1
            alarm = bool(cause_errors)
            none_alarms += alarm
            if args.verbose or alarm:
                print(f"{'ALARM' if alarm else 'ok   '} {name}: none expected, root-cause errors {sorted(cause_errors)}")
            continue
        for label in labels:
            expected[label] += 1
            if label in causes:
                found[label] += 1
            else:
                missed.append((name, label, sorted(causes)))
        for extra in cause_errors - set(labels):
            extras[extra] += 1
        if args.verbose:
            print(f"{'ok   ' if set(labels) <= causes else 'MISS '} {name}: expected {labels}, causes {sorted(causes)}")

    print()
    print(f"{'category':32} {'found':>5} / {'cases':<5} recall   extra root-cause categories elsewhere")
    for category in sorted(expected):
        print(f"{category:32} {found[category]:>5} / {expected[category]:<5} {found[category] / expected[category]:6.0%}   {extras.get(category, 0)}")
    total_found, total = sum(found.values()), sum(expected.values())
    print(f"{'all labelled failures':32} {total_found:>5} / {total:<5} {total_found / max(total, 1):6.0%}")
    print(f"{'none cases with a root-cause error':32} {none_alarms:>5} / {none_cases:<5}")
    for name, label, causes in missed:
        print(f"missed: {name}: {label} (named: {', '.join(causes) or 'nothing'})")
    return 0 if not missed and none_alarms == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
