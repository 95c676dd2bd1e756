# _grad.py - tsir.grad: a graph's outputs and its gradients.
"""Gradients of a graph (docs/autodiff.md). tsir-differentiate splits the
graph into a forward and a backward graph, each compiled per input spec
like tsir.compile's; the backward reads the buffers the forward saved."""

from . import _torch
from ._compile import _plan_cache_arguments, native_arguments
from ._tsir import _Gradient


class GradientFunction:
    """Call it with the graph's inputs, and optionally `grad_outputs` (one
    gradient per tensor output; by default ones, for outputs of one
    element, as torch's `loss.backward()`). Returns (outputs, gradients):
    the outputs as tsir.Function returns them, and a dict from each wrt
    name to its gradient. Arrays are numpy's, or torch tensors if a torch
    tensor went in."""

    def __init__(self, graph, wrt="all", threads=0, plan_cache=True):
        if wrt == "parameters":
            wrt = getattr(graph, "parameter_names", None)
            if not wrt:
                raise ValueError(
                    "wrt='parameters' needs a graph from tsir.from_torch of "
                    "a module with parameters; name the inputs or weights")
        if isinstance(wrt, str):
            wrt = [wrt]
        self.graph = graph
        self._native = _Gradient(graph, list(wrt), threads,
                                 *_plan_cache_arguments(plan_cache))

    @property
    def wrt(self):
        """The names the gradients are for (`all` spelled out)."""
        return self._native.wrt

    @property
    def saved_bytes(self):
        """The bytes of the tensors the last call's forward saved for its
        backward (what is held between the two)."""
        return self._native.saved_bytes

    @property
    def last_stats(self):
        """The last call's stats, {"forward": ..., "backward": ...}, each
        as tsir.Function.last_stats; {} before the first call of a graph
        that is differentiated per input spec (docs/autodiff.md)."""
        return self._native.last_stats

    def __call__(self, *args, grad_outputs=()):
        saw_torch = [False]
        arguments = native_arguments(args, saw_torch)
        seeds = native_arguments(list(grad_outputs), saw_torch)
        outputs, gradients = self._native.call(arguments, seeds, saw_torch[0])
        if saw_torch[0]:
            outputs = [_torch.to_torch(output) for output in outputs]
            gradients = [_torch.to_torch(g) for g in gradients]
        shaped = None if not outputs else (
            outputs[0] if len(outputs) == 1 else tuple(outputs))
        return shaped, dict(zip(self.wrt, gradients))

    def __repr__(self):
        return f"<tsir.GradientFunction of {self.graph.name} wrt {self.wrt}>"


def grad(graph, wrt="all", threads=0, plan_cache=True):
    """Differentiates `graph` (a tsir.Graph) with respect to `wrt`: input
    and weight names (a name or a list), "all" (every tensor input and
    weight) or "parameters" (a torch module's parameters), and returns a
    GradientFunction. A graph from tsir.from_torch(module) has its
    parameters as weights, by their value names (`self.fc.weight`); in
    training mode every parameter is one, unfolded. `threads` and `plan_cache` are tsir.compile's
    (the forward and the backward each have their plans)."""
    return GradientFunction(graph, wrt, threads, plan_cache)
