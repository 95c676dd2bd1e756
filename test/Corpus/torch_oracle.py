#!/usr/bin/env python3
"""torch_oracle.py - PyTorch accepts tsir's exports and runs them correctly.

Differential test with Debian's python3-torch as the oracle. For every corpus
case whose original graph torch._C.parse_ir accepts, tsir imports and exports
it; parse_ir must accept the export, and running the exported graph on the
case's inputs must reproduce the case's outputs within its tolerances.
"""

import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import needs_torch  # noqa: E402,F401 (skips the test without torch)
import torch  # noqa: E402
from torch_cases import parses, runs_as_recorded  # noqa: E402


def main():
    translate, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
    checked = failures = 0
    for case in sorted(p.parent for p in corpus.glob("*/meta.json")):
        meta = json.loads((case / "meta.json").read_text())
        original = (case / "graph.txt").read_text()
        if not parses(original):
            print(f"skip {case.name}: torch's parse_ir rejects the original")
            continue
        result = subprocess.run(
            f"{translate} --import-torchscript {case / 'graph.txt'} | "
            f"{translate} --export-torchscript",
            shell=True, capture_output=True, text=True)
        if result.returncode:
            print(f"FAIL {case.name}: tsir failed\n{result.stderr}")
            failures += 1
            continue
        try:
            graph = torch._C.parse_ir(result.stdout)
        except Exception as error:
            print(f"FAIL {case.name}: parse_ir rejects the export: {error}\n{result.stdout}")
            failures += 1
            continue
        checked += 1
        if "parse-only" in meta.get("tags", []):
            print(f"OK {case.name} (parse only)")
            continue
        if not runs_as_recorded(graph, case, meta):
            print(f"FAIL {case.name}: outputs differ from torch's originals")
            failures += 1
            continue
        print(f"OK {case.name}")
    print(f"{checked - failures} exports accepted and run by torch, {failures} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
