#!/usr/bin/python3
"""helgrind_tsir_races.py - count helgrind's data races in tsir's own code.

    valgrind --tool=helgrind PROGRAM ... 2>&1 | helgrind_tsir_races.py

Reads helgrind's report on stdin and prints `data races in tsir's code: N`,
then each such race's two innermost frames. A race counts when the
innermost frame of either access (the `at` line of the race or of the
access it conflicts with) is in a tsir binary or library rather than in
LLVM, MLIR or the C and C++ libraries: LLVM's own lazily built tables
(TargetLibraryInfo) show up as races helgrind cannot see ordered, and are
not tsir's to fix.
"""

import re
import sys

AT = re.compile(r"==\d+==\s+at 0x[0-9A-F]+: (.*)")


def in_tsir(frame):
    where = re.search(r"\(in ([^)]*)\)\s*$", frame)
    if where:
        return "tsir" in where.group(1).lower()
    # A frame with source information (file:line) is from a binary built
    # with debug info: only tsir's are.
    return "tsir" in frame.lower()


def main():
    races = []
    current = None
    for line in sys.stdin:
        if "Possible data race" in line:
            current = [line.strip()]
            races.append(current)
        elif current is not None:
            match = AT.match(line)
            if match:
                current.append(match.group(1))
    ours = [race for race in races if any(in_tsir(f) for f in race[1:])]
    print(f"data races in tsir's code: {len(ours)} (helgrind reported "
          f"{len(races)})")
    for race in ours:
        print("  " + race[0])
        for frame in race[1:]:
            print("    at " + frame)
    return 0


if __name__ == "__main__":
    sys.exit(main())
