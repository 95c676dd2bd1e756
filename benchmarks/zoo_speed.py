#!/usr/bin/python3
"""zoo_speed.py - the model zoo's speed: tsir against PyTorch eager, per thread count.

    /usr/bin/python3 benchmarks/zoo_speed.py [--tsir-run build/bin/tsir-run]
        [--model NAME ...] [--runs 5] [--threads 1,2] [--table FILE]

Each model of test/models/zoo.py (torchvision 0.14 with seeded random
weights, scripted or traced and frozen by torch, batch 1) is exported
once. Then, for each thread count in turn, tsir and eager torch are timed
back to back on it: `tsir-run --bench N` (the median of N runs after the
first, compiling excluded; the plan is compiled once, into a plan cache in
a temporary folder, and loaded from it for the next thread count) and the
median of N calls of the frozen module at torch's thread count, with
OpenBLAS's own pool on one thread or on as many (the faster of the two
for that model, so eager is at its best), under OMP_WAIT_POLICY=PASSIVE
(torch's spinning OpenMP threads and OpenBLAS's made eager 2-5x slower at
2 threads than at 1 on a 2-core machine); a
model whose tsir outputs differ from torch's is reported, not timed. A row per model and thread count:
the two medians and their ratio (tsir / eager: below 1, tsir is faster);
then, per thread count, the geometric mean of the ratios and the worst
one, and tsir's speed-up from 1 to 2 threads where both were run.

Debian's torch links the generic libblas.so.3, the reference BLAS unless
told otherwise (../shared/ENVIRONMENT.md): the script runs itself again
with OpenBLAS's directory first on LD_LIBRARY_PATH, as PyTorch users have
it, and checks that OpenBLAS is what the process mapped.
"""

import argparse
import ctypes
import math
import os
import re
import shutil
import sys
import tempfile

OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
if os.path.isdir(OPENBLAS) and not os.environ.get(
        "LD_LIBRARY_PATH", "").startswith(OPENBLAS):
    os.environ["LD_LIBRARY_PATH"] = OPENBLAS + ":" + os.environ.get(
        "LD_LIBRARY_PATH", "")
    # torch's OpenMP threads spinning while OpenBLAS's own threads want
    # the same cores made eager 2-5x slower at 2 threads than at 1.
    if "OMP_WAIT_POLICY" not in os.environ:
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
        os.environ["TSIR_BENCH_SET_WAIT_POLICY"] = "1"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import torch  # noqa: E402

# OpenMP read the policy as torch loaded; tsir-run, whose parallel regions
# are OpenMP's too, runs with its default.
if os.environ.pop("TSIR_BENCH_SET_WAIT_POLICY", None):
    del os.environ["OMP_WAIT_POLICY"]

ROOT = os.path.normpath(os.path.join(os.path.dirname(
    os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "models"))
sys.path.insert(0, os.path.join(ROOT, "test", "lib"))
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402
import zoo  # noqa: E402


def blas_in_use():
    with open("/proc/self/maps") as maps:
        names = {os.path.basename(line.split()[5]) for line in maps
                 if len(line.split()) >= 6 and "blas" in line}
    return "OpenBLAS" if any("openblas" in n for n in names) else "reference"


def set_eager_threads(count, blas_count):
    """torch's intra-op threads, and OpenBLAS's own pool, which
    torch.set_num_threads does not size: left alone, OpenBLAS runs every
    product on all cores whatever torch's count."""
    torch.set_num_threads(count)
    with open("/proc/self/maps") as maps:
        paths = {line.split()[5] for line in maps
                 if len(line.split()) >= 6 and "libopenblas" in line}
    for path in paths:
        ctypes.CDLL(path).openblas_set_num_threads(blas_count)


def eager_ms(model, inputs, runs, threads):
    """Eager's median at its best at `threads`: with OpenBLAS on one
    thread (torch parallelizes around it) or on as many (torch calls it
    from one), whichever is faster for this model."""
    best = None
    for blas_count in sorted({1, threads}):
        set_eager_threads(threads, blas_count)
        median = zoo.eager_ms(model, inputs, runs)
        best = median if best is None else min(best, median)
    return best


def exported(name, workdir):
    """The model frozen by torch and written to workdir, and its inputs;
    None where torch cannot script it."""
    model, inputs = zoo.build(name)
    model = model.eval()
    try:
        if name in zoo.SEGMENTATION:
            frozen = zoo.export(zoo.DictToTuple(model), workdir,
                                trace_inputs=inputs)
        elif name in zoo.TRACED:
            frozen = zoo.export(model, workdir, trace_inputs=inputs)
        else:
            frozen = zoo.export(model, workdir)
    except Exception as error:  # noqa: BLE001 - torch's own failure
        print(f"SKIP {name}: torch cannot script and freeze it: {error}")
        return None
    return frozen, inputs


def tsir_ms(args, name, workdir, inputs, threads, cache):
    """tsir-run's median over --runs, or the error."""
    extra = ["--quiet", "--bench", str(args.runs), "--plan-cache", cache]
    if name in zoo.DETECTION:
        extra += ["--load-ops", zoo.torchvision_ops(args.tsir_run)]
    outdir = os.path.join(workdir, f"out-{threads}")
    code, output = tsir_run.run(
        args.tsir_run, os.path.join(workdir, "graph.txt"),
        [zoo.as_numpy(t) for t in inputs], outdir,
        weights=os.path.join(workdir, "weights.safetensors"), extra=extra,
        threads=(threads,), timeout=1800)
    median = re.search(r"median ([0-9.]+) ms", output)
    if code != 0 or not median:
        lines = [l for l in output.splitlines() if "error" in l]
        return None, (lines[0] if lines else output.strip()[-200:])
    return float(median.group(1)), outdir


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tsir-run", default=os.path.join(
        ROOT, "build", "bin", "tsir-run"))
    parser.add_argument("--model", action="append")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--table")
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]
    print(f"eager BLAS: {blas_in_use()}; threads {counts}; "
          f"median of {args.runs}")
    names = args.model or (zoo.CLASSIFICATION + zoo.SEGMENTATION + zoo.VIDEO
                           + zoo.OPTICAL_FLOW + zoo.DETECTION)
    work = tempfile.mkdtemp(prefix="tsir-zoo-speed-")
    cache = os.path.join(work, "plan-cache")
    rows, ratios, tsir_times = [], {n: [] for n in counts}, {}
    try:
        for name in names:
            workdir = os.path.join(work, name)
            made = exported(name, workdir)
            if made is None:
                continue
            frozen, inputs = made
            for threads in counts:
                set_eager_threads(threads, threads)
                tsir, detail = tsir_ms(args, name, workdir, inputs, threads,
                                       cache)
                if tsir is None:
                    print(f"FAIL {name} ({threads} threads): {detail}")
                    continue
                with torch.no_grad():
                    result = frozen(*inputs)
                if name in zoo.DETECTION:
                    problem = zoo.compare_detections(
                        result[1], detail, zoo.DETECTION_TOL.get(name, 1e-3))
                else:
                    problem = tsir_run.compare(torch_cases.flatten(result),
                                               detail, 1e-3, 1e-3,
                                               threads=(threads,))
                if problem:
                    print(f"WRONG {name} ({threads} threads): {problem}")
                    continue
                eager = eager_ms(frozen, inputs, args.runs, threads)
                ratio = tsir / eager
                ratios[threads].append((ratio, name))
                tsir_times[(name, threads)] = tsir
                rows.append((name, threads, tsir, eager, ratio))
                print(f"{name:40s} {threads} thr  tsir {tsir:9.2f} ms  "
                      f"eager {eager:9.2f} ms  ratio {ratio:5.2f}",
                      flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = []
    for threads in counts:
        if not ratios[threads]:
            continue
        values = [r for r, _ in ratios[threads]]
        geomean = math.exp(sum(math.log(r) for r in values) / len(values))
        worst, worst_name = max(ratios[threads])
        summary.append(f"{threads} thread(s): {len(values)} models, geomean "
                       f"{geomean:.2f}, worst {worst:.2f} ({worst_name})")
    if 1 in counts and 2 in counts:
        speedups = [tsir_times[(n, 1)] / tsir_times[(n, 2)]
                    for n in names if (n, 1) in tsir_times
                    and (n, 2) in tsir_times]
        if speedups:
            summary.append(f"tsir 1 -> 2 threads: geomean speed-up "
                           f"{math.exp(sum(map(math.log, speedups)) / len(speedups)):.2f}x")
    for line in summary:
        print(line)
    if args.table:
        with open(args.table, "w") as f:
            f.write("| model | threads | tsir ms | eager ms | tsir / eager |\n")
            f.write("|---|---|---|---|---|\n")
            for name, threads, tsir, eager, ratio in rows:
                f.write(f"| {name} | {threads} | {tsir:.2f} | {eager:.2f} | "
                        f"{ratio:.2f} |\n")
            f.write("\n" + "\n".join(f"- {line}" for line in summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
