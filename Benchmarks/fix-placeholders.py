#!/usr/bin/env python3
"""Counts fix commands that hold a placeholder (<scheme>, <destination>, <test-target>, <xcodebuild-arguments>)
for a value the log itself names (issue 13: fixes written for this build). Usage: python3 Benchmarks/fix-placeholders.py [XCMEDIC] DIR_OR_FILE...
(default XCMEDIC .build/debug/xcmedic; e.g. Tests/Corpus/cases)."""
import glob, json, os, subprocess, sys

args = sys.argv[1:]
binary = args.pop(0) if args and os.access(args[0], os.X_OK) and not os.path.isdir(args[0]) else ".build/debug/xcmedic"
paths = []
for a in args or ["Tests/Corpus/cases"]:
    paths += sorted(glob.glob(os.path.join(a, "*"))) if os.path.isdir(a) else [a]

logs = named = commands = wrong = 0
for path in paths:
    out = subprocess.run([binary, "scan", "--no-config", "--format", "json", path], capture_output=True, text=True).stdout
    try:
        report = json.loads(out)
    except ValueError:
        continue
    logs += 1
    inv = report["inputs"][0].get("invocation") or {}
    named += bool(inv)
    known = []
    if "scheme" in inv: known += ["<scheme>", "<xcodebuild-arguments>"]
    if "destination" in inv: known.append("<destination>")
    if len(inv.get("testTargets", [])) == 1: known.append("<test-target>")
    for finding in report["findings"]:
        for fix in finding["fixes"]:
            for command in fix["commands"]:
                commands += 1
                if any(p in command for p in known):
                    wrong += 1
                    print(f"{path}: {command}")
print(f"{logs} logs, {named} name their invocation, {commands} fix commands, {wrong} with a placeholder for a value the log names")
