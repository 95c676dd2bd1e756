#!/usr/bin/python3
"""plan_cache.py - what the persistent plan cache saves a second process.

    plan_cache.py [--build DIR] [--model NAME ...]

For each torchvision model (seeded weights, frozen, batch 1; test/models/
zoo.py builds them), three `tsir-run` processes on the same graph and
inputs: one without the cache (`--plan-cache off`), then two with a fresh
cache, the first compiling into it and the second loading from it. For each
it gives the compile (or load) time tsir-run reports and the wall time of
the whole process (start, import, weights, plan, one run, outputs written).
The issue's bar: a second process ready in 100 ms. Prints a markdown table.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "models"))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))


def tsir_run(tool, workdir, cache, outdir):
    """(compile seconds as reported, process wall seconds)."""
    command = [tool, os.path.join(workdir, "graph.txt"), "--weights",
               os.path.join(workdir, "weights.safetensors"), "--input",
               os.path.join(workdir, "in0.npy"), "--output-dir", outdir,
               "--threads", "1", "--quiet", "--plan-cache", cache]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    return float(re.search(r"^compile: ([0-9.]+) s", done.stdout, re.M).group(1)), wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--model", action="append")
    args = parser.parse_args()
    import numpy as np
    import torch
    from run_models import export
    from zoo import build
    torch.set_num_threads(1)
    tool = os.path.join(args.build, "bin", "tsir-run")
    work = tempfile.mkdtemp(prefix="tsir-plan-cache-")
    print("| model | no cache: compile s / process s | first: compile s / process s "
          "| second: load ms / process s |")
    print("| --- | --- | --- | --- |")
    for name in args.model or ["resnet18", "mobilenet_v3_small", "squeezenet1_1"]:
        workdir = os.path.join(work, name)
        model, inputs = build(name)
        export(model.eval(), workdir)
        np.save(os.path.join(workdir, "in0.npy"), inputs[0].numpy())
        out = os.path.join(workdir, "out")
        cache = os.path.join(workdir, "cache")
        off = tsir_run(tool, workdir, "off", out)
        first = tsir_run(tool, workdir, cache, out)
        second = tsir_run(tool, workdir, cache, out)
        print(f"| {name} | {off[0]:.2f} / {off[1]:.2f} | {first[0]:.2f} / {first[1]:.2f} "
              f"| {second[0] * 1e3:.1f} / {second[1]:.2f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
