#!/usr/bin/python3
"""module_db.py - torch.nn's layers as PyTorch tests them, through tsir.

    module_db.py [--module NAME ...] [--table FILE] [--verbose]

PyTorch ships a database of its layers with sample inputs (`module_db` in
torch.testing._internal.common_modules, 38 classes in torch 1.13). Each
sample (float32, CPU, eval mode) builds the layer, runs it eagerly, and
then goes through `tsir.from_torch` (scripted and frozen by torch) and
`tsir.compile`; the outputs must match eager torch's (rtol and atol 1e-4,
flattened depth-first). One line per sample: PASS, WRONG (the largest
difference), FAIL (tsir's error) or SKIP (torch itself cannot script or
freeze it). Keyword arguments are passed by position, with the forward's
defaults between them, as a graph's inputs are positional),
then a line per class and the totals. Needs the build's python_packages on
PYTHONPATH. The module imports `expecttest`, which Debian lacks: a stand-in
satisfies it.
"""

import argparse
import collections
import inspect
import sys
import types

import numpy as np
import torch


def load_module_db():
    stand_in = types.ModuleType("expecttest")
    stand_in.TestCase = type("TestCase", (), {})
    stand_in.ACCEPT = False
    sys.modules.setdefault("expecttest", stand_in)
    from torch.testing._internal.common_modules import module_db
    return module_db


def flatten(value):
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in flatten(item)]
    return [value]


def compare(expected, actual):
    """None if `actual` matches `expected`, else what differs."""
    expected, actual = flatten(expected), flatten(actual)
    if len(expected) != len(actual):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for i, (want, got) in enumerate(zip(expected, actual)):
        if want is None or got is None:
            if want is not got:
                return f"output {i}: {got!r}, expected {want!r}"
            continue
        want = np.asarray(want.detach() if isinstance(want, torch.Tensor) else want)
        got = np.asarray(got.detach() if isinstance(got, torch.Tensor) else got)
        if want.shape != got.shape:
            return f"output {i}: shape {got.shape}, expected {want.shape}"
        if not np.allclose(got, want, rtol=1e-4, atol=1e-4, equal_nan=True):
            return (f"output {i}: max difference "
                    f"{np.nanmax(np.abs(got.astype(np.float64) - want)):.3g}")
    return None


def run_sample(tsir, info, sample):
    """('PASS'|'WRONG'|'FAIL'|'SKIP', detail)."""
    forward = sample.forward_input
    if forward is None:
        return "SKIP", "no forward input"
    torch.manual_seed(0)
    module = info.module_cls(*sample.constructor_input.args,
                             **sample.constructor_input.kwargs).eval()
    with torch.no_grad():
        expected = module(*forward.args, **forward.kwargs)  # materializes lazy modules
        # Keyword arguments by position, with the forward's defaults between
        # (a graph's inputs are positional).
        bound = inspect.signature(module.forward).bind(*forward.args,
                                                      **forward.kwargs)
        bound.apply_defaults()
        args = list(bound.arguments.values())
        try:
            torch.jit.freeze(torch.jit.script(module))
        except Exception as error:
            text = str(error).strip().splitlines()
            return "SKIP", "torch cannot script and freeze it: " + (
                text[0] if text else repr(error))
        try:
            graph = tsir.from_torch(module)
        except Exception as error:
            text = str(error).strip().splitlines()
            return "FAIL", "from_torch: " + (text[0] if text else repr(error))
        try:
            actual = tsir.compile(graph)(*args)
        except Exception as error:
            text = str(error).strip().splitlines()
            return "FAIL", text[0] if text else repr(error)
    problem = compare(expected, actual)
    return ("WRONG", problem) if problem else ("PASS", "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--module", action="append")
    parser.add_argument("--table")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    import tsir
    torch.set_num_threads(1)
    counts = collections.Counter()
    by_class = collections.OrderedDict()
    for info in load_module_db():
        name = info.module_cls.__name__
        if args.module and name not in args.module:
            continue
        samples = info.module_inputs_func(info, device="cpu", dtype=torch.float32,
                                          requires_grad=False, training=False)
        results = by_class.setdefault(name, collections.Counter())
        for i, sample in enumerate(samples):
            try:
                status, detail = run_sample(tsir, info, sample)
            except Exception as error:  # eager torch itself failed
                status, detail = "SKIP", f"eager torch fails: {error}"
            counts[status] += 1
            results[status] += 1
            if status != "PASS" or args.verbose:
                print(f"{status} {name}[{i}] {sample.desc}: {detail}"[:300],
                      flush=True)
    rows = []
    for name, results in by_class.items():
        run = results["PASS"] + results["WRONG"] + results["FAIL"]
        rows.append((name, results["PASS"], run, results["SKIP"]))
        print(f"{name}: {results['PASS']} of {run} right"
              + (f", {results['SKIP']} skipped" if results["SKIP"] else ""))
    run = counts["PASS"] + counts["WRONG"] + counts["FAIL"]
    classes = sum(1 for _, right, ran, _ in rows if ran and right == ran)
    print(f"module_db: {counts['PASS']} of {run} samples right, "
          f"{counts['WRONG']} wrong, {counts['FAIL']} failing, "
          f"{counts['SKIP']} skipped; {classes} of "
          f"{sum(1 for r in rows if r[2])} classes all right")
    if args.table:
        with open(args.table, "w") as f:
            f.write("| class | right | run | skipped |\n|---|---|---|---|\n")
            for row in rows:
                f.write("| " + " | ".join(str(x) for x in row) + " |\n")
    return 1 if counts["WRONG"] else 0


if __name__ == "__main__":
    sys.exit(main())
