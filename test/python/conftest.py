# conftest.py - what the Python bindings' tests share: the corpus and its cases.
"""Fixtures for test/python. The corpus (../shared/corpus, see its README)
comes from TSIR_CORPUS, which python.test sets; run by hand,
`PYTHONPATH=build/python_packages python3 -m pytest test/python` finds it
beside the source tree."""

import json
import os
import pathlib

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = pathlib.Path(os.environ.get(
    "TSIR_CORPUS", HERE.parent.parent.parent / "shared" / "corpus"))

SCALARS = {"int": int, "float": float, "bool": bool}


class Case:
    """One corpus case: its files, inputs as the graph takes them, and the
    outputs PyTorch recorded."""

    def __init__(self, name):
        self.name = name
        self.dir = CORPUS / name
        self.meta = json.loads((self.dir / "meta.json").read_text())
        self.graph_path = self.dir / "graph.txt"
        weights = self.dir / "weights.safetensors"
        self.weights_path = weights if weights.exists() else None

    def inputs(self):
        """numpy arrays for tensors, Python scalars for int/float/bool."""
        values = []
        for i, type_name in enumerate(self.meta["input_types"]):
            array = np.load(self.dir / f"in{i}.npy")
            values.append(SCALARS[type_name](array) if type_name in SCALARS else array)
        return values

    def expected(self):
        return [np.load(self.dir / f"out{i}.npy")
                for i in range(self.meta["num_outputs"])]

    def close(self, actual, expected):
        return np.allclose(np.asarray(actual), expected, rtol=self.meta["rtol"],
                           atol=self.meta["atol"], equal_nan=True)


def data_cases():
    """Every corpus case that has data to run (not tagged parse-only)."""
    names = []
    for meta in sorted(CORPUS.glob("*/meta.json")):
        if "parse-only" not in json.loads(meta.read_text()).get("tags", []):
            names.append(meta.parent.name)
    return names


@pytest.fixture
def corpus():
    if not CORPUS.is_dir():
        pytest.fail(f"the corpus is not at {CORPUS}: set TSIR_CORPUS")
    return CORPUS


@pytest.fixture
def case(request):
    return Case(request.param)


def outputs_tuple(result):
    """A compiled graph's result as a tuple (one output comes back bare)."""
    return result if isinstance(result, tuple) else (result,)


def tsir_tool(name):
    """A tsir tool from the build (or install) tree the package comes from:
    python_packages/tsir/ sits beside bin/. Skips the test if it is not
    built, so the Python tests need only `tools/build.sh TsirPython`."""
    import tsir
    tool = pathlib.Path(tsir.__file__).resolve().parents[2] / "bin" / name
    if not os.access(tool, os.X_OK):
        pytest.skip(f"{name} is not built ({tool})")
    return tool


def tool_env():
    """The environment to run a tsir tool in: this one, less LD_PRELOAD.
    The sanitizer suite preloads ASan's runtime into Python for the
    extension; an instrumented tool carries its own, and aborts on two."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env
