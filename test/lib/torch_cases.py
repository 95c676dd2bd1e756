"""torch_cases.py - what tsir's differential tests share: corpus inputs to
torch values, torch results to flat numpy arrays, and "can torch read it".

The corpus format (see ../shared/corpus/README.md) stores ints, floats and
bools as 0-d arrays and flattens tuple results depth-first; these helpers
convert both ways. Imported by test/Corpus/torch_oracle.py,
test/Transforms/fusion_oracle.py and test/e2e/optimize_oracle.py.
"""

import threading

import numpy as np
import torch

# torch.jit.script is not thread-safe: two threads scripting the same
# library function at once (torch.functional.norm) race in its compilation
# cache, and one fails with a KeyError naming the function. The runners
# that run cases on a thread pool script under this lock; only tsir-run
# runs in parallel.
SCRIPTING = threading.Lock()


def to_input(array, type_name):
    """A corpus input (`inN.npy`) as the value the graph takes."""
    if type_name == "int":
        return int(array)
    if type_name == "float":
        return float(array)
    if type_name == "bool":
        return bool(array)
    return torch.from_numpy(np.array(array))


def flatten(value):
    """A graph's result as the corpus stores outputs: tuples and lists
    depth-first, dicts by their values in insertion order, tensors and
    scalars as numpy arrays."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in flatten(item)]
    if isinstance(value, torch.Tensor):
        return [value.detach().numpy()]
    return [np.array(value)]


def parses(text):
    """Whether torch's own parser reads the graph text."""
    try:
        torch._C.parse_ir(text)
        return True
    except Exception:
        return False
