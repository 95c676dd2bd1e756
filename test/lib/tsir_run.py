"""tsir_run.py - run a graph through `tsir-run` and compare with expected arrays.

Shared by the end-to-end suites (test/e2e/run_corpus*.py,
test/e2e/run_op_cases.py, test/e2e/run_grad_cases.py). Outputs must match
in count, dtype and shape, and in value within rtol/atol, with NaN where the
expected value is NaN.

Compiled code runs its large loops on OpenMP threads, so every case runs at
each of THREADS: `tsir-run --threads 1,2` runs the one compiled plan once per
count (compiling is what takes the time) and writes the outputs of the later
counts to OUTDIR/threads-N/, and compare() checks each against the expected
arrays.
"""

import os
import subprocess

import numpy as np

# The thread counts every case runs at (`tsir-run --threads 1,2`).
THREADS = (1, 2)


def input_argument(value, path):
    """The `--input` text for one input: scalars inline, arrays as a .npy
    file written at `path`, lists as `[a, b, ...]` of their elements
    (element i's arrays at `path` with `-i` before the suffix)."""
    if isinstance(value, (list, tuple)):
        stem = path[:-4] if path.endswith(".npy") else path
        return "[" + ",".join(input_argument(v, f"{stem}-{i}.npy")
                              for i, v in enumerate(value)) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if value is None:
        return "None"
    np.save(path, value, allow_pickle=False)
    return path


def run(tsir_run, graph, inputs, outdir, weights=None, timeout=300,
        extra=(), threads=THREADS):
    """Runs tsir-run on `graph` with `inputs` (numpy arrays or Python
    scalars), once per count of `threads` (None: tsir-run's default
    count); returns (returncode, combined output)."""
    os.makedirs(outdir, exist_ok=True)
    args = [tsir_run, graph, "--output-dir", outdir]
    if threads:
        args += ["--threads", ",".join(str(n) for n in threads)]
    if weights:
        args += ["--weights", weights]
    for i, value in enumerate(inputs):
        args += ["--input", input_argument(value, os.path.join(outdir, f"in{i}.npy"))]
    args += list(extra)
    try:
        done = subprocess.run(args, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"
    return done.returncode, done.stdout + done.stderr


def compare(expected, outdir, rtol, atol, values=True, threads=THREADS):
    """None if the outN.npy files in `outdir` match `expected` (a list of
    numpy arrays), and so do those of each later count of `threads` (a
    run() with the same `threads`) in `outdir`/threads-N, else what
    differs. With `values` false, only count, dtype and shape are compared
    (random ops)."""
    problem = compare_directory(expected, outdir, rtol, atol, values)
    if problem or not threads:
        return problem
    first = threads[0]
    for count in threads[1:]:
        directory = os.path.join(outdir, f"threads-{count}")
        if not os.path.isdir(directory):
            return f"no outputs for {count} threads (expected {directory})"
        problem = compare_directory(expected, directory, rtol, atol, values)
        if problem:
            return f"with {count} threads (not {first}): {problem}"
    return None


def compare_directory(expected, outdir, rtol, atol, values=True):
    """compare() for the outputs of one run, in `outdir`."""
    produced = sorted(
        (f for f in os.listdir(outdir) if f.startswith("out") and f.endswith(".npy")),
        key=lambda f: int(f[3:-4]))
    if len(produced) != len(expected):
        return f"{len(produced)} outputs, expected {len(expected)}"
    for i, want in enumerate(expected):
        got = np.load(os.path.join(outdir, f"out{i}.npy"), allow_pickle=False)
        want = np.asarray(want)
        if got.dtype != want.dtype:
            return f"out{i}: dtype {got.dtype}, expected {want.dtype}"
        if got.shape != want.shape:
            return f"out{i}: shape {got.shape}, expected {want.shape}"
        if not values:
            continue
        if want.dtype == np.bool_ or np.issubdtype(want.dtype, np.integer):
            if not np.array_equal(got, want):
                bad = np.argwhere(got != want)[0]
                return (f"out{i}: differs at {tuple(bad)}: "
                        f"{got[tuple(bad)]} vs {want[tuple(bad)]}")
            continue
        g = got.astype(np.float64)
        w = want.astype(np.float64)
        close = np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        if not close.all():
            bad = tuple(np.argwhere(~close)[0])
            return (f"out{i}: differs at {bad}: {g[bad]!r} vs {w[bad]!r} "
                    f"(max abs error {np.nanmax(np.abs(g - w)):.3g})")
    return None


class CorpusCase:
    """One data case of the shared corpus (its README gives the format)."""

    def __init__(self, name, directory, meta):
        self.name = name
        self.directory = directory
        self.meta = meta
        self.graph = os.path.join(directory, "graph.txt")
        self.input_paths = [os.path.join(directory, f"in{i}.npy")
                            for i in range(len(meta["input_types"]))]
        weights = os.path.join(directory, "weights.safetensors")
        self.weights = weights if os.path.isfile(weights) else None

    def inputs(self):
        """The inputs as arrays; scalars are 0-d arrays, which the tools
        read as the scalar the graph takes."""
        return [np.load(path, allow_pickle=False) for path in self.input_paths]

    def expected(self):
        return [np.load(os.path.join(self.directory, f"out{i}.npy"),
                        allow_pickle=False)
                for i in range(self.meta["num_outputs"])]

    def compare(self, outdir, threads=THREADS):
        """None if the outputs in `outdir` match PyTorch's, else what
        differs (`threads` as for compare())."""
        return compare(self.expected(), outdir, self.meta["rtol"],
                       self.meta["atol"], threads=threads)

    def run_and_compare(self, tool, program, outdir, weights=None):
        """Runs `program` (a graph for tsir-run, a model.so for
        tsir-run-model) with `tool` on the case's inputs; None if its
        outputs match PyTorch's, else what went wrong. The corpus runners
        share it so that a graph and its compiled model are held to the
        same check."""
        code, output = run(tool, program, self.inputs(), outdir,
                           weights=weights)
        if code != 0:
            return f"{os.path.basename(tool)} exited with {code}:\n{output}"
        return self.compare(outdir)

    def compile_args(self, compile_tool, *options):
        """The tsir-compile command line for this case: its graph, its
        weights if it has them, its inputs as the example inputs the spec
        comes from, then `options` (`-o model.so`, `--device cuda`)."""
        args = [compile_tool, self.graph]
        if self.weights:
            args += ["--weights", self.weights]
        for path in self.input_paths:
            args += ["--input", path]
        return args + list(options)


def report(name, problem):
    """Prints a case's `PASS name` or `FAIL name: problem` line, the lines
    the lit tests check; returns 1 for a failure (to add to a count)."""
    if problem:
        print(f"FAIL {name}: {problem}")
        return 1
    print(f"PASS {name}")
    return 0


def corpus_cases(corpus, skipped=None):
    """The cases of `corpus` that have data, by name. The names of the
    parse-only ones are appended to `skipped` when it is given."""
    import json
    for name in sorted(os.listdir(corpus)):
        directory = os.path.join(corpus, name)
        meta_path = os.path.join(directory, "meta.json")
        if not os.path.isfile(meta_path):
            continue
        meta = json.load(open(meta_path))
        if "parse-only" in meta.get("tags", []):
            if skipped is not None:
                skipped.append(name)
            continue
        yield CorpusCase(name, directory, meta)
