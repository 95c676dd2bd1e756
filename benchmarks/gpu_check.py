#!/usr/bin/env python3
"""gpu_check.py - tsir's CUDA models on a GPU, against PyTorch there.

    gpu_check.py BUNDLE [--runs N] [--report FILE]

Runs on the lent GPU machine, over the bundle gpu_prepare.py wrote here
(that machine has no LLVM or MLIR, so nothing is compiled there). It uses
that machine's python3: numpy and a CUDA PyTorch, the oracle and baseline.

1. The corpus: every case's model.so on the case's inputs, outputs compared
   with PyTorch's (the corpus's out*.npy, at the case's tolerance).
2. Benchmarks, each checked against torch on the same inputs first:
   - the pointwise chain at 4M and 64M floats, against the floor of one
     pass over its bytes at the measured device-to-device copy rate;
   - mm 4096x4096 in f32 against cuBLAS (TF32 off);
   - an MLP of 3 linear layers of 1024 at batch 64;
   - torchvision's ResNet-18 at batch 1 and 32 (cuDNN, TF32 off).

tsir's model.so takes host arrays and returns host arrays: a call copies
its inputs (and, today, its weights) to the device and its results back.
So each row gives torch twice: `torch e2e` does the same (numpy in, torch
tensors moved to the GPU, computed, moved back), and `torch dev` is the
computation alone on device-resident tensors (CUDA events). The ratio is
tsir over torch e2e. Medians of N runs after warm-up.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
import tsir_run  # noqa: E402


def runner(bundle):
    """The runner carried in the bundle, or one built here from the
    runtime's sources when the carried one does not start."""
    carried = os.path.join(bundle, "bin", "tsir-run-model")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(bundle, "lib"))
    if subprocess.run([carried, "--help"], env=env, capture_output=True).returncode == 0:
        os.environ["LD_LIBRARY_PATH"] = env["LD_LIBRARY_PATH"]
        return carried
    print("the carried runner does not start here; building the runtime")
    build = "/tmp/build-rt"
    subprocess.run(["cmake", "-S", os.path.join(ROOT, "runtime"), "-B", build, "-G",
                    "Ninja", "-DCMAKE_BUILD_TYPE=Release"], check=True,
                   capture_output=True)
    subprocess.run(["ninja", "-C", build], check=True, capture_output=True)
    return os.path.join(build, "bin", "tsir-run")


def bench_tsir(run, model, inputs, outdir, runs, weights=None):
    """(median ms, output arrays) of `model` on `inputs`."""
    extra = ["--bench", str(runs)] if runs else []
    code, output = tsir_run.run(run, model, inputs, outdir, weights=weights,
                                threads=None, extra=extra, timeout=300)
    if code != 0:
        raise RuntimeError(output.strip()[-600:])
    median = re.search(r"median ([0-9.]+) ms", output)
    outs = [np.load(path) for path in sorted(
        glob.glob(os.path.join(outdir, "out*.npy")),
        key=lambda p: int(os.path.basename(p)[3:-4]))]
    return (float(median.group(1)) if median else None), outs


def torch_times(fn, host_inputs, runs):
    """(e2e ms, device ms) medians of `fn` on torch tensors."""
    import torch
    device_inputs = [torch.from_numpy(a).cuda() for a in host_inputs]
    for _ in range(3):
        fn(*device_inputs)
    torch.cuda.synchronize()
    device_ms = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*device_inputs)
        stop.record()
        stop.synchronize()
        device_ms.append(start.elapsed_time(stop))
    e2e_ms = []
    for _ in range(runs):
        begin = time.perf_counter()
        result = fn(*[torch.from_numpy(a).cuda() for a in host_inputs])
        result.cpu()
        e2e_ms.append((time.perf_counter() - begin) * 1e3)
    return float(np.median(e2e_ms)), float(np.median(device_ms))


def copy_rate():
    """Device-to-device copy rate, bytes read plus written per second."""
    import torch
    a = torch.empty(2**28, dtype=torch.float32, device="cuda")
    b = torch.empty_like(a)
    b.copy_(a)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(10):
        b.copy_(a)
    stop.record()
    stop.synchronize()
    return 2 * a.numel() * 4 * 10 / (start.elapsed_time(stop) / 1e3)


def check_corpus(run, bundle, lines):
    failures = 0
    cases = list(tsir_run.corpus_cases(os.path.join(bundle, "corpus")))
    for case in cases:
        outdir = tempfile.mkdtemp(prefix=case.name)
        try:
            bench_tsir(run, os.path.join(case.directory, "model.so"),
                       case.inputs(), outdir, 0)
            problem = case.compare(outdir, threads=None)
        except RuntimeError as error:
            problem = f"the run failed: {error}"
        failures += bool(problem)
        line = f"{'FAIL' if problem else 'PASS'} {case.name}" + (
            f": {problem}" if problem else ": matches PyTorch on the GPU")
        print(line, flush=True)
        lines.append(line)
    summary = f"cuda corpus: {len(cases) - failures} of {len(cases)} match PyTorch"
    print(summary, flush=True)
    lines.append(summary)
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--report")
    args = parser.parse_args()
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}",
          flush=True)
    run = runner(args.bundle)
    lines = []
    failures = check_corpus(run, args.bundle, lines)

    rate = copy_rate()
    print(f"device-to-device copy: {rate / 1e12:.2f} TB/s", flush=True)
    bench = os.path.join(args.bundle, "bench")
    rng = np.random.default_rng(0)
    rows = []

    def row(name, model, host, fn, tolerance, floor_ms=None, weights=None,
            expected=None, runs=args.runs):
        nonlocal failures
        outdir = tempfile.mkdtemp(prefix=name)
        try:
            ms, outs = bench_tsir(run, model, host, outdir, runs, weights)
        except RuntimeError as error:
            failures += 1
            print(f"FAIL {name}: {error}", flush=True)
            rows.append(f"| {name} | fails | | | | |")
            return
        if expected is None:
            with torch.no_grad():
                expected = fn(*[torch.from_numpy(a).cuda() for a in host]).cpu().numpy()
        error = float(np.max(np.abs(outs[0].astype(np.float64) - expected)))
        scale = float(np.max(np.abs(expected))) or 1.0
        right = outs[0].shape == expected.shape and error <= tolerance * scale
        failures += not right
        with torch.no_grad():
            e2e, dev = torch_times(fn, host, runs)
        floor = f"{floor_ms:.3f}" if floor_ms else ""
        line = (f"| {name} | {'right' if right else 'WRONG'} (max err {error:.2g}) | "
                f"{ms:.3f} | {e2e:.3f} | {dev:.3f} | {floor} | {ms / e2e:.2f} |")
        print(line, flush=True)
        rows.append(line)

    def chain(a, b):
        c = a + b
        d = c * c
        e = torch.tanh(d * c)
        return d + (e + e)

    for label, n in (("4m", 2**22), ("64m", 2**26)):
        host = [rng.standard_normal(n, dtype=np.float32) for _ in range(2)]
        row(f"pointwise_{label}", os.path.join(bench, f"pointwise_{label}.so"), host,
            chain, 1e-5, floor_ms=3 * n * 4 / rate * 1e3)
    host = [rng.standard_normal((4096, 4096), dtype=np.float32) for _ in range(2)]
    row("matmul_4096", os.path.join(bench, "matmul_4096.so"), host, torch.mm, 1e-4,
        runs=5)
    mlp = [rng.standard_normal((64, 1024), dtype=np.float32)]
    for _ in range(3):
        mlp += [rng.standard_normal((1024, 1024), dtype=np.float32) / 32,
                rng.standard_normal(1024, dtype=np.float32)]

    def mlp_fn(x, w1, b1, w2, b2, w3, b3):
        import torch.nn.functional as F
        return F.linear(F.relu(F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)), w3, b3)

    row("mlp", os.path.join(bench, "mlp.so"), mlp, mlp_fn, 1e-4)

    weights = os.path.join(bench, "resnet18.safetensors")
    if os.path.exists(weights):
        import torchvision
        net = torchvision.models.resnet18(weights=None).eval().cuda()
        for batch in (1, 32):
            if batch == 1:
                host = [np.load(os.path.join(bench, "resnet18_in.npy"))]
                expected = np.load(os.path.join(bench, "resnet18_out.npy"))
            else:
                host = [rng.standard_normal((32, 3, 224, 224), dtype=np.float32)]
                expected = None  # weights differ from torch's net: time only
            model = os.path.join(bench, f"resnet18_b{batch}.so")
            if expected is None:
                outdir = tempfile.mkdtemp(prefix="resnet18")
                try:
                    ms, outs = bench_tsir(run, model, host, outdir, args.runs, weights)
                except RuntimeError as error:
                    failures += 1
                    print(f"FAIL resnet18_b32: {error}", flush=True)
                    continue
                with torch.no_grad():
                    e2e, dev = torch_times(net, host, args.runs)
                line = (f"| resnet18_b32 | shape {outs[0].shape} (time only) | "
                        f"{ms:.3f} | {e2e:.3f} | {dev:.3f} | | {ms / e2e:.2f} |")
                print(line, flush=True)
                rows.append(line)
            else:
                with torch.no_grad():
                    row("resnet18_b1", model, host, net, 1e-3, weights=weights,
                        expected=expected)

    table = ["| graph | result | tsir ms | torch e2e ms | torch dev ms "
             "| floor ms | tsir / torch e2e |",
             "| --- | --- | --- | --- | --- | --- | --- |"] + rows
    report = "\n".join(lines + ["", f"device-to-device copy: {rate / 1e12:.2f} TB/s",
                                ""] + table) + "\n"
    print("\n".join(table))
    if args.report:
        with open(args.report, "w") as f:
            f.write(report)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
