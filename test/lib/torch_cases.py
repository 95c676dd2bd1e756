"""torch_cases.py - what tsir's differential tests share: corpus inputs to
torch values, torch results to flat numpy arrays, "can torch read it",
"does torch reproduce a corpus case's outputs with it", the scripted and
inlined graph text tsir imports, and a graph's text taken through tsir's
passes and back.

The corpus format (see ../shared/corpus/README.md) stores ints, floats and
bools as 0-d arrays and flattens tuple results depth-first; these helpers
convert both ways. Imported by the corpus oracles (test/Corpus,
test/Transforms, test/e2e/optimize_oracle.py), the e2e case runners and
some benchmarks.
"""

import os
import subprocess
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


def runs_as_recorded(graph, case, meta):
    """Whether torch, running `graph` on the inputs of the corpus case in
    directory `case` (a pathlib.Path; `meta` its meta.json), reproduces the
    case's recorded outputs within its rtol/atol: what the corpus oracles
    ask of every graph tsir gives back."""
    inputs = [to_input(np.load(case / f"in{i}.npy"), t)
              for i, t in enumerate(meta["input_types"])]
    function = torch._C._create_function_from_graph("f", graph)
    outputs = flatten(function(*inputs))
    expected = [np.load(case / f"out{i}.npy")
                for i in range(meta["num_outputs"])]
    return len(outputs) == len(expected) and all(
        np.allclose(o, e, rtol=meta["rtol"], atol=meta["atol"])
        for o, e in zip(outputs, expected))


def parses(text):
    """Whether torch's own parser reads the graph text."""
    try:
        torch._C.parse_ir(text)
        return True
    except Exception:
        return False


def script_inlined(fn):
    """`fn` scripted, and a copy of its graph with every call inlined: the
    one-function graph whose text tsir imports (call under SCRIPTING on a
    thread pool). Returns (scripted function, graph)."""
    scripted = torch.jit.script(fn)
    graph = scripted.graph.copy()
    torch._C._jit_pass_inline(graph)
    return scripted, graph


def write_text(directory, name, text):
    """Writes `text` (a graph) to `directory`/`name`, making the directory;
    returns the path, to give tsir-run."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def through_tsir(translate, opt, text, passes, import_options=""):
    """TorchScript `text` imported by tsir-translate (with
    `import_options`), run through tsir-opt's `passes` and exported back as
    TorchScript text. tsir-opt prints locations so that the export keeps the
    graph's value names (what the oracles match torch's values by). Returns
    the completed process: stdout is the export, a non-zero returncode and
    stderr say where tsir failed."""
    return subprocess.run(
        f"{translate} --import-torchscript - {import_options} | "
        f"{opt} {passes} --mlir-print-debuginfo | "
        f"{translate} --export-torchscript",
        shell=True, input=text, capture_output=True, text=True)
