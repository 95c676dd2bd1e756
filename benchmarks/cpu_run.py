#!/usr/bin/python3
"""cpu_run.py - tsir-run --bench against PyTorch 1.13 on one thread, same run.

    cpu_run.py [--tsir-run PATH] [--runs N] [--only NAME ...]

For each benchmark: tsir's compile time and `--bench` median (run only,
compile excluded), PyTorch eager and TorchScript medians on the same inputs
with torch.set_num_threads(1), and the ratios. Prints a markdown table.
The pointwise chain also prints its floor: one streaming pass over the same
data (`np.add` of two such arrays into a third).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))
import run_models  # noqa: E402
import tsir_run  # noqa: E402


def pointwise(a, b):
    d = (a + b) * (a + b)
    e = torch.tanh(d * (a + b))
    return d + (e + e)


def lstm_cell(input, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = torch.mm(input, w_ih.t()) + torch.mm(hx, w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy


def median_ms(fn, args, runs):
    for _ in range(min(3, runs)):
        fn(*args)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(*args)
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def cases():
    torch.manual_seed(0)
    n4m = 4 * 1024 * 1024
    yield "pointwise chain, 4M f32", pointwise, None, [torch.randn(n4m), torch.randn(n4m)], 20
    cell = [torch.randn(1, 32), torch.randn(1, 32), torch.randn(1, 32),
            torch.randn(128, 32), torch.randn(128, 32), torch.randn(128), torch.randn(128)]
    yield "LSTM cell, hidden 32, batch 1", lstm_cell, None, cell, 200
    loop = run_models.LSTMLoop(inputs=32, hidden=32)
    yield "LSTM loop, 64 steps, hidden 32, batch 1", None, loop, [
        torch.randn(64, 1, 32), torch.zeros(1, 32), torch.zeros(1, 32)], 50
    import torchvision
    yield "ResNet-18, batch 1, 224x224, frozen", None, torchvision.models.resnet18(), [
        torch.randn(1, 3, 224, 224)], 3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tsir-run", default=os.path.join(ROOT, "build", "bin", "tsir-run"))
    parser.add_argument("--only", action="append")
    args = parser.parse_args()
    torch.set_num_threads(1)
    work = tempfile.mkdtemp(prefix="tsir-bench-")
    rows = []
    for name, fn, module, inputs, runs in cases():
        if args.only and not any(o in name for o in args.only):
            continue
        case_dir = os.path.join(work, re.sub(r"\W+", "_", name))
        os.makedirs(case_dir, exist_ok=True)
        weights = None
        if module is not None:
            scripted = run_models.export(module, case_dir)
            weights = os.path.join(case_dir, "weights.safetensors")
            eager = module.eval()
        else:
            scripted = torch.jit.script(fn)
            graph = scripted.graph.copy()
            torch._C._jit_pass_inline(graph)
            open(os.path.join(case_dir, "graph.txt"), "w").write(str(graph))
            eager = fn
        with torch.no_grad():
            eager_ms = median_ms(eager, inputs, runs)
            script_ms = median_ms(scripted, inputs, runs)
        code, output = tsir_run.run(
            args.tsir_run, os.path.join(case_dir, "graph.txt"),
            [t.numpy() for t in inputs], os.path.join(case_dir, "out"),
            weights=weights, extra=["--bench", str(runs)], timeout=3600,
            threads=(1,))  # one thread, as torch runs here
        if code != 0:
            rows.append((name, "failed: " + output.strip().splitlines()[-1]))
            continue
        compile_s = float(re.search(r"compile: ([0-9.]+) s", output).group(1))
        tsir_ms = float(re.search(r"median ([0-9.]+) ms", output).group(1))
        extra = ""
        if name.startswith("pointwise"):
            a, b = inputs[0].numpy(), inputs[1].numpy()
            out = np.empty_like(a)
            floor = median_ms(lambda: np.add(a, b, out=out), [], 20)
            extra = f"floor (np.add) {floor:.2f} ms, tsir/floor {tsir_ms / floor:.1f}x"
        rows.append((name, f"{compile_s:.2f} s", f"{tsir_ms:.3f}", f"{eager_ms:.3f}",
                     f"{script_ms:.3f}", f"{tsir_ms / eager_ms:.2f}x",
                     f"{tsir_ms / script_ms:.2f}x", extra))
        print(rows[-1], flush=True)
    print()
    print("| benchmark | tsir compile | tsir run (ms) | eager (ms) | TorchScript (ms) "
          "| tsir/eager | tsir/TorchScript | note |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
