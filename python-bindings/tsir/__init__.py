# __init__.py - the tsir package: TorchScript graphs on MLIR, from Python.
"""tsir: import TorchScript graphs, walk and optimize them, compile and run them.

    import tsir
    graph = tsir.import_graph("graph.txt", weights="weights.safetensors")
    for node in graph.nodes(recurse=True):
        print(node.kind, [v.name for v in node.inputs])
    graph.optimize()
    f = tsir.compile(graph)
    out = f(np.ones((2, 3), np.float32))

The native half is tsir._tsir (C++, pybind11); see docs/python.md.
"""

from ._tsir import Block, Error, Graph, Node, Type, Value
from ._graph import import_graph
from ._compile import Function, compile
from ._torch import from_torch

__all__ = [
    "Block",
    "Error",
    "Function",
    "Graph",
    "Node",
    "Type",
    "Value",
    "compile",
    "from_torch",
    "import_graph",
]
