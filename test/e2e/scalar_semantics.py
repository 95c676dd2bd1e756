"""scalar_semantics.py - TorchScript's int and float arithmetic, three ways.

The constant folder, compiled code and the interpreter each compute `//`,
`%`, `/` and `int()` on scalars; ScalarSemantics.h defines the rules once.
This runs one graph over the edge cases (negative operands, wrap-around,
float division by zero, int() outside int64) through tsir-run compiled,
interpreted (a prim::Print keeps the graph in the interpreter) and with the
operands as constants (folded where the result is finite), and checks all
three against torch's TorchScript.

Usage: scalar_semantics.py TSIR_RUN WORKDIR
"""

import math
import os
import subprocess
import sys

import numpy as np
import torch

GRAPH = """graph({params}):
{prefix}  %0 : int = aten::floordiv(%a, %b)
  %1 : int = aten::remainder(%a, %b)
  %2 : float = aten::floordiv(%x, %y)
  %3 : float = aten::remainder(%x, %y)
  %4 : float = aten::div(%x, %y)
  %5 : int = aten::Int(%x)
  %6 : (int, int, float, float, float, int) = prim::TupleConstruct(%0, %1, %2, %3, %4, %5)
  return (%6)
"""


@torch.jit.script
def oracle(a: int, b: int, x: float, y: float):
    return (a // b, a % b, x // y, x % y, x / y, int(x))


CASES = [
    (7, -2, 7.5, -2.0),
    (-7, 2, -1e-20, 1.0),  # float %: torch's 0.0, where Python says 1.0
    (5, 2**63 - 1, 1.0, 0.1),  # int % wraps; 1.0 // 0.1 is 10.0
    (-(2**63), 3, 1e30, 0.0),  # float / // % by zero; int(1e30)
    (-(2**63), 7, -2.5, -0.0),
]


def run(tsir_run, workdir, name, text, inputs):
    graph = os.path.join(workdir, name + ".txt")
    with open(graph, "w") as f:
        f.write(text)
    out = os.path.join(workdir, name)
    os.makedirs(out, exist_ok=True)
    command = [tsir_run, graph, "--output-dir", out, "--plan-cache", "off"]
    command += ["--input=" + repr(v) for v in inputs]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{name}: tsir-run failed:\n{done.stderr}")
    return [np.load(os.path.join(out, f"out{i}.npy")).item() for i in range(6)]


def same(got, want):
    if isinstance(want, float) and math.isnan(want):
        return math.isnan(got)
    return got == want and (not isinstance(want, float) or
                            math.copysign(1, got) == math.copysign(1, want))


def main():
    tsir_run, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    failures = 0
    params = "%a : int, %b : int, %x : float, %y : float"
    for index, case in enumerate(CASES):
        want = list(oracle(*case))
        constants = "".join(
            f"  %{n} : {t} = prim::Constant[value={v!r}]()\n"
            for n, t, v in zip("abxy", ["int", "int", "float", "float"], case))
        ways = {
            "compiled": run(tsir_run, workdir, f"compiled{index}",
                            GRAPH.format(params=params, prefix=""), case),
            "interpreted": run(tsir_run, workdir, f"interpreted{index}",
                               GRAPH.format(params=params,
                                            prefix="   = prim::Print(%a)\n"),
                               case),
            "folded": run(tsir_run, workdir, f"folded{index}",
                          GRAPH.format(params="", prefix=constants), []),
        }
        for way, got in ways.items():
            for slot, (g, w) in enumerate(zip(got, want)):
                if not same(g, w):
                    failures += 1
                    print(f"FAIL {way} case {case} result {slot}: "
                          f"tsir {g!r}, torch {w!r}")
        print(f"case {case}: torch {want}")
    if failures:
        sys.exit(f"{failures} results differ from torch")
    print("all agree")


if __name__ == "__main__":
    main()
