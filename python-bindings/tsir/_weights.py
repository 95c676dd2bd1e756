# _weights.py - tsir.save_weights: a graph's weights as a safetensors file.
"""Writing weights for `tsir-run graph.txt --weights FILE`,
`tsir-compile`, and `tsir.import_graph(text, weights=FILE)`. The file is
written by the runtime's own safetensors writer (the reader's other half:
F32/F64/F16/BF16/I64/I32/I16/I8/U8/BOOL, data aligned for mapping), so a
graph's bfloat16 weights keep their dtype."""

import os

from . import _torch
from ._tsir import Error, Graph, _write_safetensors


def _dict_weights(weights):
    """name -> numpy array or DLPack capsule; torch tensors without copies."""
    converted = {}
    for name, value in weights.items():
        if not isinstance(name, str):
            raise TypeError(f"weight names must be str, not {type(name).__name__}")
        try:
            converted[name] = _torch.native_tensor(value)
        except TypeError as error:
            raise Error(f"cannot save weight '{name}': {error}") from None
    return converted


def _torch_weights(obj):
    """A torch function or module's tensor constants, by the value names
    its frozen graph prints, and what to call it in errors."""
    graph, name, _ = _torch.scripted_graph(obj)
    try:
        return _torch.tensor_constants(graph), f"torch {name}"
    except TypeError as error:
        raise Error(f"cannot save the weights of {name}: {error}") from None


def save_weights(path, source):
    """Writes `source`'s weights to `path` as safetensors; returns the
    names written.

    source: a tsir.Graph (its attached weights, and every tensor constant
    whose data it holds, by the name `to_torchscript()` prints); a torch
    nn.Module or ScriptModule (scripted and frozen as from_torch does: its
    tensor constants by the value names `print(frozen.inlined_graph)`
    shows, so that text and this file run with `tsir-run`; in training mode
    its parameters and buffers by qualified name, as from_torch reads
    them); or a dict of
    name -> numpy array or torch tensor.

    Raises tsir.Error for dtypes safetensors has no name for, or when there
    is nothing to write.
    """
    path = os.fspath(path)
    if isinstance(source, Graph):
        tensors, what = source, f"the graph {source.name}"
    elif isinstance(source, dict):
        tensors, what = _dict_weights(source), "the dict"
    elif callable(source):
        tensors, what = _torch_weights(source)
    else:
        raise TypeError("save_weights takes a tsir.Graph, a torch module or a "
                        f"dict of name -> array, not {type(source).__name__}")
    names = _write_safetensors(path, tensors)
    if not names:
        raise Error(f"{what} has no weights to save (no tensor constants "
                    "with data); nothing was written to " + path)
    return names
