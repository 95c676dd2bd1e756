#!/usr/bin/python3
"""zoo_grad.py - torchvision's classification models in training mode:
tsir.grad's parameter gradients against torch's `.backward`.

    PYTHONPATH=build/python_packages /usr/bin/python3 test/models/zoo_grad.py
        [--model NAME ...] [--dtype float64|float32] [--timeout 300]
        [--skip-large]

Each model of zoo.CLASSIFICATION (or --model) is built by zoo.build
(torchvision 0.14, seeded random weights, nothing downloaded; GoogLeNet and
Inception v3 without their aux classifiers, init_weights=True), put in
training mode (batch norm on the batch's statistics) and given to
tsir.from_torch, which keeps every parameter as a weight; tsir.grad
(wrt="parameters", one thread, no plan cache) differentiates the output,
seeded with a random gradient, with respect to all of them, and each
gradient is compared with torch's eager `output.backward(seed)`.

Dropout and stochastic depth draw random masks in training mode, tsir's
and torch's different ones: every nn.Dropout* and torchvision's
StochasticDepth has its p set to 0, and float attributes named *dropout*
(nn.MultiheadAttention's, Swin's attention) too, so that both sides
compute the same function.

Sizes: batch 2 at 3x64x64, except Inception v3 at 75x75 (its least),
ViT-B/16 built with image_size=64 (the same layers, a position embedding
of 4x4+1 tokens instead of 14x14+1; its head, which torchvision starts
at zero and the output with it, drawn at std 0.02) and MaxViT-T at
224x224 (each stage's size must divide by its partition size, 7). Both
torch and tsir run in float64 by default, where the two agree to
rounding: a gradient passes within 1e-6 of its largest element (of the
largest gradient's largest element times 1e-6 for one that is exactly
zero, as a convolution's bias before batch norm). PASS says how many
parameters have a gradient of exactly zero in torch (which proves
little). --dtype float32 compares float32 with a tolerance of 1e-2.

Each model runs in a subprocess of its own, killed after --timeout
seconds. One line per model: PASS with the largest relative error and the
seconds of from_torch, tsir.grad and the first call (both plans'
compiles and one run); FAIL with tsir's error; WRONG with the parameters
whose gradients differ, and by how much; TIMEOUT. --skip-large leaves
out the five largest (wide_resnet50_2, vit_b_16, swin_v2_t, maxvit_t,
efficientnet_v2_s).
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

LARGE = ["wide_resnet50_2", "vit_b_16", "swin_v2_t", "maxvit_t",
         "efficientnet_v2_s"]
# Models that need another input size than 64x64 (see the docstring).
SIZE = {"inception_v3": 75, "maxvit_t": 224}
TOLERANCE = {"float64": 1e-6, "float32": 1e-2}
BATCH = 2


def build(name):
    """The model in training mode and its input's shape, with dropout and
    stochastic depth off."""
    import torch
    import torchvision
    import zoo
    if name == "vit_b_16":
        torch.manual_seed(0)
        model = torchvision.models.vit_b_16(weights=None, image_size=64)
        # Its head starts at zero (as torchvision initializes it), which
        # makes the output and every gradient but the head's zero.
        torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    else:
        model, _ = zoo.build(name)
    for module in model.modules():
        if isinstance(module, (torch.nn.modules.dropout._DropoutNd,
                               torchvision.ops.StochasticDepth)):
            module.p = 0.0
        for attribute, value in list(vars(module).items()):
            if "dropout" in attribute and isinstance(value, float):
                setattr(module, attribute, 0.0)
    size = SIZE.get(name, 64)
    return model.train(), (BATCH, 3, size, size)


def first_tensor(output):
    """The logits: GoogLeNet and Inception, scripted, return a namedtuple
    whose aux outputs are None."""
    import torch
    if isinstance(output, torch.Tensor):
        return output
    return next(o for o in output if isinstance(o, torch.Tensor))


def check(name, dtype_name):
    """One model: a dict with the verdict and what goes with it."""
    import torch
    import tsir
    torch.set_num_threads(1)
    dtype = getattr(torch, dtype_name)
    model, shape = build(name)
    model = model.to(dtype)
    torch.manual_seed(1)
    x = torch.randn(*shape, dtype=dtype)
    start = time.perf_counter()
    try:
        graph = tsir.from_torch(model)
        step = tsir.grad(graph, wrt="parameters", threads=1, plan_cache=False)
        with torch.no_grad():
            # The seed's shape; batch norm's running statistics move, which
            # does not change a training-mode output.
            expected_output = first_tensor(model(x))
        torch.manual_seed(2)
        seed = torch.randn_like(expected_output)
        output, gradients = step(x, grad_outputs=[seed])
    except Exception as error:  # noqa: BLE001 - tsir's error is the result
        return {"verdict": "FAIL", "seconds": time.perf_counter() - start,
                "error": f"{type(error).__name__}: {error}"}
    seconds = time.perf_counter() - start
    model.zero_grad()
    first_tensor(model(x)).backward(seed)
    output = first_tensor(output)
    output_error = ((output - expected_output).abs().max() /
                    max(expected_output.abs().max().item(), 1e-300)).item()
    expected = {"self." + n: (p.grad if p.grad is not None
                              else torch.zeros_like(p))
                for n, p in model.named_parameters()}
    largest = max(g.abs().max().item() for g in expected.values())
    tol = TOLERANCE[dtype_name]
    errors, missing = {}, []
    for key, want in expected.items():
        if key not in gradients:
            missing.append(key)
            continue
        got = gradients[key]
        if tuple(got.shape) != tuple(want.shape):
            errors[key] = float("inf")
            continue
        scale = max(want.abs().max().item(), 1e-6 * largest)
        errors[key] = ((got - want).abs().max().item() / scale
                       if scale > 0 else (got - want).abs().max().item())
    worst = max(errors.values()) if errors else 0.0
    off = sorted(((e, k) for k, e in errors.items() if not e <= tol),
                 reverse=True)
    result = {"seconds": seconds, "max_error": worst,
              "output_error": output_error, "parameters": len(expected),
              # Parameters whose gradient is exactly zero in torch: a
              # comparison that proves little.
              "zero": sum(not g.any().item() for g in expected.values())}
    if off or missing or not output_error <= tol:
        result["verdict"] = "WRONG"
        result["off"] = [(k, e) for e, k in off]
        result["missing"] = missing
    else:
        result["verdict"] = "PASS"
    return result


def describe(name, result):
    verdict = result["verdict"]
    seconds = result.get("seconds")
    timing = f" ({seconds:.1f} s)" if seconds is not None else ""
    zero = (f", {result['zero']} of them with zero gradients in torch"
            if result.get("zero") else "")
    if verdict == "PASS":
        return (f"PASS {name}: {result['parameters']} parameters{zero}, max "
                f"relative error {result['max_error']:.1e} (output "
                f"{result['output_error']:.1e}){timing}")
    if verdict == "WRONG":
        off = result["off"]
        parts = [f"{k} {e:.2g}" for k, e in off[:6]]
        more = f" and {len(off) - 6} more" if len(off) > 6 else ""
        missing = (f"; no gradient for {', '.join(result['missing'][:4])}"
                   if result["missing"] else "")
        return (f"WRONG {name}: {len(off)}/{result['parameters']} gradients "
                f"off (relative to their largest element): "
                f"{', '.join(parts)}{more}{missing}; output off by "
                f"{result['output_error']:.1e}{timing}")
    error = " | ".join(l.strip() for l in result["error"].splitlines()
                       if l.strip())
    return f"{verdict} {name}: {error[:600]}{timing}"


def run_one(name, dtype_name, timeout):
    """check() in a subprocess: a crash or a hang is that model's alone."""
    command = [sys.executable, os.path.abspath(__file__), "--child", name,
               "--dtype", dtype_name]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"verdict": "TIMEOUT", "seconds": None,
                "error": f"over {timeout} s"}
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    tail = (done.stderr.strip() or done.stdout.strip())[-600:]
    return {"verdict": "FAIL", "seconds": time.perf_counter() - start,
            "error": f"exit {done.returncode}: {tail}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", action="append")
    parser.add_argument("--dtype", default="float64",
                        choices=sorted(TOLERANCE))
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print("RESULT " + json.dumps(check(args.child, args.dtype)))
        return 0
    import zoo
    names = args.model or zoo.CLASSIFICATION
    passed = bad = 0
    for name in names:
        if args.skip_large and name in LARGE and not args.model:
            print(f"SKIP {name}: --skip-large", flush=True)
            continue
        result = run_one(name, args.dtype, args.timeout)
        print(describe(name, result), flush=True)
        passed += result["verdict"] == "PASS"
        bad += result["verdict"] != "PASS"
    print(f"zoo_grad: {passed}/{passed + bad} right ({args.dtype})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
