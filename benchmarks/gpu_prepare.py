#!/usr/bin/python3
"""gpu_prepare.py - everything the GPU check needs, compiled here.

    gpu_prepare.py [--build DIR] [--out gpu-bundle] [--no-resnet]

The lent GPU machine has CUDA and PyTorch but no LLVM or MLIR, so models
are compiled here with `tsir-compile --device cuda` (host code for a
generic x86-64-v3, since that machine's CPU is not this one) and carried
there with the runtime's runner. The bundle (64 MiB at most travels):

  bin/tsir-run-model, lib/libTsirRuntime.so   the runner, built here
  corpus/<case>/   model.so + the corpus case's inputs, outputs and meta
  bench/<name>.so  the benchmark graphs of gpu_check.py, compiled for the
                   shapes it runs (inputs are made there: 4M and 4096x4096
                   floats are too large to carry)
  bench/resnet18.safetensors + resnet18_b1.so, resnet18_b32.so
                   torchvision's ResNet-18 (seeded weights, frozen), the
                   weights kept outside the libraries (--external-weights)
                   and shared by both batches; resnet18_in.npy and
                   resnet18_out.npy are eager torch's batch-1 input and
                   output here, for the correctness check

Then, on the GPU machine: `python3 benchmarks/gpu_check.py gpu-bundle`.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))
import tsir_run  # noqa: E402

TARGET = ["--device", "cuda", "--target-cpu", "x86-64-v3", "--quiet"]

# Benchmark graphs: (name, graph text, spec).
POINTWISE = open(os.path.join(ROOT, "..", "shared", "corpus", "pointwise_chain",
                              "graph.txt")).read() if os.path.isdir(
    os.path.join(ROOT, "..", "shared", "corpus")) else None
MATMUL = """graph(%a : Tensor, %b : Tensor):
  %c : Tensor = aten::mm(%a, %b)
  return (%c)
"""
MLP = """graph(%x : Tensor, %w1 : Tensor, %b1 : Tensor, %w2 : Tensor, %b2 : Tensor,
      %w3 : Tensor, %b3 : Tensor):
  %h1 : Tensor = aten::linear(%x, %w1, %b1)
  %r1 : Tensor = aten::relu(%h1)
  %h2 : Tensor = aten::linear(%r1, %w2, %b2)
  %r2 : Tensor = aten::relu(%h2)
  %y : Tensor = aten::linear(%r2, %w3, %b3)
  return (%y)
"""
MLP_SPEC = ", ".join(["Float(64, 1024)"] + ["Float(1024, 1024)", "Float(1024)"] * 3)


def compile_model(tools, graph, out, extra):
    start = time.perf_counter()
    done = subprocess.run([os.path.join(tools, "tsir-compile"), graph, "-o", out]
                          + TARGET + extra, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(f"FAIL {os.path.basename(out)}: {done.stdout}{done.stderr}")
        return False
    print(f"compiled {os.path.relpath(out)} in {seconds:.1f} s")
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "gpu-bundle"))
    parser.add_argument("--no-resnet", action="store_true")
    args = parser.parse_args()
    tools = os.path.join(args.build, "bin")
    shutil.rmtree(args.out, ignore_errors=True)
    for sub in ("bin", "lib", "corpus", "bench"):
        os.makedirs(os.path.join(args.out, sub))
    shutil.copy2(os.path.join(tools, "tsir-run-model"), os.path.join(args.out, "bin"))
    shutil.copy2(os.path.join(args.build, "lib", "libTsirRuntime.so"),
                 os.path.join(args.out, "lib"))

    corpus = os.path.join(ROOT, "..", "shared", "corpus")
    failures = 0
    for case in tsir_run.corpus_cases(corpus):
        target = os.path.join(args.out, "corpus", case.name)
        shutil.copytree(case.directory, target,
                        ignore=shutil.ignore_patterns("weights.safetensors"))
        extra = ["--weights", case.weights] if case.weights else []
        for path in case.input_paths:
            extra += ["--input", path]
        failures += not compile_model(tools, case.graph,
                                      os.path.join(target, "model.so"), extra)

    bench = os.path.join(args.out, "bench")
    graphs = [("pointwise_4m", POINTWISE, "Float(4194304), Float(4194304)"),
              ("pointwise_64m", POINTWISE, "Float(67108864), Float(67108864)"),
              ("matmul_4096", MATMUL, "Float(4096, 4096), Float(4096, 4096)"),
              ("mlp", MLP, MLP_SPEC)]
    for name, text, spec in graphs:
        path = os.path.join(bench, name + ".txt")
        with open(path, "w") as f:
            f.write(text)
        failures += not compile_model(tools, path, os.path.join(bench, name + ".so"),
                                      ["--spec", spec])
        os.remove(path)

    if not args.no_resnet:
        import numpy as np
        import torch
        import torchvision
        from run_models import export
        torch.manual_seed(0)
        model = torchvision.models.resnet18(weights=None).eval()
        work = os.path.join(bench, "resnet18")
        frozen = export(model, work)
        x = torch.randn(1, 3, 224, 224)
        with torch.no_grad():
            y = frozen(x)
        np.save(os.path.join(bench, "resnet18_in.npy"), x.numpy())
        np.save(os.path.join(bench, "resnet18_out.npy"), y.numpy())
        weights = os.path.join(bench, "resnet18.safetensors")
        os.rename(os.path.join(work, "weights.safetensors"), weights)
        for batch in (1, 32):
            failures += not compile_model(
                tools, os.path.join(work, "graph.txt"),
                os.path.join(bench, f"resnet18_b{batch}.so"),
                ["--weights", weights, "--external-weights",
                 "--spec", f"Float({batch}, 3, 224, 224)"])
        shutil.rmtree(work)
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, files in os.walk(args.out) for f in files)
    print(f"bundle: {args.out}, {size / 2**20:.1f} MiB")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
