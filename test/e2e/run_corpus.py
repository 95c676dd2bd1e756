#!/usr/bin/python3
"""run_corpus.py - every data case of the shared corpus through tsir-run.

    run_corpus.py TSIR_RUN CORPUS_DIR [--keep DIR]

Runs each case that has inputs (`in*.npy`) or expected outputs, with its
weights if it has them, and compares the outputs with PyTorch's recorded
`out*.npy` within the case's rtol/atol. Prints one line per case and a
summary; exits non-zero if any case fails.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import tsir_run  # noqa: E402


def main():
    tsir = sys.argv[1]
    corpus = sys.argv[2]
    work = tempfile.mkdtemp(prefix="tsir-corpus-")
    failures = 0
    ran = 0
    skipped = []
    for case in tsir_run.corpus_cases(corpus, skipped):
        name = case.name
        outdir = os.path.join(work, name)
        problem = case.run_and_compare(tsir, case.graph, outdir,
                                       weights=case.weights)
        ran += 1
        failures += tsir_run.report(name, problem)
    for name in skipped:
        print(f"SKIP {name}: parse-only (no data)")
    print(f"corpus: {ran - failures} of {ran} cases match PyTorch, "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
