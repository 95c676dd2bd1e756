#!/usr/bin/python3
"""grad_perf.py - forward plus backward with tsir against PyTorch eager.

    PYTHONPATH=build/python_packages /usr/bin/python3 benchmarks/grad_perf.py
        [--runs 20] [--threads 1,2]

For each model, written as a function of its inputs and parameters (or,
for ResNet-18, a torch module in training mode through from_torch), the
time of one forward and backward: tsir.grad's call (the forward and the
backward plans, compiled before timing) against torch eager's forward and
`loss.backward()`, interleaved in the same run, median of --runs, at each
thread count (torch.set_num_threads and tsir's `threads`). The gradients
are checked against torch's first. Also printed: the bytes the forward
saves for the backward in tsir (its extra results) against the tensors
torch's autograd graph holds (its saved tensors, through
torch.autograd.graph.saved_tensors_hooks).

Debian's torch links the generic libblas.so.3, the reference BLAS unless
told otherwise (../shared/ENVIRONMENT.md): the script runs itself again
with OpenBLAS's directory first on LD_LIBRARY_PATH, and checks that
OpenBLAS is what the process mapped.
"""

import argparse
import os
import statistics
import sys
import time

OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
if os.path.isdir(OPENBLAS) and not os.environ.get(
        "LD_LIBRARY_PATH", "").startswith(OPENBLAS):
    os.environ["LD_LIBRARY_PATH"] = OPENBLAS + ":" + os.environ.get(
        "LD_LIBRARY_PATH", "")
    os.execv(sys.executable, [sys.executable] + sys.argv)

import torch
import torch.nn.functional as F

import tsir

# The small CNN of examples/training (batch norm in training mode).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "examples", "training"))
from train_cnn import loss_fn as cnn  # noqa: E402


def mlp(x, target, w1, b1, w2, b2, w3, b3):
    h = F.relu(F.linear(x, w1, b1))
    h = F.relu(F.linear(h, w2, b2))
    return F.cross_entropy(F.linear(h, w3, b3), target)


def block(x, target, g, b, w1, b1, w2, b2):
    h = F.layer_norm(x, [x.shape[-1]], g, b)
    h = F.linear(F.gelu(F.linear(h, w1, b1)), w2, b2)
    return F.mse_loss(x + h, target)


def models():
    torch.manual_seed(0)
    yield "MLP 784-256-128-10, batch 64", mlp, [
        torch.randn(64, 784), torch.randint(0, 10, (64,)),
        torch.randn(256, 784) * 0.05, torch.zeros(256),
        torch.randn(128, 256) * 0.05, torch.zeros(128),
        torch.randn(10, 128) * 0.05, torch.zeros(10)]
    yield "CNN 3-32-64 (train-mode BN), 32x32, batch 16", cnn, [
        torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,)),
        torch.randn(32, 3, 3, 3) * 0.2, torch.zeros(32), torch.ones(32),
        torch.zeros(32), torch.randn(64, 32, 3, 3) * 0.05, torch.zeros(64),
        torch.ones(64), torch.zeros(64), torch.randn(10, 64) * 0.1,
        torch.zeros(10)]
    yield "pre-norm MLP block d=256, 4x, 8x64 tokens", block, [
        torch.randn(8, 64, 256), torch.randn(8, 64, 256), torch.ones(256),
        torch.zeros(256), torch.randn(1024, 256) * 0.05, torch.zeros(1024),
        torch.randn(256, 1024) * 0.05, torch.zeros(256)]


def module_models():
    """Models as torch modules in training mode, through from_torch (every
    parameter a weight) and tsir.grad(wrt="parameters"); the output's
    gradient is a fixed random seed. Timed with fewer runs (a step takes
    seconds)."""
    import torchvision
    torch.manual_seed(0)
    yield ("ResNet-18 (train mode), 224x224, batch 8",
           torchvision.models.resnet18().train(), torch.randn(8, 3, 224, 224))


def wrt_of(inputs):
    return [i for i, v in enumerate(inputs) if v.is_floating_point()
            and i > 0]


def torch_step(fn, inputs, wrt):
    leaves = [v.clone().requires_grad_() if i in wrt else v
              for i, v in enumerate(inputs)]
    loss = fn(*leaves)
    loss.backward()
    return [leaves[i].grad for i in wrt]


def saved_bytes_torch(fn, inputs, wrt):
    total = [0]

    def pack(tensor):
        total[0] += tensor.numel() * tensor.element_size()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        leaves = [v.clone().requires_grad_() if i in wrt else v
                  for i, v in enumerate(inputs)]
        fn(*leaves)
    return total[0]


def median_ms(call, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def blas_in_use():
    with open("/proc/self/maps") as maps:
        names = {os.path.basename(line.split()[5]) for line in maps
                 if len(line.split()) >= 6 and "blas" in line}
    return "OpenBLAS" if any("openblas" in n for n in names) else "reference"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]

    torch.ones(2, 2) @ torch.ones(2, 2)  # loads the BLAS
    print(f"eager PyTorch {torch.__version__} with {blas_in_use()} BLAS")
    print("| model | threads | tsir fwd+bwd ms | eager fwd+bwd ms | ratio |")
    print("| --- | --- | --- | --- | --- |")
    notes = []
    for name, fn, inputs in models():
        scripted = torch.jit.script(fn)
        graph = tsir.from_torch(scripted)
        wrt = wrt_of(inputs)
        names = [value.debugName() for i, value in
                 enumerate(scripted.graph.inputs()) if i in wrt]
        expected = torch_step(fn, inputs, wrt)
        for threads in counts:
            torch.set_num_threads(threads)
            step = tsir.grad(graph, wrt=names, threads=threads,
                             plan_cache=False)
            _, gradients = step(*inputs)  # compiles both plans
            for name_, want in zip(names, expected):
                torch.testing.assert_close(gradients[name_], want,
                                           rtol=1e-3, atol=1e-4)
            ours, theirs = [], []
            for _ in range(3):  # interleaved rounds
                ours.append(median_ms(lambda: step(*inputs), args.runs))
                theirs.append(median_ms(lambda: torch_step(fn, inputs, wrt),
                                        args.runs))
            mine, eager = min(ours), min(theirs)
            print(f"| {name} | {threads} | {mine:.2f} | {eager:.2f} | "
                  f"{mine / eager:.2f} |")
        notes.append(f"{name}: held between forward and backward: tsir "
                     f"{step.saved_bytes / 1e6:.2f} MB, eager's autograd "
                     f"{saved_bytes_torch(fn, inputs, wrt) / 1e6:.2f} MB")
    for name, module, x in module_models():
        graph = tsir.from_torch(module)
        with torch.no_grad():
            seed = torch.randn_like(module(x))

        def eager_step():
            module.zero_grad()
            module(x).backward(seed)

        runs = max(2, args.runs // 5)
        for threads in counts:
            torch.set_num_threads(threads)
            step = tsir.grad(graph, wrt="parameters", threads=threads,
                             plan_cache=False)
            _, gradients = step(x, grad_outputs=[seed])  # compiles both plans
            eager_step()
            # Relative to each gradient's largest element: in float32 a
            # random-init ResNet-18 at this size is off float64's gradient
            # by up to 5% in torch and in tsir (docs/autodiff.md, "Not
            # yet"; test/e2e/run_grad_models.py compares with float64).
            for parameter_name, parameter in module.named_parameters():
                error = (gradients["self." + parameter_name] -
                         parameter.grad).abs().max()
                assert error <= 0.1 * parameter.grad.abs().max(), \
                    f"{parameter_name}: gradient off by {error}"
            ours, theirs = [], []
            for _ in range(3):
                ours.append(median_ms(
                    lambda: step(x, grad_outputs=[seed]), runs))
                theirs.append(median_ms(eager_step, runs))
            mine, eager = min(ours), min(theirs)
            print(f"| {name} | {threads} | {mine:.0f} | {eager:.0f} | "
                  f"{mine / eager:.2f} |")
        eager_saved = saved_bytes_torch(module, [x], [])
        notes.append(f"{name}: held between forward and backward: tsir "
                     f"{step.saved_bytes / 1e6:.0f} MB, eager's autograd "
                     f"{eager_saved / 1e6:.0f} MB")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
