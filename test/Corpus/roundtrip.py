#!/usr/bin/env python3
"""roundtrip.py - every corpus graph imports, verifies, exports and re-imports.

For each graph under the corpus (case folders and formats/): import it (with
its weights when it has them), export the module back to TorchScript text,
import that text again, and require the two modules to print identically.
The same again from the module printed without debug info, as `tsir-opt`
writes it by default: value names are gone then, but weight constants must
still export under their weight key, or the text no longer reads its
weights file. Prints one line per graph and exits non-zero on any failure.
"""

import pathlib
import subprocess
import sys


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, capture_output=True, text=True)


def main():
    translate, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
    graphs = sorted(corpus.glob("*/graph.txt")) + sorted(corpus.glob("formats/*.txt"))
    if len(graphs) < 20:
        print(f"expected the whole corpus under {corpus}, found {len(graphs)} graphs")
        return 1
    failures = 0
    for graph in graphs:
        weights = graph.parent / "weights.safetensors"
        extra = ["--weights", str(weights)] if weights.exists() else []
        first = run([translate, "--import-torchscript", str(graph)] + extra)
        if first.returncode:
            print(f"FAIL import {graph}\n{first.stderr}")
            failures += 1
            continue
        # Names and source comments travel in locations, so the module that
        # is exported carries them; the comparison is on the plain printing.
        located = run([translate, "--import-torchscript", str(graph),
                       "--mlir-print-debuginfo"] + extra)
        exported = run([translate, "--export-torchscript"], located.stdout)
        if exported.returncode:
            print(f"FAIL export {graph}\n{exported.stderr}")
            failures += 1
            continue
        second = run([translate, "--import-torchscript", "-"] + extra, exported.stdout)
        if second.returncode:
            print(f"FAIL re-import {graph}\n{second.stderr}\n{exported.stdout}")
            failures += 1
            continue
        if first.stdout != second.stdout:
            print(f"FAIL round trip changed the module: {graph}")
            failures += 1
            continue
        plain = run([translate, "--export-torchscript"], first.stdout)
        third = run([translate, "--import-torchscript", "-"] + extra, plain.stdout)
        if plain.returncode or third.returncode or first.stdout != third.stdout:
            print(f"FAIL round trip without debug info: {graph}\n{third.stderr}")
            failures += 1
            continue
        print(f"OK {graph.relative_to(corpus)}")
    print(f"{len(graphs) - failures}/{len(graphs)} graphs round-trip")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
