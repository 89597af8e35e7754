#!/usr/bin/env python3
"""Writes a synthetic .xcactivitylog body (SLF, uncompressed) of about SIZE megabytes to OUT.

    Benchmarks/slf-gen.py SIZE_MB OUT

The grammar is the one XCLogParser documents ("Xcactivitylog Format", SLF 11): a build log section
holding one target section holding compile steps, each with a few lines of compiler output and
one warning message with a source location, like a real clean build's log. Used by Benchmarks/slf.sh.
"""
import struct
import sys


class Writer:
    def __init__(self, out):
        self.out = out
        self.classes = []
        out.write(b"SLF0")

    def int(self, v): self.out.write(b"%d#" % v)
    def double(self, v): self.out.write(struct.pack("<d", v).hex().encode() + b"^")
    def null(self): self.out.write(b"-")
    def array(self, n): self.out.write(b"%d(" % n)

    def string(self, s):
        b = s.encode() if isinstance(s, str) else s
        self.out.write(b"%d\"" % len(b) + b)

    def instance(self, name):
        if name not in self.classes:
            self.classes.append(name)
            self.out.write(b"%d%%" % len(name) + name.encode())
        self.out.write(b"%d@" % (self.classes.index(name) + 1))

    def section_head(self, title, subsections, cls="IDEActivityLogSection"):
        self.instance(cls)
        self.int(2)
        self.string("com.apple.dt.IDE.BuildLogSection")
        self.string(title)
        self.string(title)
        self.double(780000000.0)
        self.double(780000001.5)
        if subsections: self.array(subsections)
        else: self.null()

    def section_tail(self, text, messages):
        self.string(text) if text is not None else self.null()
        if messages:
            self.array(len(messages))
            for m in messages: self.message(*m)
        else:
            self.null()
        self.int(0); self.int(0); self.int(0)
        self.string("")
        self.null()
        self.string(""); self.string("6F1A2B3C-1234-5678-9ABC-DEF012345678"); self.string("Succeeded"); self.string("")
        self.null()  # no attachments

    def message(self, title, url, line):
        self.instance("IDEDiagnosticActivityLogMessage")
        self.string(title); self.string(title)
        self.int(0); self.int(0); self.int(0)
        self.null()
        self.int(1)
        self.string("Swift Compiler Warning")
        self.instance("DVTTextDocumentLocation")
        self.string(url); self.double(0.0)
        for v in (line, 4, line, 9, 0, 0, 0): self.int(v)
        self.string("")
        self.null()
        self.string("")


def main():
    size = int(float(sys.argv[1]) * 1_000_000)
    with open(sys.argv[2], "wb") as out:
        w = Writer(out)
        # Text of one compile step: the command line and compiler output, as Xcode keeps it.
        def step_text(i):
            return "".join(
                f"    cd /Volumes/workspace/repository/App\n"
                f"    /Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift-frontend -c -primary-file Sources/Feature{i}/View{i}.swift -emit-module-path /tmp/DerivedData/App/Build/Intermediates.noindex/App.build/Debug-iphonesimulator/App.build/Objects-normal/arm64/View{i}.swiftmodule -target arm64-apple-ios17.0-simulator\n"
                f"/Volumes/workspace/repository/App/Sources/Feature{i}/View{i}.swift:{j + 10}:5: warning: variable 'x{j}' was never mutated; consider changing to 'let' constant\n"
                for j in range(3))
        per_step = len(step_text(0)) + 400
        steps = max(1, size // per_step)
        w.int(11)
        w.section_head("Build App", 1, "IDECommandLineBuildLog")
        w.section_head("Build target App", steps)
        for i in range(steps):
            w.section_head(f"Compile View{i}.swift (arm64)", 0)
            url = f"file:///Volumes/workspace/repository/App/Sources/Feature{i}/View{i}.swift"
            w.section_tail(step_text(i), [(f"variable 'x0' was never mutated; consider changing to 'let' constant", url, 9)])
        w.section_tail("", [])
        w.section_tail("", [])


if __name__ == "__main__":
    main()
