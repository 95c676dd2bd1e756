# _aot.py - tsir.compile_model and tsir.load_model: ahead-of-time models.
"""A graph compiled ahead of time into a model.so, as `tsir-compile` writes
one, and run through the runtime's Model API (tsir-runtime/Model.h), as
`tsir-run model.so` runs one: no MLIR at load or run time. Arguments and
results convert as tsir.compile's Function converts them.

Linking a model needs the model ABI archive, libTsirModelABI.a (and, for
CUDA models, libTsirRuntime.so). tsir-compile finds them in ../lib beside
its own bin/; this package finds them in ../../lib beside python_packages/
tsir/, which is build/lib in the build tree and <prefix>/lib in an
installed one. $TSIR_LIBRARY_DIR overrides that."""

import os

from ._compile import call_native, native_arguments
from ._tsir import Error, Graph, _compile_model, _Model
from ._weights import save_weights


def library_dir():
    """Where libTsirModelABI.a and libTsirRuntime.so are."""
    override = os.environ.get("TSIR_LIBRARY_DIR")
    if override:
        return override
    from . import _tsir
    package = os.path.dirname(os.path.abspath(_tsir.__file__))
    return os.path.normpath(os.path.join(package, "..", "..", "lib"))


def compile_model(graph, path, *, spec=None, example_inputs=None, device="cpu",
                  optimize=True, external_weights=None, target_cpu="host",
                  linker=None):
    """Compiles `graph` (a tsir.Graph) ahead of time into the shared library
    `path`, which tsir.load_model, `tsir-run path` and any C program
    (tsir-runtime/tsir_model.h) run; returns the spec it was compiled for.

    The inputs to compile for: `spec`, as tsir-compile's --spec takes it
    ("Float(1, 3, 224, 224), int"; a frozen module's `self` left out), or
    `example_inputs`, a sequence of arguments as a Function takes them.
    device: "cpu" or "cuda". optimize=False skips tsir-optimize.
    external_weights: a path; the graph's weights are written there
    (save_weights) and left out of the library, which maps that file when
    it loads. target_cpu: "host" or an LLVM CPU name ("x86-64-v3").
    linker: a C compiler driver to link with (default $TSIR_LINKER, else
    the system linker directly, docs/aot.md).
    """
    if not isinstance(graph, Graph):
        raise TypeError("compile_model takes a tsir.Graph (tsir.from_torch "
                        f"makes one from torch), not {type(graph).__name__}")
    if (spec is None) == (example_inputs is None):
        raise Error("give the inputs to compile for: spec=\"Float(2, 3), int\" "
                    "or example_inputs=[...], one of them")
    examples = None
    if example_inputs is not None:
        examples = native_arguments(example_inputs, [False])
    weights_file = ""
    if external_weights is not None:
        weights_file = os.path.abspath(os.fspath(external_weights))
        save_weights(weights_file, graph)
    return _compile_model(graph, os.fspath(path), spec or "", examples, device,
                          optimize, weights_file, target_cpu, linker or "",
                          library_dir())


def _from_model(name, doc=None):
    """A read-only property of Model that is the runtime model's own
    attribute `name`."""
    return property(lambda self: getattr(self._model, name), doc=doc)


class Model:
    """A model.so loaded through the runtime; call it with the inputs it
    was compiled for (`input_names`, `input_types`).

    Arguments and results are a Function's: numpy arrays or torch tensors
    (without copies where their memory can be shared), Python scalars;
    one output bare, several as a tuple, torch tensors back when torch
    tensors went in. Inputs must match the compiled spec exactly.
    """

    def __init__(self, path, weights=None):
        self.path = os.fspath(path)
        self._model = _Model(self.path, os.fspath(weights) if weights else "")

    def __call__(self, *args):
        return call_native(self._model, args)

    # What the runtime's Model says of itself, read through unchanged.
    input_names = _from_model("input_names")
    input_types = _from_model(
        "input_types", "The compiled spec of each input: `Float(2, 3)`, `int`.")
    spec = _from_model("spec", "The spec it was compiled for: `Float(2, 3), int`.")
    device = _from_model("device")
    num_outputs = _from_model(
        "num_outputs", "Outputs per call, a graph's tuples flattened.")
    signature = _from_model(
        "signature",
        "The JSON the model describes itself with (tsir_model_signature).")

    def __repr__(self):
        return f"<tsir.Model {self.path} ({self.spec}) on {self.device}>"


def load_model(path, weights=None):
    """Loads a model.so that compile_model or tsir-compile wrote and returns
    a callable tsir.Model. weights: the safetensors file of a model
    compiled with external weights, instead of the file it names."""
    return Model(path, weights)
