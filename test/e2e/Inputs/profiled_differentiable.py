#!/usr/bin/python3
"""profiled_differentiable.py - the graph in profiled_differentiable.txt.

torch's profiling executor, after a scripted function with inputs that
require grad has run a few times, prints (last_executed_optimized_graph)
its guard (prim::RequiresGradCheck), the prim::DifferentiableGraph_0 whose
section is the forward graph returning the backward's captured values
after the output, and the fallback function. Run this to print it again;
with an argument, it checks OUTDIR/out0.npy against the function on the
inputs A.npy and B.npy instead.

    profiled_differentiable.py [A.npy B.npy OUTDIR]
"""

import sys

import numpy as np
import torch


def f(x, w):
    y = torch.mm(x, w)
    z = torch.relu(y) * 2 + x.sum()
    return z.tanh()


if len(sys.argv) == 4:
    a, b = (torch.from_numpy(np.load(p)) for p in sys.argv[1:3])
    got = np.load(f"{sys.argv[3]}/out0.npy")
    assert np.allclose(got, f(a, b).numpy(), rtol=1e-5, atol=1e-6), got
    print("match")
else:
    scripted = torch.jit.script(f)
    x = torch.randn(3, 3, requires_grad=True)
    w = torch.randn(3, 3, requires_grad=True)
    for _ in range(4):
        scripted(x, w)
    print(torch.jit.last_executed_optimized_graph())
