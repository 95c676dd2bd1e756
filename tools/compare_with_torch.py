#!/usr/bin/python3
"""compare_with_torch.py - the demo's last step: tsir's outputs against PyTorch's.

    compare_with_torch.py CASE_DIR TSIR_OUT_DIR [TSIR_MEDIAN_MS]

CASE_DIR is in the shared corpus's format (graph.txt, in*.npy, out*.npy,
meta.json). Compares tsir's out*.npy with PyTorch's recorded outputs, then
runs the same graph text with PyTorch itself (torch._C.parse_ir, one
thread) to time it beside tsir.
"""

import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "test", "lib"))
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402


def main():
    case, outdir = sys.argv[1], sys.argv[2]
    tsir_ms = float(sys.argv[3]) if len(sys.argv) > 3 else None
    meta = json.load(open(os.path.join(case, "meta.json")))
    expected = [np.load(os.path.join(case, f"out{i}.npy"))
                for i in range(meta["num_outputs"])]
    problem = tsir_run.compare(expected, outdir, meta["rtol"], meta["atol"],
                               threads=None)
    for i, want in enumerate(expected):
        got = np.load(os.path.join(outdir, f"out{i}.npy"))
        err = np.max(np.abs(got.astype(np.float64) - want.astype(np.float64))) if want.size else 0.0
        print(f"   out{i}: {got.dtype}{list(got.shape)}, max |tsir - torch| = {err:.3g}")
    if problem:
        print(f"   MISMATCH with PyTorch: {problem}")
        return 1
    print(f"   matches PyTorch's outputs (rtol {meta['rtol']}, atol {meta['atol']})")

    torch.set_num_threads(1)
    text = open(os.path.join(case, "graph.txt")).read()
    try:
        graph = torch._C.parse_ir(text)
    except Exception:
        print("   (torch's parse_ir cannot read this graph; no timing)")
        return 0
    fn = torch._C._create_function_from_graph("demo", graph)
    inputs = [torch_cases.to_input(np.load(os.path.join(case, f"in{i}.npy")), t)
              for i, t in enumerate(meta["input_types"])]
    for _ in range(20):
        fn(*inputs)
    times = []
    for _ in range(200):
        start = time.perf_counter()
        fn(*inputs)
        times.append((time.perf_counter() - start) * 1e3)
    torch_ms = float(np.median(times))
    line = f"   PyTorch 1.13 (TorchScript interpreter, 1 thread): median {torch_ms:.3f} ms"
    if tsir_ms:
        line += f"; tsir: median {tsir_ms:.3f} ms ({torch_ms / tsir_ms:.1f}x faster)" \
            if tsir_ms < torch_ms else f"; tsir: median {tsir_ms:.3f} ms ({tsir_ms / torch_ms:.1f}x slower)"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
