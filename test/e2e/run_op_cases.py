#!/usr/bin/python3
"""run_op_cases.py - tsir's own generated cases, with Debian's torch as the oracle.

    run_op_cases.py [--tsir-run PATH] [--family NAME ...] [--case SUBSTR]
                    [--every N] [--jobs N] [--keep DIR] [--coverage]

Each family file in test/e2e/op_cases/ defines CASES (test/lib/op_case.py).
For each case the function is scripted with torch.jit.script (or its
hand-written graph parsed with torch._C.parse_ir), its inlined graph is
written as text, torch computes the expected outputs, and tsir-run
computes its own from the graph text and the inputs; outputs must match in
count, dtype, shape and value. `--coverage` also reports which typed aten ops
(dialects/aten/typed_ops.txt) the cases' graphs exercise. `--every N` runs
every Nth case of each family (the sanitizer build's share).
"""

import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
import op_case  # noqa: E402
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402


def as_numpy(value):
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()
    return value


def prepare(case, workdir):
    """Scripts the case and computes torch's outputs; returns (graph path,
    inputs, expected) or raises."""
    if case.mlir is not None:
        graph_path = torch_cases.write_text(workdir, "graph.mlir", case.mlir)
        expected = torch_cases.flatten(case.reference(*case.inputs))
        return graph_path, [as_numpy(v) for v in case.inputs], expected, case.mlir
    if case.graph is not None:
        graph = torch._C.parse_ir(case.graph)
        scripted = case.reference or torch._C._create_function_from_graph(
            case.name, graph)
    else:
        scripted, graph = torch_cases.script_inlined(case.fn)
    graph_path = torch_cases.write_text(workdir, "graph.txt", str(graph))
    # The oracle is TorchScript itself (the scripted function), whose
    # semantics tsir implements: they differ from eager Python for some
    # scalar ops (`1.0 // 0.1`, int overflow).
    arguments = [v.clone() if isinstance(v, torch.Tensor) else v
                 for v in case.inputs]
    expected = torch_cases.flatten(scripted(*arguments))
    return graph_path, [as_numpy(v) for v in case.inputs], expected, str(graph)


def run_case(tsir, family, case, workroot):
    workdir = os.path.join(workroot, family, case.name)
    try:
        with torch_cases.SCRIPTING:
            graph_path, inputs, expected, _ = prepare(case, workdir)
    except Exception as error:  # the case itself is broken
        return "ERROR", f"torch could not run the case: {error}"
    code, output = tsir_run.run(tsir, graph_path, inputs,
                                os.path.join(workdir, "out"))
    if code != 0:
        problem = f"tsir-run exited with {code}: " + output.strip()
    else:
        problem = tsir_run.compare(expected, os.path.join(workdir, "out"),
                                   case.rtol, case.atol,
                                   values=getattr(case, "check", "values") == "values")
    if case.xfail:
        return ("XFAIL", case.xfail) if problem else ("XPASS", case.xfail)
    return ("FAIL", problem) if problem else ("PASS", "")


def typed_ops():
    ops = []
    for line in open(os.path.join(ROOT, "dialects", "aten", "typed_ops.txt")):
        # `name.overload family...`: the op is the first word.
        words = line.split("#", 1)[0].split()
        if words:
            ops.append(words[0])
    return ops


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tsir-run", default=os.path.join(ROOT, "build", "bin", "tsir-run"))
    parser.add_argument("--family", action="append")
    parser.add_argument("--case")
    parser.add_argument("--every", type=int, default=1,
                        help="run every Nth case of each family")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep")
    parser.add_argument("--coverage", action="store_true")
    args = parser.parse_args()

    torch.set_num_threads(1)
    families = sorted(glob.glob(os.path.join(HERE, "op_cases", "*.py")))
    work = args.keep or tempfile.mkdtemp(prefix="tsir-op-cases-")
    jobs = []
    for path in families:
        family = os.path.basename(path)[:-3]
        if args.family and family not in args.family:
            continue
        for case in op_case.every_nth(op_case.family(family).CASES, args.every):
            if args.case and args.case not in case.name:
                continue
            jobs.append((family, case))

    counts = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [(family, case, pool.submit(run_case, args.tsir_run, family, case, work))
                   for family, case in jobs]
        for family, case, future in futures:
            status, detail = future.result()
            counts[status] = counts.get(status, 0) + 1
            line = f"{status} {family}/{case.name}"
            if detail and status != "PASS":
                line += ": " + detail.replace("\n", "\n    ")
            print(line, flush=True)
            if status in ("FAIL", "ERROR", "XPASS"):
                # Also on stderr: lit shows a failing test's stderr, while
                # stdout goes to a file the test checks and then drops.
                print(line, file=sys.stderr, flush=True)

    if args.coverage:
        # Which typed overloads the cases' graphs use, as tsir's importer
        # resolves them (`aten::add` on tensors is `aten.add.Tensor`).
        translate = os.path.join(os.path.dirname(args.tsir_run), "tsir-translate")
        used = set()
        for family, case in jobs:
            graph = os.path.join(work, family, case.name, "graph.txt")
            if os.path.exists(graph):
                done = subprocess.run([translate, "--import-torchscript", graph],
                                      capture_output=True, text=True)
                text = done.stdout
            elif os.path.exists(graph[:-4] + ".mlir"):
                text = open(graph[:-4] + ".mlir").read()
            else:
                continue
            used.update(re.findall(r"\baten\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)?) ",
                                   text))
        ops = typed_ops()
        missing = [op for op in ops if op not in used]
        print(f"coverage: {len(ops) - len(missing)} of {len(ops)} typed aten "
              f"overloads appear in the cases' imported graphs")
        print("not covered: " + " ".join(missing))

    total = sum(counts.values())
    summary = ", ".join(f"{counts.get(k, 0)} {k}" for k in
                        ("PASS", "FAIL", "ERROR", "XFAIL", "XPASS"))
    print(f"op cases: {total} run: {summary}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if counts.get("FAIL") or counts.get("ERROR") or counts.get("XPASS") else 0


if __name__ == "__main__":
    sys.exit(main())
