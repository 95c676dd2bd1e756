#!/usr/bin/python3
"""run_breadth.py - how much of ATen tsir computes, tried as a new user would.

    run_breadth.py [--tsir-run PATH] [--samples N] [--dtype float32 ...]
                   [--op SUBSTR] [--jobs N] [--keep DIR] [--json FILE]
                   [--fraction K]

The modules come from PyTorch's own operator database (`op_db` in
torch.testing._internal.common_methods_invocations, shipped with Debian's
python3-torch): about 550 operators, each with sample inputs that PyTorch's
test suite uses. For every operator and dtype, the first N samples become
small modules. Each is traced with torch.jit.trace (what a user does with a
function of tensors), its graph is written as text, eager torch computes the
expected outputs, and tsir-run computes its own from the text. A module
counts as right when the outputs match in count, dtype, shape and value.

Modules that torch itself cannot trace, run or write as importable text
(non-tensor results, complex or sparse tensors, tensor constants captured
by the trace) are reported as skipped and left out of the percentage.

This is a measurement, not a test: it takes minutes. The lit test
breadth-smoke.test runs every K-th module (`--fraction K`) to keep the
script itself working. The numbers are recorded in docs/breadth.md.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import sys
import tempfile
import types
import unittest
import warnings

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402


def load_op_db():
    """PyTorch's OpInfo list. Its test utilities import `expecttest`, which
    Debian does not package; nothing here uses it, so a stand-in does."""
    if "expecttest" not in sys.modules:
        stand_in = types.ModuleType("expecttest")
        stand_in.TestCase = unittest.TestCase
        stand_in.ACCEPT = False
        sys.modules["expecttest"] = stand_in
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.testing._internal.common_methods_invocations import op_db
    return op_db


# Ops whose results torch leaves uninitialized.
UNSPECIFIED = {"aten::empty", "aten::empty_like", "aten::empty_strided",
               "aten::new_empty", "aten::new_empty_strided"}


class Module:
    """One traced module: the graph text, its tensor inputs and torch's
    outputs, or why torch could not make it (`skip`)."""

    def __init__(self, name, op_name):
        self.name = name
        self.op_name = op_name
        self.graph = None
        self.inputs = []
        self.expected = []
        self.random = False
        self.skip = None


def split_tensors(value, tensors):
    """Replaces every tensor in a nest of lists, tuples and dicts with a
    placeholder index into `tensors`."""
    if isinstance(value, torch.Tensor):
        tensors.append(value)
        return ("__tensor__", len(tensors) - 1)
    if isinstance(value, list):
        return [split_tensors(v, tensors) for v in value]
    if isinstance(value, tuple):
        return tuple(split_tensors(v, tensors) for v in value)
    if isinstance(value, dict):
        return {k: split_tensors(v, tensors) for k, v in value.items()}
    return value


def fill_tensors(value, tensors):
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__tensor__":
        return tensors[value[1]]
    if isinstance(value, list):
        return [fill_tensors(v, tensors) for v in value]
    if isinstance(value, tuple):
        return tuple(fill_tensors(v, tensors) for v in value)
    if isinstance(value, dict):
        return {k: fill_tensors(v, tensors) for k, v in value.items()}
    return value


def supported_leaves(values):
    for value in values:
        if isinstance(value, torch.Tensor):
            if value.is_complex() or value.layout != torch.strided or value.is_quantized:
                return False
        elif not isinstance(value, (bool, int, float)):
            return False
    return True


def make_module(op, sample, name):
    module = Module(name, op.name)
    tensors = []
    template = split_tensors((sample.input, tuple(sample.args), dict(sample.kwargs)),
                             tensors)
    if not tensors:
        module.skip = "no tensor inputs"
        return module
    if not supported_leaves(tensors):
        module.skip = "complex, sparse or quantized tensors"
        return module
    tensors = [t.detach().clone() for t in tensors]

    def call(*given):
        first, args, kwargs = fill_tensors(template, list(given))
        return op.op(first, *args, **kwargs)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # Two runs under different seeds tell random ops (multinomial,
            # normal, dropout in training), whose values only torch's own
            # generator can reproduce: for them only count, dtype and
            # shape are compared.
            torch.manual_seed(1)
            expected = call(*[t.clone() for t in tensors])
            torch.manual_seed(2)
            again = call(*[t.clone() for t in tensors])
            traced = torch.jit.trace(call, tuple(t.clone() for t in tensors),
                                     check_trace=False)
    except Exception as error:  # torch cannot run or trace it
        module.skip = "torch: " + str(error).splitlines()[0][:120] if str(error) else "torch failed"
        return module
    try:
        leaves = torch_cases.flatten(expected)
        again_leaves = torch_cases.flatten(again)
    except (TypeError, RuntimeError):  # bfloat16, conjugate views
        module.skip = "results numpy cannot hold"
        return module
    if not leaves or not supported_leaves(
            [torch.from_numpy(np.asarray(l)) if isinstance(l, np.ndarray) else l
             for l in leaves]) or any(np.asarray(l).dtype == object for l in leaves):
        module.skip = "results that are not plain tensors"
        return module
    if any(np.iscomplexobj(l) for l in leaves):
        module.skip = "complex results"
        return module
    graph = traced.graph.copy()
    torch._C._jit_pass_inline(graph)
    text = str(graph)
    if "value=<Tensor>" in text:
        module.skip = "the trace captured a tensor constant"
        return module
    if len(list(graph.inputs())) != len(tensors):
        module.skip = "the trace dropped an input"
        return module
    module.graph = text
    module.inputs = [t.numpy() for t in tensors]
    module.expected = leaves
    # OpInfo seeds some random ops itself (wrapper_set_seed), so the graph
    # is asked too: torch marks its random nodes nondeterministic.
    # The empty family's values are whatever memory held: compared like
    # random ops, on count, dtype and shape.
    module.random = any(node.isNondeterministic() or node.kind() in UNSPECIFIED
                        for node in graph.nodes()) or not all(
        np.array_equal(a, b, equal_nan=True) for a, b in zip(leaves, again_leaves))
    return module


def generate(op_db, dtypes, samples, op_filter, fraction=1):
    """Yields (module) for the first `samples` samples of every operator in
    each dtype it supports on the CPU; with `fraction` K, only every K-th of
    them (the others are not traced at all: tracing is most of a sampled
    run's time)."""
    count = 0
    for op in op_db:
        if op_filter and not any(f in op.name for f in op_filter):
            continue
        supported = op.supported_dtypes("cpu")
        for dtype in dtypes:
            if dtype not in supported:
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    torch.manual_seed(0)
                    sample_list = list(op.sample_inputs("cpu", dtype, requires_grad=False))
            except Exception:
                continue
            variant = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
            for index, sample in enumerate(sample_list[:samples]):
                count += 1
                if (count - 1) % fraction:
                    continue
                name = f"{variant}/{str(dtype)[6:]}/{index}"
                yield make_module(op, sample, name)


def classify(output):
    """A short category for why tsir-run failed, from its message."""
    match = re.search(r"no lowering and no runtime kernel for ([a-z_]+::[A-Za-z0-9_.]+)",
                      output)
    if match:
        return "no lowering or kernel: " + match.group(1)
    match = re.search(r"(unknown op|unregistered operation|has no typed op)[^\n]*", output)
    if match:
        return "import: " + match.group(0)[:100]
    for line in output.splitlines():
        if "error" in line:
            # Drop the per-module path so that equal errors group together.
            return re.sub(r"^\S*graph\.txt:\d+:\d+: ", "", line.strip())[:140]
    return output.strip().splitlines()[-1][:140] if output.strip() else "no output"


def run_module(tsir, module, workroot, rtol, atol):
    workdir = os.path.join(workroot, module.name.replace("/", "_"))
    os.makedirs(workdir, exist_ok=True)
    graph = os.path.join(workdir, "graph.txt")
    with open(graph, "w") as f:
        f.write(module.graph)
    code, output = tsir_run.run(tsir, graph, module.inputs,
                                os.path.join(workdir, "out"), timeout=120)
    if code != 0:
        kind = "crash" if code < 0 or code > 128 else ("timeout" if code == 124 else "error")
        return kind, classify(output)
    problem = tsir_run.compare(module.expected, os.path.join(workdir, "out"),
                               rtol, atol, values=not module.random)
    return ("wrong", problem) if problem else ("right", "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tsir-run", default=os.path.join(ROOT, "build", "bin", "tsir-run"))
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--dtype", action="append")
    parser.add_argument("--op", action="append",
                        help="only operators whose name contains this (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep")
    parser.add_argument("--json")
    parser.add_argument("--fraction", type=int, default=1,
                        help="run only every K-th module")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-4)
    parser.add_argument("--min-right", type=float, default=0.0,
                        help="exit 1 if fewer than this fraction are right")
    args = parser.parse_args()

    torch.set_num_threads(1)
    dtypes = [getattr(torch, d) for d in (args.dtype or ["float32"])]
    work = args.keep or tempfile.mkdtemp(prefix="tsir-breadth-")
    modules = list(generate(load_op_db(), dtypes, args.samples, args.op,
                            args.fraction))

    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {}
        for module in modules:
            if module.skip:
                results[module.name] = ("skipped", module.skip)
            else:
                futures[module.name] = pool.submit(run_module, args.tsir_run, module,
                                                   work, args.rtol, args.atol)
        for name, future in futures.items():
            results[name] = future.result()
            status, detail = results[name]
            print(f"{status.upper()} {name}" + (f": {detail}" if detail else ""),
                  flush=True)

    counts = collections.Counter(status for status, _ in results.values())
    tried = len(results) - counts["skipped"]
    right = counts["right"]
    reasons = collections.Counter(detail for status, detail in results.values()
                                  if status in ("error", "crash", "timeout"))
    print()
    print("most common failures:")
    for reason, n in reasons.most_common(25):
        print(f"  {n:4d}  {reason}")
    ops = {m.op_name for m in modules}
    print(f"\n{len(modules)} modules from {len(ops)} operators; "
          f"{counts['skipped']} skipped (torch cannot trace or run them as text)")
    print(f"breadth: {right} of {tried} right ({100.0 * right / max(tried, 1):.1f}%); "
          f"wrong {counts['wrong']}, error {counts['error']}, "
          f"crash {counts['crash']}, timeout {counts['timeout']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({name: list(r) for name, r in sorted(results.items())}, f, indent=1)
    if counts["crash"] or tried and right / tried < args.min_right:
        sys.exit(1)


if __name__ == "__main__":
    main()
