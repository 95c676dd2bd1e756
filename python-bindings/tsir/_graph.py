# _graph.py - tsir.import_graph: graph text, a file, or MLIR, with weights.
"""Reading a graph: what the argument is (text or a path, TorchScript or
MLIR) is decided here; the reading itself is the native importer's."""

import os

from . import _torch
from ._tsir import Error, _import_graph


def _is_graph_text(text):
    # A path is one line; graph text and MLIR never are, except a one-line
    # `graph(...)` or `module {...}`.
    return "\n" in text or text.lstrip().startswith(("graph", "module", "func.func"))


def _weights_argument(weights):
    if weights is None:
        return None
    if isinstance(weights, (str, os.PathLike)):
        return os.fspath(weights)
    if isinstance(weights, dict):
        return {name: _torch.native_tensor(value) for name, value in weights.items()}
    raise TypeError("weights must be a safetensors path or a dict of name -> "
                    f"array, not {type(weights).__name__}")


def import_graph(text_or_path, weights=None, *, name=None):
    """Reads a TorchScript graph and returns a tsir.Graph.

    text_or_path: the graph's text as `print(graph)` writes it, or the path
    of a file holding it; MLIR (prim/aten) text or a `.mlir` file works too.
    weights: the `<Tensor>` constants of a frozen graph, as a safetensors
    path or a dict of value name (without `%`) -> numpy array or torch
    tensor. name: what errors call in-memory text (default `<string>`).

    Errors raise tsir.Error with the place: `graph.txt:12:7: error: ...`.
    """
    if isinstance(text_or_path, os.PathLike) or (
            isinstance(text_or_path, str) and not _is_graph_text(text_or_path)):
        path = os.fspath(text_or_path)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as error:
            raise Error(f"cannot read {path}: {error.strerror}") from None
        buffer_name = name or path
        is_mlir = path.endswith(".mlir")
    elif isinstance(text_or_path, str):
        text = text_or_path
        buffer_name = name or "<string>"
        # TorchScript graph text always starts with `graph`.
        is_mlir = not text.lstrip().startswith("graph")
    else:
        raise TypeError("import_graph takes graph text or a path, not "
                        f"{type(text_or_path).__name__}")
    return _import_graph(text, buffer_name, is_mlir, _weights_argument(weights))
