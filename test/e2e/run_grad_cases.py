#!/usr/bin/python3
"""run_grad_cases.py - tsir's gradients against torch's autograd.

    run_grad_cases.py [--tsir-run PATH] [--case SUBSTR] [--jobs N] [--keep DIR]
                      [--float32-only] [--every N]

For each case of test/e2e/grad_cases/cases.py the function is scripted
with torch.jit.script and its inlined graph written as text; `tsir-run
--grad-wrt` differentiates it with respect to every floating-point tensor
input and writes grad_<name>.npy, which must match torch.autograd.grad of
the function run eagerly in dtype, shape and value. A non-scalar output gets a
seeded random gradient (`--grad-output`). Every case runs in float32 and
again with its floating-point inputs in float64. Cases that expect an error
must fail with a message containing it. A case marked `finite_differences`
(a formula tsir writes differently from torch's: the loop tape, pools read
as convolutions, products exact at zeros) is also checked, in float64,
against central differences of the function itself, which owe nothing to
either's formulas.
"""

import argparse
import concurrent.futures
import copy
import os
import shutil
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
sys.path.insert(0, os.path.join(HERE, "grad_cases"))
import cases as grad_cases  # noqa: E402
import op_case  # noqa: E402
import op_cases  # noqa: E402
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402


def run_case(case, tsir, workdir):
    """None if tsir's gradients match torch's, else what differs."""
    with torch_cases.SCRIPTING:
        _, graph = torch_cases.script_inlined(case.fn)
    graph_path = torch_cases.write_text(workdir, "graph.txt", str(graph))
    names = [value.debugName() for value in graph.inputs()]

    arguments = [v.clone().requires_grad_(v.is_floating_point()
                                          and i not in case.constant)
                 if isinstance(v, torch.Tensor) else v
                 for i, v in enumerate(case.inputs)]
    wrt = [(name, a) for name, a in zip(names, arguments)
           if isinstance(a, torch.Tensor) and a.requires_grad]
    # The oracle is eager autograd: TorchScript's own differentiable
    # graphs (the profiling executor's, from the second call on) have
    # their bugs (chunk's gradient, in torch 1.13).
    output = case.fn(*arguments)
    extra = ["--grad-wrt", ",".join(name for name, _ in wrt)]
    seed = None
    if output.numel() != 1:
        generator = torch.Generator().manual_seed(1)
        seed = torch.randn(output.shape, generator=generator,
                           dtype=output.dtype)
        seed_path = os.path.join(workdir, "grad_output.npy")
        np.save(seed_path, seed.numpy())
        extra += ["--grad-output", seed_path]

    inputs = [v.numpy() if isinstance(v, torch.Tensor) else v
              for v in case.inputs]
    code, text = tsir_run.run(tsir, graph_path, inputs, workdir,
                              extra=extra, threads=None)
    if case.error is not None:
        if code == 0:
            return f"ran, but should fail with: {case.error}"
        if case.error not in text:
            return f"failed without '{case.error}':\n{text.strip()}"
        return None
    if code != 0:
        return f"tsir-run failed:\n{text.strip()}"

    expected = torch.autograd.grad(output, [a for _, a in wrt],
                                   grad_outputs=seed, allow_unused=True)
    if case.finite_differences and case.name.endswith("_f64"):
        problem = against_finite_differences(case, wrt, seed, workdir)
        if problem:
            return problem
    for (name, argument), want in zip(wrt, expected):
        if want is None:
            want = torch.zeros_like(argument)
        path = os.path.join(workdir, f"grad_{name}.npy")
        if not os.path.exists(path):
            return f"no grad_{name}.npy"
        got = np.load(path)
        want = want.detach().numpy()
        if got.dtype != want.dtype or got.shape != want.shape:
            return (f"grad_{name}: {got.dtype}{list(got.shape)}, expected "
                    f"{want.dtype}{list(want.shape)}")
        if not np.allclose(got, want, rtol=case.rtol, atol=case.atol):
            return (f"grad_{name}: max abs error "
                    f"{np.abs(got - want).max():.3g}")
    return None


def against_finite_differences(case, wrt, seed, workdir, step=1e-6):
    """None if tsir's float64 gradients match central differences of
    sum(fn(inputs) * seed), element by element, else what differs."""
    def objective(arguments):
        with torch.no_grad():
            output = case.fn(*arguments)
        weight = seed if seed is not None else torch.ones_like(output)
        return float((output * weight).sum())

    plain = [v.detach().clone() if isinstance(v, torch.Tensor) else v
             for v in case.inputs]
    for index, (name, argument) in enumerate(wrt):
        position = [i for i, v in enumerate(case.inputs)
                    if isinstance(v, torch.Tensor) and v.is_floating_point()
                    and i not in case.constant][index]
        base = plain[position]
        numeric = torch.zeros_like(base)
        flat, out = base.view(-1), numeric.view(-1)
        for element in range(flat.numel()):
            saved = float(flat[element])
            flat[element] = saved + step
            above = objective(plain)
            flat[element] = saved - step
            below = objective(plain)
            flat[element] = saved
            out[element] = (above - below) / (2 * step)
        got = np.load(os.path.join(workdir, f"grad_{name}.npy"))
        if not np.allclose(got, numeric.numpy(), rtol=1e-5, atol=1e-6):
            return (f"grad_{name} against finite differences: max abs error "
                    f"{np.abs(got - numeric.numpy()).max():.3g}")
    return None


def in_float64(case):
    """The case with its floating-point tensor inputs in float64."""
    variant = copy.copy(case)
    variant.name = case.name + "_f64"
    variant.inputs = [v.double() if isinstance(v, torch.Tensor)
                      and v.is_floating_point() else v for v in case.inputs]
    variant.rtol, variant.atol = 1e-7, 1e-9
    return variant


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tsir-run", default=os.path.join(
        ROOT, "build", "bin", "tsir-run"))
    parser.add_argument("--case", default="")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--keep", default=None)
    parser.add_argument("--float32-only", action="store_true",
                        help="skip the float64 runs (the sanitizer build's "
                        "suite: the same code paths at half the time)")
    parser.add_argument("--every", type=int, default=1,
                        help="run every Nth case of each list (the "
                        "sanitizer build's share)")
    args = parser.parse_args()

    every = []
    for case in (op_case.every_nth(grad_cases.CASES, args.every)
                 + op_case.every_nth(op_cases.CASES, args.every)):
        every.append(case)
        if case.error is None and not args.float32_only:
            every.append(in_float64(case))
    selected = [c for c in every if args.case in c.name]
    root = args.keep or tempfile.mkdtemp(prefix="tsir-grad-")
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_case, case, args.tsir_run,
                               os.path.join(root, case.name)): case
                   for case in selected}
        for future in concurrent.futures.as_completed(futures):
            case = futures[future]
            try:
                results[case.name] = future.result()
            except Exception as error:  # a case that does not script
                results[case.name] = f"ERROR {type(error).__name__}: {error}"
    failed = 0
    for case in selected:
        problem = results[case.name]
        if problem is None:
            print(f"PASS {case.name}")
        else:
            failed += 1
            line = f"FAIL {case.name}: {problem}"
            print(line)
            # Also on stderr, which lit shows whatever FileCheck makes of stdout.
            print(line, file=sys.stderr)
    print(f"grad cases: {len(selected)} run: {len(selected) - failed} PASS, "
          f"{failed} FAIL")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
