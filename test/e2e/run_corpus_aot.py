#!/usr/bin/python3
"""run_corpus_aot.py - every data case of the shared corpus, compiled ahead
of time with tsir-compile and run by the runtime alone.

    run_corpus_aot.py TSIR_COMPILE TSIR_RUN_MODEL CORPUS_DIR [--external-weights]

For each case with data: `tsir-compile graph.txt --input in0.npy ... -o
case.so` (the spec comes from the example inputs), then `tsir-run-model
case.so --input ...`, which links no MLIR, and a comparison with PyTorch's
recorded outputs within the case's rtol/atol. A graph that only the
interpreter can run (runtime kernels) must be refused by tsir-compile with
a message saying so; that counts as refused, not as a failure. Exits
non-zero if any case fails.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import tsir_run  # noqa: E402


def main():
    compile_tool, run_tool, corpus = sys.argv[1:4]
    external = "--external-weights" in sys.argv[4:]
    work = tempfile.mkdtemp(prefix="tsir-aot-")
    failures = refused = ran = 0
    for case in tsir_run.corpus_cases(corpus):
        name = case.name
        outdir = os.path.join(work, name)
        os.makedirs(outdir)
        model = os.path.join(outdir, "model.so")
        # The weights stay in their safetensors file with --external-weights.
        options = ["-o", model]
        if case.weights and external:
            options.append("--external-weights")
        args = case.compile_args(compile_tool, *options)
        done = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            if "interpreter" in done.stderr or "runtime kernel" in done.stderr:
                refused += 1
                print(f"REFUSED {name}: {done.stderr.strip()}")
                continue
            failures += 1
            print(f"FAIL {name}: tsir-compile exited with {done.returncode}:\n"
                  f"{done.stdout}{done.stderr}")
            continue
        problem = case.run_and_compare(run_tool, model, outdir)
        ran += 1
        failures += tsir_run.report(name, problem)
    print(f"aot corpus: {ran - failures} of {ran} compiled cases match PyTorch, "
          f"{refused} refused, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
