#!/usr/bin/env python3
"""Writes an error-dense build log: the log of a broken module that produces a flood of distinct
compiler errors, as `swift build` / `xcodebuild` print them, plus errors no rule knows.

    Benchmarks/error-dense.py [--mb 200] [--seed 17] OUT

Every error names its own file, line, column and symbol, so no two findings are the same and the
scanner's cost per matching line shows (issue 17). Each kind of line below is one the compiler or a
build tool prints (message texts as in `Tests/Corpus`); about one line in ten is a source line or a
caret line under an error, one in seven an `error:` no rule claims.
"""
import argparse
import random
import sys

COMPILER = [
    "error: cannot find '{sym}' in scope",
    "error: cannot find type '{Type}' in scope",
    "error: value of type '{Type}' has no member '{sym}'",
    "error: cannot convert value of type 'Int' to expected argument type '{Type}'",
    "error: missing argument for parameter '{sym}' in call",
    "error: extra argument '{sym}' in call",
    "error: '{sym}()' is only available in iOS 17.0 or newer",
    "error: type '{Type}' does not conform to protocol 'Hashable'",
    "error: incorrect argument label in call (have '{sym}:', expected 'with:')",
    "error: use of unresolved identifier '{sym}'",
    "error: no such module '{Type}Kit'",
    "error: invalid redeclaration of '{sym}()'",
    "error: switch must be exhaustive",
    "error: expected ',' separator",
    "warning: variable '{sym}' was never mutated; consider changing to 'let' constant",
    "warning: initialization of immutable value '{sym}' was never used; consider replacing with assignment to '_' or removing it",
]

UNKNOWN = [
    "error: {tool}: asset pipeline step {n} stopped with status 3",
    "error: {tool} reported {n} problems in the widget manifest",
    "{path}:{line}:{col}: error: frobnicated handle {n} is not wibbled",
    "ERROR: {tool} gave up on shard {n}",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--mb", type=float, default=200.0, help="size in MB (10^6 bytes), default 200")
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    target = int(args.mb * 1_000_000)
    written = 0
    n = 0
    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        lines = []
        while written < target:
            n += 1
            module = f"Module{n % 97}"
            path = f"/Users/runner/work/App/App/Sources/{module}/File{n}.swift"
            fields = {
                "sym": f"value{n}", "Type": f"Model{n}", "n": n, "tool": f"tool{n % 13}",
                "path": path, "line": rnd.randint(1, 2000), "col": rnd.randint(1, 120),
            }
            roll = rnd.random()
            if roll < 0.14:
                text = rnd.choice(UNKNOWN).format(**fields)
            else:
                message = rnd.choice(COMPILER).format(**fields)
                text = f"{path}:{fields['line']}:{fields['col']}: {message}"
            lines.append(text)
            if roll > 0.9:  # the source line and caret the compiler prints under some errors
                lines.append(f"        let result{n} = compute(value{n}, flag: true)")
                lines.append(" " * 20 + "^~~~~~~~")
            if len(lines) >= 4096:
                block = "\n".join(lines) + "\n"
                out.write(block)
                written += len(block.encode())
                lines = []
        if lines:
            out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
