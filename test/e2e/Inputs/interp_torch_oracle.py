#!/usr/bin/python3
"""interp_torch_oracle.py - run a graph with torch, compare with tsir-run.

    interp_torch_oracle.py GRAPH OUTDIR INPUT...

Each INPUT is a .npy file, a float (with a point) or an int. Runs GRAPH with torch's own
interpreter (parse_ir), flattens tuple and list outputs depth-first as tsir-run
does, and compares them with OUTDIR/out<i>.npy. Prints `match` or exits
non-zero naming the first difference.

parse_ir cannot read a statement without outputs (`  = prim::If(...)`, as
torch prints the argument checks of inlined functions), so those are left
out of the graph torch runs, with their blocks: they only raise, which
the inputs given here must not make them do.
"""

import os
import sys

import numpy as np
import torch


def flatten(value, out):
    if isinstance(value, (tuple, list)):
        for element in value:
            flatten(element, out)
    elif isinstance(value, torch.Tensor):
        out.append(value.numpy())
    else:
        out.append(np.array(value))


def without_outputless_statements(text):
    kept, skip_deeper_than = [], None
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if skip_deeper_than is not None:
            if line.strip() and indent > skip_deeper_than:
                continue
            skip_deeper_than = None
        if line.lstrip(" ").startswith("= "):
            skip_deeper_than = indent - 1
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def main():
    graph, outdir, *inputs = sys.argv[1:]
    function = torch._C._create_function_from_graph(
        "f", torch._C.parse_ir(without_outputless_statements(open(graph).read())))
    args = [torch.from_numpy(np.load(a)) if a.endswith(".npy")
            else float(a) if "." in a else int(a) for a in inputs]
    expected = []
    flatten(function(*args), expected)
    for i, want in enumerate(expected):
        got = np.load(os.path.join(outdir, f"out{i}.npy"))
        # NaN where torch has NaN is a match (a sort puts it first).
        if got.shape != want.shape or not np.allclose(
                got, want, rtol=1e-5, atol=1e-6, equal_nan=True):
            sys.exit(f"out{i} differs:\n{got}\nexpected\n{want}")
    if os.path.exists(os.path.join(outdir, f"out{len(expected)}.npy")):
        sys.exit(f"more than {len(expected)} outputs")
    print("match")


if __name__ == "__main__":
    main()
