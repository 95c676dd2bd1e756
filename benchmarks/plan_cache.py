#!/usr/bin/python3
"""plan_cache.py - what the persistent plan cache saves a second process.

    plan_cache.py [--build DIR] [--model NAME ...]

For each torchvision model (seeded weights, frozen, batch 1; test/models/
zoo.py builds them), three `tsir-run` processes on the same graph and
inputs: one without the cache (`--plan-cache off`), then two with a fresh
cache, the first compiling into it and the second loading from it. For each
it gives the compile (or load) time tsir-run reports and the wall time of
the whole process (start, import, weights, plan, one run, outputs written).
A detection model runs in the interpreter: its second process loads each
segment's plan, and the table says how many. The issue's bar: a second
process ready in 100 ms. Prints a markdown table.
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


def input_arguments(inputs, workdir):
    """tsir-run's --input arguments for the model's inputs: a tensor as
    in<i>.npy, a list of tensors as [in<i>-<j>.npy, ...], None as None."""
    import numpy as np
    arguments = []
    for i, value in enumerate(inputs):
        if value is None:
            text = "None"
        elif isinstance(value, list):
            paths = []
            for j, tensor in enumerate(value):
                paths.append(os.path.join(workdir, f"in{i}-{j}.npy"))
                np.save(paths[-1], tensor.numpy())
            text = "[" + ",".join(paths) + "]"
        else:
            text = os.path.join(workdir, f"in{i}.npy")
            np.save(text, value.numpy())
        arguments += ["--input", text]
    return arguments


def tsir_run(tool, workdir, inputs, extra, cache, outdir):
    """(compile seconds as reported, process wall seconds, segment plans
    loaded from the cache)."""
    command = [tool, os.path.join(workdir, "graph.txt"), "--weights",
               os.path.join(workdir, "weights.safetensors"), *inputs,
               "--output-dir", outdir, "--threads", "1", "--quiet",
               "--plan-cache", cache, *extra]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    compile_s = re.search(r"^compile: ([0-9.]+) s", done.stdout, re.M)
    segments = re.search(r"\(([0-9]+) segment plans from the plan cache\)",
                         done.stdout)
    return (float(compile_s.group(1)), wall,
            int(segments.group(1)) if segments else 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--model", action="append")
    args = parser.parse_args()
    import torch
    from run_models import export
    from zoo import DETECTION, build, torchvision_ops
    torch.set_num_threads(1)
    tool = os.path.join(args.build, "bin", "tsir-run")
    work = tempfile.mkdtemp(prefix="tsir-plan-cache-")
    print("| model | no cache: compile s / process s | first: compile s / process s "
          "| second: load ms / process s | segment plans loaded |")
    print("| --- | --- | --- | --- | --- |")
    for name in args.model or ["resnet18", "mobilenet_v3_small", "squeezenet1_1"]:
        workdir = os.path.join(work, name)
        model, inputs = build(name)
        export(model.eval(), workdir)
        arguments = input_arguments(inputs, workdir)
        extra = ["--load-ops", torchvision_ops(tool)] if name in DETECTION else []
        out = os.path.join(workdir, "out")
        cache = os.path.join(workdir, "cache")
        off = tsir_run(tool, workdir, arguments, extra, "off", out)
        first = tsir_run(tool, workdir, arguments, extra, cache, out)
        second = tsir_run(tool, workdir, arguments, extra, cache, out)
        print(f"| {name} | {off[0]:.2f} / {off[1]:.2f} | {first[0]:.2f} / {first[1]:.2f} "
              f"| {second[0] * 1e3:.1f} / {second[1]:.2f} | {second[2] or ''} |",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
