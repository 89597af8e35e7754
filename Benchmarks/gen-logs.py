#!/usr/bin/env python3
"""Benchmark logs of real shape, made from the repository's own corpus (Tests/Corpus), any size.

    python3 Benchmarks/gen-logs.py SHAPE BYTES OUT

Shapes (each line distinct where a real log's lines are: paths, names and line numbers vary, so no
cache of repeated lines can make a shape cheaper than the log it stands for):

  quiet        a green raw `xcodebuild build`: per file a CompileSwift step with its `cd` and the
               swift-frontend command line (most of a real log's bytes), SwiftDriver, Ld, CodeSign,
               the odd deprecation warning, and one line in 50 from the corpus's passing logs
               (xcodebuild, xcbeautify, fastlane, `swift build`, CI output of builds that succeeded)
  tests        `xcodebuild test` and `swift test` output: XCTest suites and cases (started/passed,
               one in 200 failing with its assertion), Swift Testing's ✔/✘ lines, `swift build` progress
  errors       a broken module: distinct compiler errors as swiftc prints them (error line, source
               line, caret), messages taken from the corpus's failing logs, identifiers varied; one
               block in four as xcbeautify prints it (❌)
  unknown      errors no rule knows, in the shapes the scanner keeps as unrecognised (`error: ...`,
               `tool: error: ...`, `Error: ...`, `[!] ...`), words varied, between build lines
  hugeline     one line of BYTES: an xcodebuild command line of include paths, ending in an error

The same SHAPE and BYTES give the same bytes (fixed seed). Beyond 8 MB the distinct unit is copied
with every path and XCTest class renamed per copy (App -> App2 ...): Swift Testing's lines and the
corpus's passing lines repeat every 8 MB, everything else stays distinct.
"""
import os
import random
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CORPUS = os.path.join(ROOT, "Tests", "Corpus")


def corpus_cases():
    passing, failing = [], []
    with open(os.path.join(CORPUS, "labels.tsv"), encoding="utf-8") as f:
        next(f)
        for row in f:
            cols = row.rstrip("\n").split("\t")
            path = os.path.join(CORPUS, "cases", cols[0])
            with open(path, encoding="utf-8", errors="replace") as c:
                lines = c.read().splitlines()
            (passing if cols[1] == "none" else failing).append(lines)
    return passing, failing


ERROR_LINE = re.compile(r"([^\s:]+\.(?:swift|m|mm|h|c|cpp|hpp)):(\d+):(?:(\d+):)? error: (.+)$")
QUOTED = re.compile(r"'([A-Za-z_][A-Za-z0-9_.]*)'")

WORDS = ("widget gizmo sprocket lattice harbor quartz meadow falcon ember cobalt juniper orbit "
         "pylon saffron tundra velvet willow zephyr anchor bramble cinder drift fathom glacier "
         "hollow ivory jasper kestrel lumen marble nimbus onyx prism quill russet sable thistle").split()


class Gen:
    def __init__(self, shape, seed=17):
        self.shape = shape
        self.rng = random.Random(seed)
        self.n = 0
        passing, failing = corpus_cases()
        self.passing_lines = [l for case in passing for l in case if l.strip()]
        msgs = []
        for case in failing:
            for line in case:
                m = ERROR_LINE.match(line)
                if m:
                    msgs.append(m.group(4))
        self.error_messages = sorted(set(msgs))
        self.modules = [f"Feature{i}" for i in range(40)]

    def path(self):
        r = self.rng
        mod = r.choice(self.modules)
        return f"/Users/runner/work/App/App/Sources/{mod}/{r.choice(WORDS).capitalize()}{r.randrange(10000)}View.swift", mod

    def words(self, k):
        return " ".join(self.rng.choice(WORDS) for _ in range(k))

    # -- quiet build
    def compile_step(self):
        p, mod = self.path()
        others = " ".join(f"/Users/runner/work/App/App/Sources/{mod}/{self.rng.choice(WORDS).capitalize()}{self.rng.randrange(10000)}.swift"
                          for _ in range(12))
        dd = "/Users/runner/Library/Developer/Xcode/DerivedData/App-gsdjqbcxofzmkaeqwvhoxlrtmmrd"
        return (
            f"CompileSwift normal arm64 {p} (in target '{mod}' from project 'App')\n"
            f"    cd /Users/runner/work/App\n"
            f"    builtin-swiftTaskExecution -- /Applications/Xcode_16.2.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift-frontend "
            f"-frontend -c {others} -primary-file {p} -emit-dependencies-path {dd}/Build/Intermediates.noindex/App.build/Debug-iphonesimulator/{mod}.build/Objects-normal/arm64/{os.path.basename(p)[:-6]}.d "
            f"-emit-module-path {dd}/Build/Intermediates.noindex/{mod}.swiftmodule -target arm64-apple-ios17.0-simulator -enable-objc-interop "
            f"-sdk /Applications/Xcode_16.2.app/Contents/Developer/Platforms/iPhoneSimulator.platform/Developer/SDKs/iPhoneSimulator18.2.sdk "
            f"-I {dd}/Build/Products/Debug-iphonesimulator -F {dd}/Build/Products/Debug-iphonesimulator/PackageFrameworks -no-color-diagnostics "
            f"-enable-testing -g -swift-version 6 -enforce-exclusivity=checked -Onone -D DEBUG -module-name {mod} -frontend-parseable-output "
            f"-disable-clang-spi -target-sdk-version 18.2 -o {dd}/Build/Intermediates.noindex/{mod}.build/Objects-normal/arm64/{os.path.basename(p)[:-6]}.o\n"
            f"\n"
        )

    def quiet(self):
        r = self.rng.random()
        if r < 0.80:
            return self.compile_step()
        if r < 0.86:
            p, mod = self.path()
            return f"{p}:{self.rng.randrange(1, 900)}:{self.rng.randrange(1, 80)}: warning: '{self.rng.choice(WORDS)}{self.rng.randrange(999)}' was deprecated in iOS 17.0: Use the {self.rng.choice(WORDS)} API instead\n"
        if r < 0.92:
            _, mod = self.path()
            kind = self.rng.choice(["SwiftDriver", "Ld", "CodeSign", "ProcessInfoPlistFile", "CopySwiftLibs", "GenerateDSYMFile"])
            return f"{kind} {mod} normal arm64 com.apple.xcode.tools.swift.compiler (in target '{mod}' from project 'App')\n    cd /Users/runner/work/App\n    /usr/bin/{kind.lower()} {self.words(6)}\n\n"
        return self.rng.choice(self.passing_lines) + "\n"

    # -- test-heavy
    def tests(self):
        r = self.rng
        self.n += 1
        n = self.n
        suite = f"{r.choice(WORDS).capitalize()}{n % 300}Tests"
        name = f"test{r.choice(WORDS).capitalize()}{n}"
        t = f"{r.random() * 0.05:.3f}"
        x = r.random()
        if x < 0.55:
            out = (f"Test Case '-[AppTests.{suite} {name}]' started.\n"
                   f"Test Case '-[AppTests.{suite} {name}]' passed ({t} seconds).\n")
            if n % 200 == 0:
                p, _ = self.path()
                out = (f"Test Case '-[AppTests.{suite} {name}]' started.\n"
                       f"{p.replace('View.swift', 'Tests.swift')}:{r.randrange(10, 400)}: error: -[AppTests.{suite} {name}] : XCTAssertEqual failed: (\"{n}\") is not equal to (\"{n + 1}\")\n"
                       f"Test Case '-[AppTests.{suite} {name}]' failed ({t} seconds).\n")
            return out
        if x < 0.85:
            return (f"\u25c7 Test {name}() started.\n"
                    f"\u2714 Test {name}() passed after {t} seconds.\n")
        if x < 0.95:
            return (f"Test Case '{suite}.{name}' started at 2025-08-10 01:38:55.{n % 1000:03d}\n"
                    f"Test Case '{suite}.{name}' passed ({t} seconds)\n")
        if x < 0.99:
            return f"[{n % 900}/{900}] Compiling {r.choice(self.modules)} {r.choice(WORDS).capitalize()}{n}.swift\n"
        return (f"Test Suite '{suite}' passed at 2025-08-10 01:38:55.{n % 1000:03d}.\n"
                f"\t Executed {n % 50} tests, with 0 failures (0 unexpected) in {t} ({t}) seconds\n")

    # -- error-dense
    def errors(self):
        r = self.rng
        self.n += 1
        n = self.n
        msg = QUOTED.sub(lambda m: f"'{m.group(1)}{n}'", r.choice(self.error_messages))
        p, _ = self.path()
        line, col = r.randrange(1, 2000), r.randrange(1, 60)
        if n % 4 == 0:
            return f"❌ {p}:{line}:{col}: {msg}\n    let value{n} = {r.choice(WORDS)}{n}.{r.choice(WORDS)}\n    ^\n"
        return f"{p}:{line}:{col}: error: {msg}\n        let value{n} = {r.choice(WORDS)}{n}.{r.choice(WORDS)}\n{' ' * (8 + col % 20)}^~~~~~~\n"

    # -- unrecognised-error-dense
    def unknown(self):
        r = self.rng
        self.n += 1
        n = self.n
        form = n % 5
        words = f"{self.words(4)} {n} {self.words(3)}"
        where = f"/Users/runner/work/App/build/{r.choice(WORDS)}{n}"
        if form == 0:
            return f"error: {words} at {where}\n"
        if form == 1:
            return f"{r.choice(WORDS)}tool: error: {words} ({where})\n"
        if form == 2:
            return f"Error: {words} in {where}\n"
        if form == 3:
            return f"[!] {words} for {where}\n"
        return f"note: {self.words(6)} {n}\n"


def write(shape, size, out):
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        if shape == "hugeline":
            head = "    /Applications/Xcode_16.2.app/Contents/Developer/usr/bin/xcodebuild -scheme App"
            tail = " error: the command line above is too long\n"
            f.write(head.encode())
            left = size - len(head) - len(tail)
            i = 0
            chunk = []
            written = 0
            while written < left:
                part = f" -I/Users/runner/work/App/App/Sources/Feature{i % 40}/include/{i}"
                chunk.append(part)
                written += len(part)
                i += 1
                if len(chunk) >= 4096:
                    f.write("".join(chunk).encode())
                    chunk = []
            f.write("".join(chunk).encode())
            f.write(tail.encode())
        else:
            # A unit of distinct lines (at most UNIT bytes), then copies of it in which every path and
            # test class names the copy (App -> App2, ...), so lines stay distinct across copies too.
            g = Gen(shape)
            make = getattr(g, shape)
            buf = []
            written = 0
            while written < min(size, UNIT):
                s = make()
                buf.append(s)
                written += len(s.encode("utf-8"))
            unit = "".join(buf).encode("utf-8")
            if shape == "quiet":
                f.write(b"Command line invocation:\n    /Applications/Xcode_16.2.app/Contents/Developer/usr/bin/xcodebuild -scheme App -destination generic/platform=iOS build\n\n")
            done, k = 0, 0
            while done < size:
                part = unit if k == 0 else unit.replace(b"/Users/runner/work/App", b"/Users/runner/work/App%d" % k).replace(b"AppTests.", b"App%dTests." % k)
                if done + len(part) > size:
                    cut = part.rfind(b"\n", 0, size - done)
                    if cut < 0:
                        break
                    part = part[:cut + 1]
                f.write(part)
                done += len(part)
                k += 1
            if shape == "quiet":
                f.write(b"** BUILD SUCCEEDED **\n")
    os.replace(tmp, out)


UNIT = 8_000_000
SHAPES = ("quiet", "tests", "errors", "unknown", "hugeline")

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in SHAPES:
        sys.stderr.write(__doc__)
        sys.exit(2)
    write(sys.argv[1], int(sys.argv[2]), sys.argv[3])
