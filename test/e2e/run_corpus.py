#!/usr/bin/python3
"""run_corpus.py - every data case of the shared corpus through tsir-run.

    run_corpus.py TSIR_RUN CORPUS_DIR [--keep DIR]

Runs each case that has inputs (`in*.npy`) or expected outputs, with its
weights if it has them, and compares the outputs with PyTorch's recorded
`out*.npy` within the case's rtol/atol. Prints one line per case and a
summary; exits non-zero if any case fails.
"""

import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import tsir_run  # noqa: E402


def main():
    tsir = sys.argv[1]
    corpus = sys.argv[2]
    work = tempfile.mkdtemp(prefix="tsir-corpus-")
    failures = 0
    ran = 0
    for name in sorted(os.listdir(corpus)):
        case = os.path.join(corpus, name)
        meta_path = os.path.join(case, "meta.json")
        if not os.path.isfile(meta_path):
            continue
        meta = json.load(open(meta_path))
        if "parse-only" in meta.get("tags", []):
            print(f"SKIP {name}: parse-only (no data)")
            continue
        inputs = []
        for i, type_name in enumerate(meta["input_types"]):
            array = np.load(os.path.join(case, f"in{i}.npy"), allow_pickle=False)
            # Scalars are stored as 0-d arrays; tsir-run reads them as the
            # scalar the graph takes.
            inputs.append(array)
        expected = [np.load(os.path.join(case, f"out{i}.npy"), allow_pickle=False)
                    for i in range(meta["num_outputs"])]
        weights = os.path.join(case, "weights.safetensors")
        outdir = os.path.join(work, name)
        code, output = tsir_run.run(
            tsir, os.path.join(case, "graph.txt"), inputs, outdir,
            weights=weights if os.path.isfile(weights) else None)
        ran += 1
        if code != 0:
            failures += 1
            print(f"FAIL {name}: tsir-run exited with {code}:\n{output}")
            continue
        problem = tsir_run.compare(expected, outdir, meta["rtol"], meta["atol"])
        if problem:
            failures += 1
            print(f"FAIL {name}: {problem}")
        else:
            print(f"PASS {name}")
    print(f"corpus: {ran - failures} of {ran} cases match PyTorch, "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
