#!/usr/bin/python3
"""cpu_perf.py - the CPU performance table: tsir-run against PyTorch, one command.

    /usr/bin/python3 benchmarks/cpu_perf.py [--threads 1,2] [--rows ROW,...]
        [--quick] [--build DIR] [--out FILE] [--keep DIR] [--timeout S]

For each row (ROWS below) and thread count N: `tsir-run --threads N --bench R`
(median, run only, compile excluded), after checking tsir's outputs against
torch's; PyTorch 1.13 eager and TorchScript (frozen) on the same inputs with
torch.set_num_threads(N), medians, in separate processes: one with the
reference BLAS, one with OpenBLAS (chosen by LD_LIBRARY_PATH and checked in
/proc/self/maps). Installs libopenblas0-pthread if missing and sets the
libblas.so.3 / liblapack.so.3 alternatives back to what they were. Graphs,
weights and inputs are made by test/e2e/run_models.py's export(). Prints the
machine facts and a markdown table, also written to --out.
"""

import argparse
import collections
import datetime
import functools
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn as nn

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))
import run_models  # noqa: E402
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402

LIBDIR = "/usr/lib/x86_64-linux-gnu"
BLAS_DIRS = {"reference": f"{LIBDIR}/blas", "OpenBLAS": f"{LIBDIR}/openblas-pthread"}
ALTERNATIVES = ["libblas.so.3-x86_64-linux-gnu", "liblapack.so.3-x86_64-linux-gnu"]


class PointwiseChain(nn.Module):
    """The corpus's pointwise_chain: d=(a+b)^2; e=tanh(d*(a+b)); d+(e+e)."""

    def forward(self, a, b):
        c = a + b
        d = c * c
        e = torch.tanh(d * c)
        return d + (e + e)


class MatMul(nn.Module):
    def forward(self, a, b):
        return torch.mm(a, b)


class LSTMLoopWeightsAsInputs(nn.Module):
    """run_models.LSTMLoop as seed 000's simple_lstm writes it: the weights
    are graph inputs, not constants, so each step's `w.t()` is in the loop."""

    def forward(self, xs, h, c, w_ih, w_hh, b):
        for t in range(xs.size(0)):
            gates = torch.mm(xs[t], w_ih.t()) + torch.mm(h, w_hh.t()) + b
            i, f, g, o = gates.chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


@functools.lru_cache(None)
def torchvision_models():
    return run_models.models()  # seeded: the same weights in every process


def seeded(build):
    def wrapped():
        torch.manual_seed(0)
        return build()
    return wrapped


Row = collections.namedtuple("Row", "title build tsir_runs quick_runs rtol atol trace",
                             defaults=(False,))
ROWS = {
    "pointwise_4m": Row("pointwise chain, 4M f32", seeded(lambda: (
        PointwiseChain(), [torch.randn(4 << 20), torch.randn(4 << 20)])), 50, 10, 1e-5, 1e-5),
    "pointwise_64m": Row("pointwise chain, 64M f32", seeded(lambda: (
        PointwiseChain(), [torch.randn(64 << 20), torch.randn(64 << 20)])), 10, 3, 1e-5, 1e-5),
    "lstm_loop": Row("LSTM loop, 64 steps, hidden 32, batch 1", seeded(lambda: (
        run_models.LSTMLoop(inputs=32, hidden=32),
        [torch.randn(64, 1, 32), torch.zeros(1, 32), torch.zeros(1, 32)])), 500, 100, 1e-4, 1e-5),
    "lstm_loop_inputs": Row("LSTM loop, weights as graph inputs, 64 steps, hidden 32, batch 1",
                            seeded(lambda: (LSTMLoopWeightsAsInputs(), [
                                torch.randn(64, 1, 32), torch.zeros(1, 32), torch.zeros(1, 32),
                                torch.randn(128, 32) * 0.1, torch.randn(128, 32) * 0.1,
                                torch.randn(128) * 0.1])), 500, 100, 1e-4, 1e-5),
    "mlp": Row("MLP, 3 Linear 1024 + ReLU, batch 64", seeded(lambda: (
        run_models.MLP(width=1024, depth=3), [torch.randn(64, 1024)])), 10, 3, 1e-3, 1e-4),
    "transformer": Row("TransformerEncoderLayer(256, 4, 1024), seq 128, batch 1 (traced)",
                       seeded(lambda: (nn.TransformerEncoderLayer(256, 4, 1024),
                                       [torch.randn(128, 1, 256)])), 20, 5, 1e-3, 1e-4, True),
    "resnet18": Row("ResNet-18, batch 1, 224x224, frozen",
                    lambda: torchvision_models()["resnet18"][:2], 5, 2, 1e-3, 1e-3),
    "mobilenet_v2": Row("MobileNet v2, batch 1, 224x224, frozen",
                        lambda: torchvision_models()["mobilenet_v2"][:2], 10, 3, 1e-3, 1e-3),
    "gemm": Row("GEMM 1024x1024x1024 f32 (aten::mm)", seeded(lambda: (
        MatMul(), [torch.randn(1024, 1024), torch.randn(1024, 1024)])), 3, 1, 1e-3, 1e-3),
}
GEMM_FLOP = 2 * 1024 ** 3


def log(message):
    print(message, file=sys.stderr, flush=True)


def numbered(case, prefix):
    """case/{prefix}0.npy, {prefix}1.npy, ... as far as they go."""
    paths = []
    while os.path.exists(path := os.path.join(case, f"{prefix}{len(paths)}.npy")):
        paths.append(path)
    return paths


def median_ms(fn, budget_s, min_runs, warmup=1):
    """Median of enough runs of fn() to fill budget_s (at least min_runs)."""
    for _ in range(warmup):
        fn()
    times = []
    while len(times) < min_runs or (sum(times) < budget_s * 1e3 and len(times) < 2000):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


# --- PyTorch, in child processes --------------------------------------------

def loaded_blas():
    """The BLAS files this process has mapped."""
    return {line.split()[5] for line in open("/proc/self/maps")
            if len(line.split()) >= 6 and "blas" in os.path.basename(line.split()[5])}


def torch_child(args):
    """Times eager and TorchScript for the rows; prints one JSON line."""
    want = os.path.realpath(os.path.join(BLAS_DIRS[args.torch_child], "libblas.so.3"))
    names = [os.path.basename(p) for p in loaded_blas()]
    if ({p for p in loaded_blas() if os.path.basename(p).startswith("libblas")} != {want}
            or any("openblas" in n for n in names) != (args.torch_child == "OpenBLAS")):
        sys.exit(f"cpu_perf: asked for the {args.torch_child} BLAS ({want}), "
                 f"but the process mapped {sorted(loaded_blas())}")
    torch.set_num_threads(args.threads[0])
    assert torch.get_num_threads() == args.threads[0]
    budget, min_runs = (0.3, 2) if args.quick else (2.0, 5)
    results = {}
    for name in args.rows:
        case = os.path.join(args.work, name)
        module = torch.load(os.path.join(case, "eager.pt"))
        scripted = torch.jit.load(os.path.join(case, "torchscript.pt"))
        inputs = [torch.from_numpy(np.load(p)) for p in numbered(case, "in")]
        result = {}
        with torch.no_grad():
            result["eager"] = median_ms(lambda: module(*inputs), budget, min_runs)
            # The profiling executor optimizes the graph after two runs.
            result["script"] = median_ms(lambda: scripted(*inputs), budget, min_runs, warmup=3)
        if name.startswith("pointwise"):
            a, b = inputs[0].numpy(), inputs[1].numpy()
            out = np.empty_like(a)
            result["floor"] = median_ms(lambda: np.add(a, b, out=out), budget, min_runs)
        results[name] = result
        log(f"  torch {args.torch_child:9} threads={args.threads[0]} {name}: "
            f"eager {result['eager']:.3f} ms, TorchScript {result['script']:.3f} ms")
    print("RESULT " + json.dumps({"blas": sorted(loaded_blas()), "rows": results}))


def torch_rss_child(args):
    """Runs the row's eager torch model three times (or nothing): for /usr/bin/time."""
    torch.set_num_threads(args.threads[0])
    if args.torch_rss != "none":
        case = os.path.join(args.work, args.torch_rss)
        module = torch.load(os.path.join(case, "eager.pt"))
        inputs = [torch.from_numpy(np.load(p)) for p in numbered(case, "in")]
        with torch.no_grad():
            for _ in range(3):
                module(*inputs)


def timed_child(command, env=None, timeout=None):
    """Runs command under /usr/bin/time in its own process group; returns
    (exit code, output, peak RSS in MB or None, wall seconds)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as rss:
        start = time.perf_counter()
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss.name] + command,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=env, start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return 124, f"timed out after {timeout} s", None, timeout
        wall = time.perf_counter() - start
        lines = rss.read().split()
        peak = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else None
        return proc.returncode, output, peak, wall


def run_torch(args, blas, threads):
    env = dict(os.environ, LD_LIBRARY_PATH=BLAS_DIRS[blas], OMP_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads))
    command = [sys.executable, os.path.abspath(__file__), "--torch-child", blas,
               "--threads", str(threads), "--rows", ",".join(args.rows), "--work", args.work]
    done = subprocess.run(command + (["--quick"] if args.quick else []), env=env,
                          stdout=subprocess.PIPE, text=True)
    lines = [l for l in done.stdout.splitlines() if l.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        sys.exit(f"cpu_perf: the PyTorch timing process ({blas} BLAS, {threads} threads) failed")
    return json.loads(lines[-1][len("RESULT "):])


def torch_rss(args, row, threads):
    env = dict(os.environ, LD_LIBRARY_PATH=BLAS_DIRS["reference"], OMP_NUM_THREADS=str(threads))
    code, output, peak, _ = timed_child(
        [sys.executable, os.path.abspath(__file__), "--torch-rss", row, "--threads", str(threads),
         "--work", args.work], env=env)
    if code != 0:
        sys.exit(f"cpu_perf: the torch RSS process failed: {output}")
    return peak


# --- tsir -----------------------------------------------------------------------

def run_tsir(args, name, threads, runs):
    """One tsir-run; returns a dict with compile, run, bench, rss, wall or error."""
    case = os.path.join(args.work, name)
    outdir = os.path.join(case, f"out-{threads}")
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    command = [os.path.join(args.build, "bin", "tsir-run"), os.path.join(case, "graph.txt"),
               "--weights", os.path.join(case, "weights.safetensors"), "--output-dir", outdir,
               "--threads", str(threads),
               # The compile column is a compile: not a load from the
               # persistent plan cache (docs/plan-cache.md).
               "--plan-cache", "off"]
    for path in numbered(case, "in"):
        command += ["--input", path]
    if runs:
        command += ["--bench", str(runs)]
    code, output, rss, wall = timed_child(command, timeout=args.timeout)
    if code != 0:
        lines = output.strip().splitlines() or [f"exit code {code}"]
        return {"failed": "error", "error": f"tsir-run exit {code}: {lines[-1][:200]}"}
    found = {key: float(m.group(1)) for key, pattern in
             [("compile", r"^compile: ([0-9.]+) s"), ("run", r"^run: ([0-9.]+) ms"),
              ("bench", r"^bench: \d+ runs, median ([0-9.]+) ms")]
             if (m := re.search(pattern, output, re.M))}
    expected = [np.load(p) for p in numbered(case, "expected")]
    problem = tsir_run.compare(expected, outdir, ROWS[name].rtol, ROWS[name].atol,
                               threads=None)  # one tsir-run per count here
    if problem:
        found.update(failed="mismatch", error=f"mismatch with torch: {problem}")
    found.update(rss=rss, wall=wall)
    return found


# --- the run ------------------------------------------------------------------

def query_alternative(name):
    out = subprocess.run(["update-alternatives", "--query", name], capture_output=True,
                         text=True).stdout
    fields = dict(line.split(": ", 1) for line in out.splitlines()
                  if line.startswith(("Status:", "Value:")))
    return fields.get("Status"), fields.get("Value")


def ensure_openblas():
    """Installs libopenblas0-pthread if missing, then puts the system's BLAS
    and LAPACK alternatives back. Returns a line for the report."""
    if os.path.exists(os.path.join(BLAS_DIRS["OpenBLAS"], "libblas.so.3")):
        return "OpenBLAS was already installed."
    before = {name: query_alternative(name) for name in ALTERNATIVES}
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends",
               "libopenblas0-pthread"]
    try:
        log("installing libopenblas0-pthread ...")
        if subprocess.run(install, env=env, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
            subprocess.run(install, env=env, capture_output=True)
    finally:
        restored = []
        for name, (status, value) in before.items():
            if value and query_alternative(name) != (status, value):
                subprocess.run(["update-alternatives", "--set", name, value], capture_output=True)
                restored.append(f"{name} -> {value}")
    if not os.path.exists(os.path.join(BLAS_DIRS["OpenBLAS"], "libblas.so.3")):
        return "OpenBLAS could not be installed (apt-get failed): OpenBLAS columns are n/a."
    return ("Installed libopenblas0-pthread for this run; the system's alternatives: "
            + ("; ".join(restored) + " (set back, in manual mode)" if restored else "unchanged")
            + ".")


def prepare(args):
    """Writes each row's graph, weights, inputs, torch's outputs and the
    frozen TorchScript module under args.work."""
    for name in args.rows:
        case = os.path.join(args.work, name)
        log(f"exporting {name} ...")
        module, inputs = ROWS[name].build()
        frozen = run_models.export(module, case, inputs if ROWS[name].trace else None)
        torch.save(module, os.path.join(case, "eager.pt"))
        torch.jit.save(frozen, os.path.join(case, "torchscript.pt"))
        for i, tensor in enumerate(inputs):
            np.save(os.path.join(case, f"in{i}.npy"), tensor.numpy())
        with torch.no_grad():
            for i, value in enumerate(torch_cases.flatten(frozen(*inputs))):
                np.save(os.path.join(case, f"expected{i}.npy"), value)


def machine_facts(args, blas_note, mapped):
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    import torchvision
    blas = "; ".join(f"{k}: {', '.join(files)}" for k, files in mapped.items())
    system = query_alternative(ALTERNATIVES[0])
    return [
        f"- date: {datetime.datetime.now():%Y-%m-%d %H:%M}; tsir {commit}, build {args.build}",
        f"- CPU: {cpu}, {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}",
        f"- torch {torch.__version__}, torchvision {torchvision.__version__}, "
        f"numpy {np.__version__}",
        f"- BLAS mapped by the torch processes (/proc/self/maps): {blas}",
        f"- system libblas.so.3 alternative: {system[1]} ({system[0]} mode)",
        f"- {blas_note}",
        f"- repeats: {'--quick' if args.quick else 'full'}; tsir `--bench` runs per row: "
        + ", ".join(f"{n} {ROWS[n].quick_runs if args.quick else ROWS[n].tsir_runs}"
                    for n in args.rows),
    ]


def cell(value, fmt="{:.3f}"):
    return "n/a" if value is None else fmt.format(value)


def ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.2f}x"


def gflops(ms):
    return None if ms is None else GEMM_FLOP / ms / 1e6


def table_row(name, threads, tsir, torch_ms, notes):
    """One markdown row; torch_ms is {blas: {row: {eager, script, floor}}}."""
    def both(key):  # [reference, OpenBLAS]
        return [torch_ms.get(b, {}).get(name, {}).get(key) for b in BLAS_DIRS]
    eager, script = both("eager"), both("script")
    t = None if "failed" in tsir else tsir.get("bench")
    notes = ([tsir["error"].replace("|", "\\|")] if "failed" in tsir else []) + notes
    if name.startswith("pointwise") and both("floor")[0]:
        floor = both("floor")[0]
        notes.append(f"floor (np.add, out=) {floor:.3f} ms, tsir/floor {ratio(t, floor)}")
    if name == "gemm":
        share = None if t is None or eager[1] is None else 100 * eager[1] / t
        notes.append(f"GFLOP/s: tsir {cell(gflops(t), '{:.1f}')}, torch.mm reference "
                     f"{cell(gflops(eager[0]), '{:.1f}')}, OpenBLAS "
                     f"{cell(gflops(eager[1]), '{:.1f}')}; tsir = {cell(share, '{:.1f}')}% "
                     "of torch.mm with OpenBLAS")
    return [ROWS[name].title, str(threads), cell(tsir.get("compile"), "{:.2f}"),
            tsir.get("failed") or cell(t),
            " / ".join(cell(x) for x in eager), " / ".join(cell(x) for x in script),
            " / ".join(ratio(t, x) for x in eager), " / ".join(ratio(t, x) for x in script),
            "; ".join(notes)]


def measure(args, threads, blases, mapped):
    """The table's rows at `threads` threads."""
    tsir, torch_ms, lines = {}, {}, []
    for name in args.rows:
        row = ROWS[name]
        runs = row.quick_runs if args.quick else row.tsir_runs
        tsir[name] = run_tsir(args, name, threads, runs)
        log(f"  tsir threads={threads} {name}: "
            + (tsir[name].get("error") or f"{tsir[name]['bench']:.3f} ms"))
    for blas in blases:
        result = run_torch(args, blas, threads)
        torch_ms[blas], mapped[blas] = result["rows"], result["blas"]
    for name in args.rows:
        notes = []
        if name == "resnet18":
            ready = run_tsir(args, name, threads, 0)
            if "failed" not in ready:
                notes.append("tsir-run start to ready (import, weights, compile) "
                             f"{ready['wall'] - ready['run'] / 1e3:.2f} s")
            model, bare = torch_rss(args, name, threads), torch_rss(args, "none", threads)
            notes.append(f"peak RSS: tsir-run {cell(tsir[name].get('rss'), '{:.0f}')} MB, "
                         f"python running the torch model {model:.0f} MB "
                         f"(python importing torch alone {bare:.0f} MB)")
        lines.append(table_row(name, threads, tsir[name], torch_ms, notes))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--rows", default=",".join(ROWS), help="rows: " + ", ".join(ROWS))
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"), help="tsir build dir")
    parser.add_argument("--out", help="also write the report (markdown) here")
    parser.add_argument("--keep", help="make the cases here and keep them")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per tsir-run")
    parser.add_argument("--torch-child", choices=BLAS_DIRS, help=argparse.SUPPRESS)
    parser.add_argument("--torch-rss", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.threads = [int(t) for t in args.threads.split(",")]
    args.rows = args.rows.split(",")
    if unknown := [r for r in args.rows if r not in ROWS]:
        parser.error(f"unknown rows {unknown}; rows are {', '.join(ROWS)}")
    if args.torch_child:
        return torch_child(args)
    if args.torch_rss:
        return torch_rss_child(args)

    args.build = os.path.abspath(args.build)
    if not os.access(os.path.join(args.build, "bin", "tsir-run"), os.X_OK):
        parser.error(f"no tsir-run in {args.build}/bin (build first, or give --build)")
    if not os.path.exists(os.path.join(BLAS_DIRS["reference"], "libblas.so.3")):
        sys.exit(f"cpu_perf: no reference BLAS in {BLAS_DIRS['reference']}")
    blas_note = ensure_openblas()
    blases = [b for b, d in BLAS_DIRS.items() if os.path.exists(os.path.join(d, "libblas.so.3"))]
    args.work = (os.path.abspath(args.keep) if args.keep
                 else tempfile.mkdtemp(prefix="tsir-perf-"))
    started = time.perf_counter()
    try:
        prepare(args)
        mapped = {}
        by_threads = [measure(args, threads, blases, mapped) for threads in args.threads]
        lines = [rows[i] for i in range(len(args.rows)) for rows in by_threads]
        header = ["benchmark", "threads", "tsir compile (s)", "tsir run (ms)",
                  "eager ms (ref / OpenBLAS)", "TorchScript ms (ref / OpenBLAS)",
                  "tsir/eager (ref / OpenBLAS)", "tsir/TorchScript (ref / OpenBLAS)", "notes"]
        report = machine_facts(args, blas_note, mapped) + [
            f"- whole run: {time.perf_counter() - started:.0f} s", "",
            "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        report += ["| " + " | ".join(row) + " |" for row in lines]
        print("\n".join(report))
        if args.out:
            with open(args.out, "w") as f:
                f.write("\n".join(report) + "\n")
    finally:
        if not args.keep:
            shutil.rmtree(args.work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
