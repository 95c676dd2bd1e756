# __init__.py - the tsir package: TorchScript graphs on MLIR, from Python.
"""tsir: import TorchScript graphs, walk and optimize them, compile and run them.

    import tsir
    graph = tsir.import_graph("graph.txt", weights="weights.safetensors")
    for node in graph.nodes(recurse=True):
        print(node.kind, [v.name for v in node.inputs])
    graph.optimize()
    f = tsir.compile(graph)
    out = f(np.ones((2, 3), np.float32))

    tsir.save_weights("weights.safetensors", graph)   # for tsir-run --weights
    tsir.compile_model(graph, "model.so", spec="Float(2, 3)")
    model = tsir.load_model("model.so")               # runtime only, no MLIR

The native half is tsir._tsir (C++, pybind11); see docs/python.md.
"""

from ._tsir import Block, Error, Graph, Node, Type, Value, load_ops
from ._graph import import_graph
from ._compile import Function, compile
from ._grad import GradientFunction, grad
from ._torch import from_torch
from ._weights import save_weights
from ._aot import Model, compile_model, load_model

__all__ = [
    "Block",
    "Error",
    "Function",
    "GradientFunction",
    "Graph",
    "Model",
    "Node",
    "Type",
    "Value",
    "compile",
    "compile_model",
    "from_torch",
    "grad",
    "load_ops",
    "import_graph",
    "load_model",
    "save_weights",
]
