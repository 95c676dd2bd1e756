"""op_case.py - one generated end-to-end case: a scripted function (or a
hand-written graph) and its inputs.

The families in test/e2e/op_cases/*.py each define `CASES`, a list of Case.
test/e2e/run_op_cases.py scripts every function with Debian's torch, writes
its inlined graph and inputs, runs it through `tsir-run`, and compares the
outputs with torch's (count, dtype, shape, values within rtol/atol, NaN where
torch gives NaN).

family() loads a family by name. A family that tests an op another one
already wraps (cpu_kernels.py's products, linear.py's) takes that family's
function rather than defining it again, and so do the gradient cases
(test/e2e/grad_cases/): one definition of an op's call serves every suite
that runs it.
"""

import importlib.util
import os
import sys

FAMILIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "e2e", "op_cases")


def family(name):
    """The module of the family test/e2e/op_cases/`name`.py, loaded once per
    process. Each family seeds torch's generator itself before it makes its
    inputs, so its cases are the same whoever loads it first; a family that
    loads another does so before its own torch.manual_seed."""
    module_name = "op_cases_" + name
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            module_name, os.path.join(FAMILIES, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        # Registered, so that torch.jit.script finds the source of the
        # classes a family defines (an Enum's, through inspect and
        # sys.modules).
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


def every_nth(cases, n):
    """Every `n`th of `cases` (a list), from the first: the sanitizer
    build's suite runs this share of the generated cases. The instrumented
    code is the compiler and the runtime, not the code they generate, and
    a family's cases share most of their lowering, so a stride through each
    family still drives every family's patterns, at 1/n of the time."""
    return cases[::n]


class Case:
    """`fn` is a plain Python function torch.jit.script accepts (annotate
    non-tensor arguments: `def f(x, n: int)`); `inputs` are its arguments,
    tensors or Python scalars, made with a fixed seed. Tensors that must be
    non-contiguous can be made so here (`torch.randn(4, 3).t()`): the runner
    keeps their values and writes them as the npy inputs."""

    def __init__(self, fn, inputs, name=None, rtol=1e-4, atol=1e-5,
                 op=None, xfail=None, check="values", graph=None,
                 reference=None, mlir=None):
        self.fn = fn
        self.inputs = inputs
        self.name = name or fn.__name__
        # A hand-written TorchScript graph instead of `fn` (fn is None): for
        # overloads that scripting never emits (`rsub.Tensor`, `alias`).
        # torch parses it with torch._C.parse_ir and runs it as the oracle.
        self.graph = graph
        # For a graph torch parses but cannot run (`aten::__interpolate` is
        # a compiler builtin in torch 1.13, not an operator): a Python
        # function computing the expected outputs from the inputs.
        self.reference = reference
        # A graph in tsir's own dialects (a func.func @graph), for typed
        # overloads no TorchScript text resolves to (torch and tsir both
        # read `aten::Float(%int)` as Float.Scalar, never Float.int); the
        # expected outputs come from `reference`.
        self.mlir = mlir
        self.rtol = rtol
        self.atol = atol
        # The aten overload this case is for (`add.Tensor`), when its name
        # does not say it; used to report coverage of typed_ops.txt.
        self.op = op
        # Why tsir does not compute this case yet, if it does not: the
        # runner reports it as XFAIL, and as an unexpected pass once fixed.
        self.xfail = xfail
        # "values" compares everything; "shape" compares count, dtype and
        # shape only, for ops whose values are random (rand, bernoulli).
        self.check = check
