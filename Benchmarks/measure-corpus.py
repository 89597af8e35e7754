#!/usr/bin/env python3
"""Recall and false alarms of `xcmedic scan` over a labelled folder of build logs.

The folder holds the logs and a `labels.tsv` (columns: file, expected_categories, ...), each case
labelled with the categories a person expects named (comma-separated), or `none`.

A labelled category counts as found when a finding with role `cause` of that category is reported.
Per failing case: case recall (some labelled category is named as a cause), top-1 (the first
root-cause error is of a labelled category), and whether it was reported green (status `passed`
or exit 0 with the default `--fail-on error`; a log whose labelled cause is named as a warning, and
that shows no other failure, rightly exits 0). A log that shows no build result and no failure xcmedic knows
exits 3 (status `unknown`): not green, and counted apart as undetermined, failing or passing. A false alarm is a `none` case with any root-cause
error, and, per labelled case, each extra root-cause error category that is not among its labels
(reported, not counted against recall).

Usage: Benchmarks/measure-corpus.py [FOLDER] [--xcmedic PATH] [--verbose]
  FOLDER defaults to Tests/Corpus, the project's own corpus (cases under FOLDER/cases when present).
"""
import argparse
import collections
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
# Runtime console warnings: named as warning-severity causes; a log with only these is not a red build.
WARNING_CATEGORIES = {"autolayout-conflict", "autolayout-ambiguous-height", "tableview-offscreen-layout"}
root = os.path.dirname(here)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=os.path.join(root, "Tests", "Corpus"))
    parser.add_argument("--xcmedic", default=None, help="the xcmedic binary (default: build and use .build/release/xcmedic)")
    parser.add_argument("--verbose", action="store_true", help="list every case")
    parser.add_argument("--categories", default=None,
                        help="comma-separated: only cases labelled with one of these (and every passing case)")
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
    top1_hits = collections.Counter()
    none_cases = 0
    none_alarms = 0
    extras = collections.Counter()
    missed = []
    green = []          # failing cases reported as passing or exiting 0
    undetermined = []   # failing cases with status unknown and no labelled cause named (exit 3)
    none_undetermined = 0
    failing_cases = 0
    cases_found = 0
    cases_top1 = 0
    with open(labels_path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col_file, col_labels = header.index("file"), header.index("expected_categories")
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]

    for row in rows:
        name, labels = row[col_file], [c.strip() for c in row[col_labels].split(",") if c.strip()]
        if args.categories and labels != ["none"] and not set(labels) & set(args.categories.split(",")):
            continue
        path = os.path.join(cases_dir, name)
        out = subprocess.run([binary, "scan", "--no-config", "--format", "json", path],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1, 3):
            print(f"{name}: xcmedic exited {out.returncode}: {out.stderr.strip()}", file=sys.stderr)
            return 1
        report = json.loads(out.stdout)
        causes = [f for f in report["findings"] if f["role"] == "cause"]
        cause_categories = {f["category"] for f in causes}
        cause_errors = {f["category"] for f in causes if f["severity"] == "error"}
        first = next((f["category"] for f in causes if f["severity"] == "error"), None) or (causes[0]["category"] if causes else None)
        if labels == ["none"]:
            none_cases += 1
            alarm = bool(cause_errors)
            none_alarms += alarm
            none_undetermined += report["status"] == "unknown"
            if args.verbose or alarm:
                print(f"{'ALARM' if alarm else 'ok   '} {name}: none expected, root-cause errors {sorted(cause_errors)}")
            continue
        failing_cases += 1
        named_as_warning = any(f["category"] in labels and f["severity"] == "warning" for f in causes)
        if not set(labels) <= WARNING_CATEGORIES and not named_as_warning and (out.returncode == 0 or report["status"] == "passed"):
            green.append((name, report["status"], out.returncode))
        hit = False
        if report["status"] == "unknown" and not set(labels) & cause_categories:
            undetermined.append(name)
        for label in labels:
            expected[label] += 1
            if label in cause_categories:
                found[label] += 1
                hit = True
            else:
                missed.append((name, label, sorted(cause_categories)))
        cases_found += hit
        if first in labels:
            cases_top1 += 1
            top1_hits[first] += 1
        for extra in cause_errors - set(labels):
            extras[extra] += 1
        if args.verbose:
            mark = "ok   " if set(labels) <= cause_categories else ("part " if hit else "MISS ")
            print(f"{mark} {name}: expected {labels}, causes {sorted(cause_categories)} (first: {first})")

    print()
    print(f"{'category':28} {'found':>5} / {'cases':<5} recall   extra root-cause categories elsewhere")
    for category in sorted(expected):
        print(f"{category:28} {found[category]:>5} / {expected[category]:<5} {found[category] / expected[category]:6.0%}   {extras.get(category, 0)}")
    total_found, total = sum(found.values()), sum(expected.values())
    print(f"{'labels found':28} {total_found:>5} / {total:<5} {total_found / max(total, 1):6.1%}")
    print(f"{'failing cases with a right cause':28} {cases_found:>5} / {failing_cases:<5} {cases_found / max(failing_cases, 1):6.1%}   (case recall)")
    print(f"{'failing cases, right first cause':28} {cases_top1:>5} / {failing_cases:<5} {cases_top1 / max(failing_cases, 1):6.1%}   (top-1)")
    print(f"{'failing cases reported green':28} {len(green):>5} / {failing_cases:<5}   (status passed or exit 0)")
    print(f"{'failing cases undetermined':28} {len(undetermined):>5} / {failing_cases:<5}   (no build result, no cause named: exit 3)")
    print(f"{'passing cases with an error cause':28} {none_alarms:>5} / {none_cases:<5}")
    print(f"{'passing cases undetermined':28} {none_undetermined:>5} / {none_cases:<5}   (no build result: exit 3)")
    for name, label, causes in missed:
        print(f"missed: {name}: {label} (named: {', '.join(causes) or 'nothing'})")
    for name, status, code in green:
        print(f"green: {name}: status {status}, exit {code}")
    return 0 if not missed and none_alarms == 0 and not green else 1


if __name__ == "__main__":
    sys.exit(main())
