#!/usr/bin/python3
"""aot_run.py - a compiled model.so against the JIT, on the corpus.

    aot_run.py [--build DIR] [--runs N]

For each data case of the shared corpus: `tsir-compile` time and the size
of model.so, the time `tsir-run-model` takes to load it, and the run-time
medians of the model (`tsir-run-model --bench N`) and of the same graph
under the JIT (`tsir-run --bench N`), with their ratio. Both run the same
passes, so the ratio shows what the ahead-of-time path costs or saves at
run time (the call through the model ABI instead of the JIT's packed
call). Prints a markdown table.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
import tsir_run  # noqa: E402


def bench(command, runs):
    done = subprocess.run(command + ["--bench", str(runs)], capture_output=True,
                          text=True, check=True)
    median = float(re.search(r"median ([0-9.]+) ms", done.stdout).group(1))
    load = re.search(r"load: ([0-9.]+) ms", done.stdout)
    return median, float(load.group(1)) if load else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    tools = os.path.join(args.build, "bin")
    corpus = os.path.join(ROOT, "..", "shared", "corpus")
    work = tempfile.mkdtemp(prefix="tsir-aot-bench-")
    print("| case | compile (s) | model.so (KB) | load (ms) | AOT run (ms) "
          "| JIT run (ms) | AOT / JIT |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for case in tsir_run.corpus_cases(corpus):
        inputs = []
        for path in case.input_paths:
            inputs += ["--input", path]
        weights = ["--weights", case.weights] if case.weights else []
        model = os.path.join(work, case.name + ".so")
        start = time.perf_counter()
        subprocess.run([os.path.join(tools, "tsir-compile"), case.graph, "-o",
                        model] + weights + inputs, capture_output=True, check=True)
        compile_seconds = time.perf_counter() - start
        outdir = os.path.join(work, case.name)
        aot, load = bench([os.path.join(tools, "tsir-run-model"), model,
                           "--output-dir", outdir] + inputs, args.runs)
        jit, _ = bench([os.path.join(tools, "tsir-run"), case.graph,
                        "--output-dir", outdir] + weights + inputs, args.runs)
        print(f"| {case.name} | {compile_seconds:.2f} | "
              f"{os.path.getsize(model) / 1024:.0f} | {load:.2f} | "
              f"{aot:.4f} | {jit:.4f} | {aot / jit:.2f} |")


if __name__ == "__main__":
    main()
