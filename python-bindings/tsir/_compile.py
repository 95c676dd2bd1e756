# _compile.py - tsir.compile and the callable it returns.
"""Compiled graphs. The native executor compiles one plan per argument
spec (dtypes and sizes of the tensors, types of the scalars) on first use
and caches it; this wrapper converts torch tensors and numpy scalars on
the way in and gives torch tensors back when torch tensors went in."""

import os

import numpy as np

from . import _torch
from ._tsir import Error, _Executable, _default_plan_cache


class Function:
    """A graph compiled for the CPU; call it with the graph's inputs.

    Tensors: numpy arrays or torch tensors, passed without a copy when
    their memory can be (see docs/python.md). Scalars: Python int, float,
    bool (numpy scalars too), str, None, and lists or tuples of these.
    Returns one output bare, several as a tuple (a graph's tuple outputs
    flattened depth-first), None for none. Outputs are numpy arrays, or
    torch tensors if any input was a torch tensor.
    """

    def __init__(self, graph, device="cpu", optimize=True, threads=0,
                 verbose=False, timing=False, plan_cache=True):
        self.graph = graph
        self._executable = _Executable(graph, device, optimize, threads,
                                       verbose, timing,
                                       *_plan_cache_arguments(plan_cache))

    def __call__(self, *args):
        return call_native(self._executable, self._with_defaults(args))

    def _with_defaults(self, args):
        """`args` with the omitted trailing arguments that have defaults in
        the torch function the graph came from (from_torch), as calling
        it does: `layer(x)` for `forward(x, mask=None)`."""
        defaults = getattr(self.graph, "argument_defaults", None) or []
        if len(args) >= len(defaults):
            return args
        missing = defaults[len(args):]
        if any(default is _torch._NO_DEFAULT for _, default in missing):
            described = ", ".join(
                name if default is _torch._NO_DEFAULT else f"{name}={default!r}"
                for name, default in defaults)
            required = [name for name, default in missing
                        if default is _torch._NO_DEFAULT]
            raise Error(f"forward({described}) missing {len(required)} "
                        f"required argument(s): {', '.join(required)}")
        return tuple(args) + tuple(default for _, default in missing)

    @property
    def plans(self):
        """The argument specs the executor has compiled plans for, sorted
        (`len(f.plans)` is the number of plans)."""
        return self._executable.plans

    @property
    def last_stats(self):
        """What the last call did: spec, compiled (bool), compile_seconds,
        run_seconds."""
        return self._executable.last_stats

    @property
    def input_types(self):
        """The TorchScript types of the inputs a caller gives (a frozen
        module's `self` excluded)."""
        return self._executable.input_types

    @property
    def input_names(self):
        return self._executable.input_names

    def __repr__(self):
        return f"<tsir.Function of {self.graph.name}, {len(self.plans)} plan(s)>"


def call_native(native, args):
    """Calls a native executable or model (its `call(arguments,
    bfloat16_as_dlpack)`) with Python arguments, and shapes its flat list
    of outputs as Function and Model return them."""
    saw_torch = [False]
    arguments = native_arguments(args, saw_torch)
    outputs = native.call(arguments, saw_torch[0])
    if saw_torch[0]:
        outputs = [_torch.to_torch(output) for output in outputs]
    if not outputs:
        return None
    if len(outputs) == 1:
        return outputs[0]
    return tuple(outputs)


def native_arguments(args, saw_torch):
    """The arguments as the native module takes them; saw_torch[0] says
    whether a torch tensor was among them."""
    return [_argument(arg, saw_torch) for arg in args]


def _argument(value, saw_torch):
    if _torch.is_tensor(value):
        saw_torch[0] = True
        return _torch.native_tensor(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        converted = [_argument(element, saw_torch) for element in value]
        return tuple(converted) if isinstance(value, tuple) else converted
    return value


def _plan_cache_arguments(plan_cache):
    """(directory, library directory) for the executor: the persistent plan
    cache's directory ("" for none) and where the libraries its model.so
    files link with are."""
    from ._aot import library_dir
    if plan_cache is True:
        directory = _default_plan_cache()
    elif not plan_cache:
        directory = ""
    else:
        directory = os.path.abspath(os.fspath(plan_cache))
    return directory, library_dir()


def compile(graph, device="cpu", optimize=True, threads=0,  # noqa: A001 - the API's name
            verbose=False, timing=False, plan_cache=True):
    """Compiles `graph` (a tsir.Graph) for `device` (only "cpu" for now)
    and returns a Function. The graph is copied: changing it afterwards
    does not change the Function. optimize=False skips tsir-optimize
    before lowering. `threads` is how many threads the large loops of the
    compiled code run on (OpenMP): 0 is $OMP_NUM_THREADS if set, else the
    number of cores; it applies to calls from the calling thread.

    Plans compile on first call per spec. verbose=True prints each stage
    of each compile, with its time, to stderr; otherwise a compile longer
    than a second reports its stages to the `tsir` logger at INFO level.
    timing=True prints MLIR's pass timing of each compile to stderr.

    plan_cache: the persistent plan cache (docs/plan-cache.md), where a
    plan that compiles whole is kept as a model.so so that another process
    with the same graph and input spec loads it instead of compiling. True:
    the usual directory ($TSIR_CACHE_DIR, else $XDG_CACHE_HOME/tsir, else
    ~/.cache/tsir; TSIR_CACHE_DIR=off for none); a path: that directory;
    False: none."""
    return Function(graph, device, optimize, threads, verbose, timing,
                    plan_cache)
